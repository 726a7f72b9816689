/**
 * Keeping clients (decision 072). A client is a team's (Owner and Admin keep it: the right
 * "manageClients", asked of the spaces module) or a personal space's (its keeper, user_id). Lists and
 * new clients are in the caller's current space; one client's own space decides who may read or
 * change it. A caller who may not see it learns nothing (404); a Member gets 403 (teamRightMissing).
 */
import { CLIENT_LIMITS, type ClientDetails, type ClientInput } from "../../shared/clients";
import { roleMay } from "../../shared/teams";
import { generateSecureRandomString } from "../auth/tokens";
import type { Client } from "../db/schema";
import { DomainError, notFound } from "../errors";
import type { ClientsContext } from "./context";

export function clientView(row: Client): ClientDetails {
  return {
    id: row.id,
    teamId: row.team_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The client, when the caller may keep it: 404 if they may not see it, 403 for a Member. */
export async function keptClient(deps: ClientsContext, userId: string, clientId: string): Promise<Client> {
  const row = await deps.db.selectFrom("clients").selectAll().where("id", "=", clientId).executeTakeFirst();
  if (!row) throw notFound();
  if (row.team_id !== null) await deps.spaces.requireRight(userId, row.team_id, "manageClients");
  else if (row.user_id !== userId) throw notFound();
  return row;
}

/**
 * The current space's clients by name: every detail for who keeps them; for a Member no list at all
 * (canManage false), since a Member only sees a client's name on a project.
 */
export async function listClients(deps: ClientsContext, userId: string) {
  const teamId = await deps.spaces.currentSpace(userId);
  if (teamId !== null) {
    const role = await deps.spaces.roleIn(userId, teamId);
    if (role === null) throw notFound();
    if (!roleMay(role, "manageClients")) return { teamId, canManage: false, clients: [] as ClientDetails[] };
  }
  let query = deps.db.selectFrom("clients").selectAll();
  query = teamId !== null ? query.where("team_id", "=", teamId) : query.where("team_id", "is", null).where("user_id", "=", userId);
  const rows = await query.orderBy("name").orderBy("id").limit(CLIENT_LIMITS.perSpaceMax).execute();
  return { teamId, canManage: true, clients: rows.map(clientView) };
}

export async function createClient(deps: ClientsContext, userId: string, input: ClientInput): Promise<ClientDetails> {
  const teamId = await deps.spaces.currentSpace(userId);
  if (teamId !== null) await deps.spaces.requireRight(userId, teamId, "manageClients");
  let count = deps.db.selectFrom("clients").select((eb) => eb.fn.countAll<number>().as("n"));
  count = teamId !== null ? count.where("team_id", "=", teamId) : count.where("team_id", "is", null).where("user_id", "=", userId);
  const { n } = await count.executeTakeFirstOrThrow();
  if (Number(n) >= CLIENT_LIMITS.perSpaceMax) throw new DomainError("forbidden", "tooManyClients");
  const now = deps.clock.now();
  const row = await deps.db
    .insertInto("clients")
    .values({
      id: generateSecureRandomString(),
      team_id: teamId,
      user_id: teamId === null ? userId : null,
      ...input,
      created_by: userId,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (teamId !== null) await deps.spaces.record(teamId, userId, "clientAdded", { name: row.name });
  return clientView(row);
}

export async function updateClient(deps: ClientsContext, userId: string, clientId: string, input: ClientInput): Promise<ClientDetails> {
  const client = await keptClient(deps, userId, clientId);
  const row = await deps.db
    .updateTable("clients")
    .set({ ...input, updated_at: deps.clock.now() })
    .where("id", "=", client.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (row.team_id !== null) await deps.spaces.record(row.team_id, userId, "clientChanged", { name: row.name });
  return clientView(row);
}

/** Deletes the client; the projects it was linked to stay, without a client. */
export async function deleteClient(deps: ClientsContext, userId: string, clientId: string): Promise<void> {
  const client = await keptClient(deps, userId, clientId);
  await deps.db.deleteFrom("clients").where("id", "=", client.id).execute();
  if (client.team_id !== null) await deps.spaces.record(client.team_id, userId, "clientRemoved", { name: client.name });
}
