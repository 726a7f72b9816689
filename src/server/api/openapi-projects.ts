/**
 * The OpenAPI description (decision 096) of projects over /api/v1 (scope projects), made from the
 * same zod schemas routes-projects.ts parses and answers with.
 */
import { z } from "zod";
import { projectNameSchema } from "../../shared/render";
import { cursorQuerySchema, errors, idempotencyHeader, idParams, type ApiPaths } from "./openapi-parts";

export const projectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    teamId: z.string().nullable().meta({ description: "The team whose space holds it; null: the key maker's personal space" }),
    settings: z.record(z.string(), z.unknown()).meta({ description: "Defaults the web app keeps for its next renders" }),
    createdAt: z.string().meta({ description: "ISO 8601" }),
    updatedAt: z.string().meta({ description: "ISO 8601: its last change (a rename, an upload, a render)" }),
  })
  .meta({ id: "Project" });

export const projectPageSchema = z
  .object({
    projects: z.array(projectSchema.extend({ renderCount: z.number().int() })),
    nextCursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last" }),
  })
  .meta({ id: "ProjectPage" });

export const projectNameBodySchema = z.object({ name: projectNameSchema }).meta({ id: "ProjectName" });

export const projectDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "ProjectDeleted" });

const project = { "application/json": { schema: projectSchema } };

export const projectPaths: ApiPaths = {
  "/projects": {
    get: {
      operationId: "listProjects",
      summary: "The space's projects, most recently changed first, a page at a time (scope projects)",
      requestParams: { query: cursorQuerySchema },
      responses: {
        "200": { description: "A page", content: { "application/json": { schema: projectPageSchema } } },
        ...errors(400, 401, 403),
      },
    },
    post: {
      operationId: "createProject",
      summary: "A new project in the key's space (scope projects); uploads may be filed in it with ?projectId=",
      requestParams: { header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: projectNameBodySchema } } },
      responses: { "201": { description: "Made", content: project }, ...errors(400, 401, 403) },
    },
  },
  "/projects/{id}": {
    get: {
      operationId: "getProject",
      summary: "A project (scope projects); its renders are GET /renders?projectId=",
      requestParams: { path: idParams },
      responses: { "200": { description: "The project", content: project }, ...errors(401, 403, 404) },
    },
    patch: {
      operationId: "renameProject",
      summary: "Rename a project (scope projects)",
      requestParams: { path: idParams },
      requestBody: { required: true, content: { "application/json": { schema: projectNameBodySchema } } },
      responses: { "200": { description: "Renamed", content: project }, ...errors(400, 401, 403, 404) },
    },
    delete: {
      operationId: "deleteProject",
      summary:
        "Delete a project with its photos, renders and their files (scope projects); a team's project: its maker, or the team's Owner or an Admin",
      requestParams: { path: idParams },
      responses: {
        "200": { description: "Deleted", content: { "application/json": { schema: projectDeletedSchema } } },
        ...errors(401, 403, 404),
      },
    },
  },
};
