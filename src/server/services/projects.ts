/**
 * Projects (spec section 3: name, project_type "room_rendering", settings): the user's folders of
 * uploads and renders. This service owns the projects table; the render module files pictures in
 * projects through the ProjectDirectory it is given, and deletes a project's pictures on request.
 */
import type { Language } from "../../shared/constants";
import { generateSecureRandomString } from "../auth/tokens";
import { preparedQuery } from "../db/prepared";
import type { Project } from "../db/schema";
import { DomainError, notFound } from "../errors";
import type { Infra } from "../infra";
import { userOwner, type ProjectDirectory, type RenderModule } from "../render";

type Deps = Pick<Infra, "db" | "clock" | "env">;

/** The project a user's upload goes to when none is chosen, named in their language. */
const FIRST_PROJECT_NAME: Record<Language, string> = { en: "My first project", es: "Mi primer proyecto", fr: "Mon premier projet" };

/** Projects on a page of the dashboard unless asked otherwise, and the most one request may ask for. */
export const PROJECT_PAGE_SIZE = 24;
export const PROJECT_PAGE_MAX = 100;

export interface ProjectPage {
  /** nextCursor of the page before; none for the first page. */
  cursor?: string | null;
  limit?: number;
}

/** "<updated_at>.<id>": where the page before ended. An unreadable cursor starts from the top. */
function parseCursor(cursor: string): { updatedAt: number; id: string } | null {
  const dot = cursor.indexOf(".");
  const updatedAt = Number(cursor.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(updatedAt)) return null;
  return { updatedAt, id: cursor.slice(dot + 1) };
}

export interface ProjectSettings {
  defaultStyle?: string;
  defaultRoomType?: string;
}

function projectView(project: Project) {
  return {
    id: project.id,
    name: project.name,
    projectType: project.project_type,
    settings: JSON.parse(project.settings) as Record<string, unknown>,
    createdAt: project.created_at,
    updatedAt: project.updated_at,
  };
}

/** What the render module may ask of projects. */
export function createProjectDirectory(deps: Deps): ProjectDirectory {
  async function isOwnProject(userId: string, projectId: string): Promise<boolean> {
    const project = await deps.db
      .selectFrom("projects")
      .select("id")
      .where("id", "=", projectId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return project !== undefined;
  }
  return {
    isOwnProject,
    async projectForUpload(userId, projectId, language) {
      if (projectId) return (await isOwnProject(userId, projectId)) ? projectId : null;
      const latest = await deps.db
        .selectFrom("projects")
        .select("id")
        .where("user_id", "=", userId)
        .orderBy("updated_at", "desc")
        .limit(1)
        .executeTakeFirst();
      if (latest) return latest.id;
      const now = deps.clock.now();
      const id = generateSecureRandomString();
      await deps.db
        .insertInto("projects")
        .values({
          id,
          user_id: userId,
          name: FIRST_PROJECT_NAME[language],
          project_type: "room_rendering",
          settings: "{}",
          created_at: now,
          updated_at: now,
        })
        .execute();
      return id;
    },
    async touch(projectId, now) {
      await deps.db.updateTable("projects").set({ updated_at: now }).where("id", "=", projectId).execute();
    },
  };
}

// Compiled once: the profile and every page of projects.list ask (decision 044).
const projectCount = preparedQuery((db, userId: string) =>
  db
    .selectFrom("projects")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId),
);

export function createProjectsService(deps: Deps, render: RenderModule) {
  async function ownedProject(userId: string, projectId: string): Promise<Project> {
    const project = await deps.db
      .selectFrom("projects")
      .selectAll()
      .where("id", "=", projectId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!project) throw notFound();
    return project;
  }

  async function countProjects(userId: string): Promise<number> {
    const [projects] = await projectCount(deps.db, userId);
    return Number(projects!.n);
  }

  return {
    /**
     * A page of the user's projects, latest first, each with its render count and latest thumbnails,
     * and how many there are in all. A constant number of statements whatever the number of projects
     * (decision 044): the page (keyset on updated_at, id), the totals, and one query for the page's renders.
     */
    async list(userId: string, page: ProjectPage = {}) {
      const limit = Math.min(Math.max(page.limit ?? PROJECT_PAGE_SIZE, 1), PROJECT_PAGE_MAX);
      const after = page.cursor ? parseCursor(page.cursor) : null;
      let query = deps.db.selectFrom("projects").selectAll().where("user_id", "=", userId);
      if (after) {
        query = query.where((eb) =>
          eb.or([eb("updated_at", "<", after.updatedAt), eb.and([eb("updated_at", "=", after.updatedAt), eb("id", "<", after.id)])]),
        );
      }
      // One row more than the page tells whether another page follows.
      const rows = await query
        .orderBy("updated_at", "desc")
        .orderBy("id", "desc")
        .limit(limit + 1)
        .execute();
      const projects = rows.slice(0, limit);
      const last = projects.at(-1);
      const [total, renders, summaries] = await Promise.all([
        countProjects(userId),
        render.userRenderCount(userId),
        render.projectRenderSummaries(projects.map((project) => project.id)),
      ]);
      return {
        projects: projects.map((project) => ({
          ...projectView(project),
          ...(summaries.get(project.id) ?? { renderCount: 0, thumbs: [] }),
        })),
        nextCursor: rows.length > limit && last ? `${last.updated_at}.${last.id}` : null,
        total,
        renders,
      };
    },

    /** One project with its renders, newest first. */
    async get(userId: string, projectId: string) {
      const project = await ownedProject(userId, projectId);
      const renders = await render.list(userOwner(userId), { projectId: project.id });
      return { project: projectView(project), renders };
    },

    async create(userId: string, name: string, settings: ProjectSettings = {}) {
      const now = deps.clock.now();
      // A cap per user (2,000 were once made in 15 s by a script); a real studio stays far below it.
      const owned = await deps.db
        .selectFrom("projects")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      if (Number(owned.count) >= deps.env.PROJECTS_PER_USER_MAX) throw new DomainError("forbidden", "tooManyProjects");
      const project = await deps.db
        .insertInto("projects")
        .values({
          id: generateSecureRandomString(),
          user_id: userId,
          name,
          project_type: "room_rendering",
          settings: JSON.stringify(settings),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return projectView(project);
    },

    async rename(userId: string, projectId: string, name: string): Promise<void> {
      const project = await ownedProject(userId, projectId);
      await deps.db.updateTable("projects").set({ name, updated_at: deps.clock.now() }).where("id", "=", project.id).execute();
    },

    async updateSettings(userId: string, projectId: string, settings: ProjectSettings): Promise<void> {
      const project = await ownedProject(userId, projectId);
      await deps.db
        .updateTable("projects")
        .set({ settings: JSON.stringify(settings), updated_at: deps.clock.now() })
        .where("id", "=", project.id)
        .execute();
    },

    /** Deletes the project with its uploads, renders and their files. */
    async delete(userId: string, projectId: string) {
      const project = await ownedProject(userId, projectId);
      const deleted = await render.deleteUserImages({ userId, projectId: project.id });
      await deps.db.deleteFrom("projects").where("id", "=", project.id).where("user_id", "=", userId).execute();
      return deleted;
    },

    count: countProjects,
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
