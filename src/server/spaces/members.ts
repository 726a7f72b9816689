/**
 * A team's members (issue 28): the team's details for a member, and what its Owner and Admins may
 * do with its people. Owner only (right "ownTeam"): change roles between Admin and Member, transfer
 * ownership to an Admin (roles swapped in one transaction: a team always has exactly one Owner),
 * rename and delete the team. Owner or Admin ("manageMembers") remove a Member; only the Owner
 * removes an Admin; nobody removes the Owner. A member may leave; the Owner transfers first.
 * Whoever is out of a team is told to the onMemberGone port at once (their streams close).
 */
import type { TeamRole } from "../../shared/teams";
import type { MemberRole } from "../../shared/team-members";
import { DomainError, notFound } from "../errors";
import { requireRight, roleIn } from "./access";
import { recordActivity } from "./activity";
import type { SpacesContext } from "./context";
import { pendingInvitations, type PendingInvitation } from "./invitations";

export interface TeamMember {
  userId: string;
  name: string;
  email: string;
  role: TeamRole;
  joinedAt: number;
}

export interface TeamDetails {
  id: string;
  name: string;
  myRole: TeamRole;
  credits: number;
  members: TeamMember[];
  /** Only for those who manage members (Owner and Admin); empty for a Member. */
  invitations: PendingInvitation[];
}

const ROLE_ORDER: Record<TeamRole, number> = { owner: 0, admin: 1, member: 2 };

export async function teamDetails(deps: SpacesContext, userId: string, teamId: string): Promise<TeamDetails> {
  const myRole = await requireRight(deps.db, userId, teamId, "work");
  const team = await deps.db.selectFrom("teams").select(["id", "name", "credits_remaining"]).where("id", "=", teamId).executeTakeFirst();
  if (!team) throw notFound();
  const rows = await deps.db.selectFrom("team_members").select(["user_id", "role", "joined_at"]).where("team_id", "=", teamId).execute();
  const people = await deps.people.people(rows.map((row) => row.user_id));
  const members = rows
    .map((row) => ({
      userId: row.user_id,
      name: people.get(row.user_id)?.name ?? "",
      email: people.get(row.user_id)?.email ?? "",
      role: row.role,
      joinedAt: row.joined_at,
    }))
    .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.joinedAt - b.joinedAt);
  const invitations = myRole === "member" ? [] : await pendingInvitations(deps, teamId);
  return { id: team.id, name: team.name, myRole, credits: team.credits_remaining, members, invitations };
}

async function nameOf(deps: SpacesContext, userId: string): Promise<string> {
  return (await deps.people.people([userId])).get(userId)?.name ?? "";
}

export async function changeRole(deps: SpacesContext, actorId: string, teamId: string, userId: string, role: MemberRole): Promise<void> {
  await requireRight(deps.db, actorId, teamId, "ownTeam");
  const names = await deps.people.people([actorId, userId]);
  await deps.db.transaction().execute(async (trx) => {
    const current = await roleIn(trx, userId, teamId);
    if (current === null) throw notFound();
    if (current === "owner") throw new DomainError("conflict", "teamOwnerRoleByTransfer");
    if (current === role) return;
    const now = deps.clock.now();
    await trx.updateTable("team_members").set({ role }).where("team_id", "=", teamId).where("user_id", "=", userId).execute();
    await recordActivity(trx, {
      teamId,
      actorId,
      actorName: names.get(actorId)?.name ?? "",
      action: "roleChanged",
      details: { member: names.get(userId)?.name ?? "", from: current, to: role },
      at: now,
    });
  });
}

