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
import { roleMay } from "../../shared/teams";
import { userOwner, type ProjectDirectory, type RenderModule } from "../render";
import type { SpacesModule } from "../spaces";

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
    /** The team whose space holds it; null: a personal project. */
    teamId: project.team_id,
    name: project.name,
    projectType: project.project_type,
    settings: JSON.parse(project.settings) as Record<string, unknown>,
    createdAt: project.created_at,
    updatedAt: project.updated_at,
  };
}

/** What projects ask of the spaces module: who is a member of which team, with which rights. */
export type ProjectTeams = Pick<SpacesModule, "roleIn" | "record">;

/**
 * May the user work in the project: a personal project is its creator's; a team's, any current
 * member's (decision 070). Null when not (or no such project): the caller answers 404.
 */
async function accessibleProject(deps: Deps, teams: ProjectTeams, userId: string, projectId: string) {
  const project = await deps.db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirst();
  if (!project) return null;
  if (project.team_id !== null) {
    const role = await teams.roleIn(userId, project.team_id);
    return role === null ? null : { project, role };
  }
  return project.user_id === userId ? { project, role: "owner" as const } : null;
}

/** What the render module may ask of projects. */
export function createProjectDirectory(deps: Deps, teams: ProjectTeams): ProjectDirectory {
  async function projectAccess(userId: string, projectId: string) {
    const found = await accessibleProject(deps, teams, userId, projectId);
    return found ? { teamId: found.project.team_id } : null;
  }
  return {
    projectAccess,
    async projectForUpload(userId, projectId, language, spaceTeamId) {
      if (projectId) {
        const access = await projectAccess(userId, projectId);
        return access ? { id: projectId, teamId: access.teamId } : null;
      }
      let latestQuery = deps.db.selectFrom("projects").select("id");
      latestQuery =
        spaceTeamId !== null
          ? latestQuery.where("team_id", "=", spaceTeamId)
          : latestQuery.where("user_id", "=", userId).where("team_id", "is", null);
      const latest = await latestQuery.orderBy("updated_at", "desc").limit(1).executeTakeFirst();
      if (latest) return { id: latest.id, teamId: spaceTeamId };
      const now = deps.clock.now();
      const id = generateSecureRandomString();
      await deps.db
        .insertInto("projects")
        .values({
          id,
          user_id: userId,
          team_id: spaceTeamId,
          name: FIRST_PROJECT_NAME[language],
          project_type: "room_rendering",
          settings: "{}",
          created_at: now,
          updated_at: now,
        })
        .execute();
      return { id, teamId: spaceTeamId };
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

/** The listing module's videos follow their project into a team and pass on with a deleted account's team work (decision 112). */
export interface ProjectVideos {
  moveVideosToTeam(projectId: string, teamId: string): Promise<void>;
  handOverTeamVideos(fromUserId: string, teamId: string, toUserId: string): Promise<void>;
}

export function createProjectsService(deps: Deps, render: RenderModule, teams: ProjectTeams, videos?: ProjectVideos) {
  /** The project when the user may work in it (with their role there), else 404. */
  async function projectFor(userId: string, projectId: string) {
    const found = await accessibleProject(deps, teams, userId, projectId);
    if (!found) throw notFound();
    return found;
  }

  async function countProjects(userId: string): Promise<number> {
    const [projects] = await projectCount(deps.db, userId);
    return Number(projects!.n);
  }

  async function countTeamProjects(teamId: string): Promise<number> {
    const row = await deps.db
      .selectFrom("projects")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("team_id", "=", teamId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  return {
    /**
     * A page of the projects of the space the user works in (`teamId`, as read with the session;
     * null: their personal ones), latest first, each with its render count and latest thumbnails,
     * and how many there are in all. A constant number of statements whatever the number of projects
     * (decision 044): the page (keyset on updated_at, id), the totals, and one query for the page's renders.
     */
    async list(userId: string, page: ProjectPage = {}, teamId: string | null = null) {
      const limit = Math.min(Math.max(page.limit ?? PROJECT_PAGE_SIZE, 1), PROJECT_PAGE_MAX);
      const after = page.cursor ? parseCursor(page.cursor) : null;
      let query = deps.db.selectFrom("projects").selectAll();
      query = teamId !== null ? query.where("team_id", "=", teamId) : query.where("user_id", "=", userId).where("team_id", "is", null);
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
        teamId !== null ? countTeamProjects(teamId) : countProjects(userId),
        teamId !== null ? render.teamRenderCount(teamId) : render.userRenderCount(userId),
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

    /** One project with its renders, newest first (a team's: every member's). */
    async get(userId: string, projectId: string) {
      const { project } = await projectFor(userId, projectId);
      const renders = await render.list(userOwner(userId, project.team_id), { projectId: project.id });
      return { project: projectView(project), renders };
    },

    /** A new project in the space the user works in (`teamId`; null: personal). */
    async create(userId: string, name: string, settings: ProjectSettings = {}, teamId: string | null = null) {
      const now = deps.clock.now();
      if (teamId !== null && (await teams.roleIn(userId, teamId)) === null) throw notFound();
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
          team_id: teamId,
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
      const { project } = await projectFor(userId, projectId);
      await deps.db.updateTable("projects").set({ name, updated_at: deps.clock.now() }).where("id", "=", project.id).execute();
    },

    async updateSettings(userId: string, projectId: string, settings: ProjectSettings): Promise<void> {
      const { project } = await projectFor(userId, projectId);
      await deps.db
        .updateTable("projects")
        .set({ settings: JSON.stringify(settings), updated_at: deps.clock.now() })
        .where("id", "=", project.id)
        .execute();
    },

    /**
     * Deletes the project with its uploads, renders and their files. A team's project: its creator,
     * or the team's Owner or an Admin (a Member cannot delete a colleague's work).
     */
    async delete(userId: string, projectId: string) {
      const { project, role } = await projectFor(userId, projectId);
      if (project.team_id !== null && project.user_id !== userId && !roleMay(role, "manageMembers")) {
        throw new DomainError("forbidden", "teamRightMissing");
      }
      const deleted =
        project.team_id !== null
          ? await render.deleteUserImages({ projectId: project.id })
          : await render.deleteUserImages({ userId, projectId: project.id });
      await deps.db.deleteFrom("projects").where("id", "=", project.id).execute();
      return deleted;
    },

    /**
     * Moves one of the user's personal projects into a team they belong to, with its pictures,
     * versions and files (which stay where they are stored; their rows become the team's).
     */
    async moveToTeam(userId: string, projectId: string, teamId: string) {
      const { project } = await projectFor(userId, projectId);
      if (project.team_id !== null) throw new DomainError("conflict", "projectAlreadyInTeam");
      if ((await teams.roleIn(userId, teamId)) === null) throw notFound();
      await render.movePicturesToTeam(project.id, teamId);
      await videos?.moveVideosToTeam(project.id, teamId);
      await deps.db.updateTable("projects").set({ team_id: teamId, updated_at: deps.clock.now() }).where("id", "=", project.id).execute();
      await teams.record(teamId, userId, "projectMoved", { project: project.name });
      return projectView({ ...project, team_id: teamId });
    },

    /**
     * A deleted account's projects and pictures in a team stay the team's: they pass to `toUserId`
     * (the team's Owner), since each row needs an author and the account is gone (decision 070).
     */
    async handOverTeamWork(fromUserId: string, teamId: string, toUserId: string): Promise<void> {
      await render.handOverTeamPictures(fromUserId, teamId, toUserId);
      await videos?.handOverTeamVideos(fromUserId, teamId, toUserId);
      await deps.db
        .updateTable("projects")
        .set({ user_id: toUserId })
        .where("user_id", "=", fromUserId)
        .where("team_id", "=", teamId)
        .execute();
    },

    /** Deletes every project of a team with its pictures (the team is being deleted). */
    async deleteTeamWork(teamId: string) {
      const deleted = await render.deleteUserImages({ teamId });
      await deps.db.deleteFrom("projects").where("team_id", "=", teamId).execute();
      return deleted;
    },

    count: countProjects,
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
