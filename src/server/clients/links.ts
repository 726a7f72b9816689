/**
 * A project's client (decision 072): one per project, kept in project_clients (projects belong to
 * services/projects.ts). Whoever may see the project learns its client's name; only who keeps the
 * project's space's clients (Owner and Admin in a team, the owner of a personal project) sees the
 * details or changes the link, and only to a client of the project's own space.
 */
import type { ClientDetails, ClientName } from "../../shared/clients";
import { roleMay } from "../../shared/teams";
import { DomainError, notFound } from "../errors";
import { clientView } from "./clients";
import type { ClientsContext } from "./context";

/** The project's team (null: personal), when the caller may see the project; else not-found. */
async function projectSpace(deps: ClientsContext, userId: string, projectId: string): Promise<string | null> {
  const { project } = await deps.projects.get(userId, projectId);
  return project.teamId ?? null;
}

/** The project's client, with the project's space (teamId; null: personal) its choices come from. */
export type ProjectClient =
  | { teamId: string | null; canManage: true; client: ClientDetails | null }
  | { teamId: string | null; canManage: false; client: ClientName | null };

/** The project's client: its details for who keeps the space's clients, its name for a Member. */
export async function projectClient(deps: ClientsContext, userId: string, projectId: string): Promise<ProjectClient> {
  const teamId = await projectSpace(deps, userId, projectId);
  const canManage = teamId === null || roleMay(await deps.spaces.roleIn(userId, teamId), "manageClients");
  const row = await deps.db
    .selectFrom("project_clients")
    .innerJoin("clients", "clients.id", "project_clients.client_id")
    .selectAll("clients")
    .where("project_clients.project_id", "=", projectId)
    .executeTakeFirst();
  if (canManage) return { teamId, canManage: true, client: row ? clientView(row) : null };
  // Name only: a Member never receives e-mail, phone, address or notes (spec section 6).
  return { teamId, canManage: false, client: row ? { id: row.id, name: row.name } : null };
}

/** Links the project to a client of its own space, or (null) to none. */
export async function setProjectClient(deps: ClientsContext, userId: string, projectId: string, clientId: string | null): Promise<void> {
  const teamId = await projectSpace(deps, userId, projectId);
  if (teamId !== null) await deps.spaces.requireRight(userId, teamId, "manageClients");
  if (clientId === null) {
    await deps.db.deleteFrom("project_clients").where("project_id", "=", projectId).execute();
    return;
  }
  const client = await deps.db.selectFrom("clients").select(["id", "team_id", "user_id"]).where("id", "=", clientId).executeTakeFirst();
  if (!client) throw notFound();
  const sameSpace = teamId !== null ? client.team_id === teamId : client.team_id === null && client.user_id === userId;
  if (!sameSpace) {
    // A client the caller may not see is not there for them; one they keep elsewhere is the wrong space.
    const visible =
      client.team_id !== null ? roleMay(await deps.spaces.roleIn(userId, client.team_id), "manageClients") : client.user_id === userId;
    if (!visible) throw notFound();
    throw new DomainError("invalid", "clientOtherSpace");
  }
  await deps.db
    .insertInto("project_clients")
    .values({ project_id: projectId, client_id: client.id, linked_at: deps.clock.now() })
    .onConflict((oc) => oc.column("project_id").doUpdateSet({ client_id: client.id, linked_at: deps.clock.now() }))
    .execute();
}

/** The client's name of each of these projects that has one (for project views; no access check: the caller's projects). */
export async function clientNamesOfProjects(deps: ClientsContext, projectIds: readonly string[]): Promise<Map<string, ClientName>> {
  const names = new Map<string, ClientName>();
  if (projectIds.length === 0) return names;
  const rows = await deps.db
    .selectFrom("project_clients")
    .innerJoin("clients", "clients.id", "project_clients.client_id")
    .select(["project_clients.project_id", "clients.id", "clients.name"])
    .where("project_clients.project_id", "in", [...projectIds])
    .execute();
  for (const row of rows) names.set(row.project_id, { id: row.id, name: row.name });
  return names;
}
