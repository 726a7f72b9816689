/**
 * Projects over /api/v1 (issue 31, decision 096), scope `projects`: the same projects service the
 * web app's projects.* procedures call, in the key's space only (a personal key sees its maker's
 * personal projects, a team key the team's; another space's project is 404).
 */
import express from "express";
import type { z } from "zod";
import { API_BASE } from "../../shared/api";
import { notFound } from "../errors";
import type { ApiProjectView } from "./context";
import { parsed, readCursor, writeCursor, type ApiEdge } from "./edge";
import type { ApiCaller } from "./keys";
import { idParams } from "./openapi-parts";
import { cursorQuerySchema } from "./openapi-parts";
import { projectDeletedSchema, projectNameBodySchema, projectPageSchema, projectSchema } from "./openapi-projects";

function publicProject(view: ApiProjectView): z.infer<typeof projectSchema> {
  return {
    id: view.id,
    name: view.name,
    teamId: view.teamId,
    settings: view.settings,
    createdAt: new Date(view.createdAt).toISOString(),
    updatedAt: new Date(view.updatedAt).toISOString(),
  };
}

export function projectRoutes(router: express.Router, edge: ApiEdge): void {
  const { deps, keyed } = edge;
  const json = express.json({ limit: "16kb" });
  const id = (req: express.Request) => parsed(idParams, req.params).id;

  /** The project when it is in the key's space, else 404 (the user may see it from another space). */
  const projectOf = async (caller: ApiCaller, projectId: string) => {
    const { project } = await deps.projects.get(caller.userId, projectId);
    if (project.teamId !== caller.teamId) throw notFound();
    return project;
  };

  router.get(
    `${API_BASE}/projects`,
    keyed("projects", async (caller, req) => {
      const { limit, cursor } = parsed(cursorQuerySchema, req.query);
      // The service's keyset (last change, id) travels in the API's opaque cursor.
      const after = cursor === undefined ? null : readCursor(cursor);
      const page = await deps.projects.list(
        caller.userId,
        { limit, cursor: after ? `${after.createdAt}.${after.id}` : null },
        caller.teamId,
      );
      const next = page.nextCursor?.match(/^(\d+)\.(.+)$/);
      return projectPageSchema.parse({
        projects: page.projects.map((project) => ({ ...publicProject(project), renderCount: project.renderCount })),
        nextCursor: next ? writeCursor({ createdAt: Number(next[1]), id: next[2]! }) : null,
      });
    }),
  );
  router.post(
    `${API_BASE}/projects`,
    json,
    keyed("projects", async (caller, req, res) => {
      const { name } = parsed(projectNameBodySchema, req.body);
      const made = await deps.projects.create(caller.userId, name, undefined, caller.teamId);
      res.status(201);
      return projectSchema.parse(publicProject(made));
    }),
  );
  router.get(
    `${API_BASE}/projects/:id`,
    keyed("projects", async (caller, req) => projectSchema.parse(publicProject(await projectOf(caller, id(req))))),
  );
  router.patch(
    `${API_BASE}/projects/:id`,
    json,
    keyed("projects", async (caller, req) => {
      const { name } = parsed(projectNameBodySchema, req.body);
      const project = await projectOf(caller, id(req));
      await deps.projects.rename(caller.userId, project.id, name);
      return projectSchema.parse(publicProject((await deps.projects.get(caller.userId, project.id)).project));
    }),
  );
  router.delete(
    `${API_BASE}/projects/:id`,
    keyed("projects", async (caller, req) => {
      const project = await projectOf(caller, id(req));
      await deps.projects.delete(caller.userId, project.id);
      return projectDeletedSchema.parse({ id: project.id, deleted: true });
    }),
  );
}