/** The Owner hands the team to one of its Admins and becomes an Admin (one transaction). */
export async function transferOwnership(deps: SpacesContext, actorId: string, teamId: string, toUserId: string): Promise<void> {
  await requireRight(deps.db, actorId, teamId, "ownTeam");
  const names = await deps.people.people([actorId, toUserId]);
  await deps.db.transaction().execute(async (trx) => {
    const target = await roleIn(trx, toUserId, teamId);
    if (target === null) throw notFound();
    if (target !== "admin") throw new DomainError("conflict", "teamTransferToAdminOnly");
    // The old Owner steps down first: the unique index allows one 'owner' row per team at any moment.
    await trx
      .updateTable("team_members")
      .set({ role: "admin" })
      .where("team_id", "=", teamId)
      .where("user_id", "=", actorId)
      .where("role", "=", "owner")
      .execute();
    await trx.updateTable("team_members").set({ role: "owner" }).where("team_id", "=", teamId).where("user_id", "=", toUserId).execute();
    await recordActivity(trx, {
      teamId,
      actorId,
      actorName: names.get(actorId)?.name ?? "",
      action: "ownershipTransferred",
      details: { member: names.get(toUserId)?.name ?? "" },
      at: deps.clock.now(),
    });
  });
}

export async function renameTeam(deps: SpacesContext, actorId: string, teamId: string, name: string): Promise<void> {
  await requireRight(deps.db, actorId, teamId, "ownTeam");
  const actorName = await nameOf(deps, actorId);
  await deps.db.transaction().execute(async (trx) => {
    const team = await trx.selectFrom("teams").select("name").where("id", "=", teamId).executeTakeFirst();
    if (!team) throw notFound();
    if (team.name === name) return;
    const now = deps.clock.now();
    await trx.updateTable("teams").set({ name, updated_at: now }).where("id", "=", teamId).execute();
    await recordActivity(trx, { teamId, actorId, actorName, action: "teamRenamed", details: { from: team.name, name }, at: now });
  });
}

/**
 * Deletes the team: first its work and files (the beforeTeamDeleted port: projects, renders,
 * uploads), then its row, which takes members, invitations, balance, ledger and log with it.
 */
export async function deleteTeam(deps: SpacesContext, actorId: string, teamId: string): Promise<void> {
  await requireRight(deps.db, actorId, teamId, "ownTeam");
  const members = await deps.db.selectFrom("team_members").select("user_id").where("team_id", "=", teamId).execute();
  await deps.beforeTeamDeleted(teamId);
  await deps.db.deleteFrom("teams").where("id", "=", teamId).execute();
  for (const member of members) deps.onMemberGone(teamId, member.user_id);
}

/** Owner or Admin removes a Member; only the Owner removes an Admin; nobody removes the Owner. */
export async function removeMember(deps: SpacesContext, actorId: string, teamId: string, userId: string): Promise<void> {
  const actorRole = await requireRight(deps.db, actorId, teamId, "manageMembers");
  const target = await roleIn(deps.db, userId, teamId);
  if (target === null) throw notFound();
  if (target === "owner") throw new DomainError("forbidden", "teamOwnerCannotBeRemoved");
  if (target === "admin" && actorRole !== "owner" && userId !== actorId) throw new DomainError("forbidden", "teamAdminRemovedByOwnerOnly");
  const names = await deps.people.people([actorId, userId]);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("team_members").where("team_id", "=", teamId).where("user_id", "=", userId).execute();
    await trx.deleteFrom("current_spaces").where("user_id", "=", userId).where("team_id", "=", teamId).execute();
    await recordActivity(trx, {
      teamId,
      actorId,
      actorName: names.get(actorId)?.name ?? "",
      action: userId === actorId ? "memberLeft" : "memberRemoved",
      details: { member: names.get(userId)?.name ?? "", email: names.get(userId)?.email ?? "" },
      at: deps.clock.now(),
    });
  });
  deps.onMemberGone(teamId, userId);
}

/** A member leaves the team; its Owner must transfer ownership first. */
export async function leaveTeam(deps: SpacesContext, userId: string, teamId: string): Promise<void> {
  const role = await roleIn(deps.db, userId, teamId);
  if (role === null) throw notFound();
  if (role === "owner") throw new DomainError("conflict", "teamOwnerMustTransfer");
  const actorName = await nameOf(deps, userId);
  await deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("team_members").where("team_id", "=", teamId).where("user_id", "=", userId).execute();
    await trx.deleteFrom("current_spaces").where("user_id", "=", userId).where("team_id", "=", teamId).execute();
    await recordActivity(trx, { teamId, actorId: userId, actorName, action: "memberLeft", details: {}, at: deps.clock.now() });
  });
  deps.onMemberGone(teamId, userId);
}
