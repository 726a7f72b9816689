/**
 * Teams and the space each user works in. Creating a team makes its creator the Owner; the current
 * space is remembered per account on the server (current_spaces; no row is the personal space) and
 * is only ever a team the user belongs to: the read joins team_members, so a removed member falls
 * back to their personal space.
 */
import { TEAMS_PER_USER_MAX, type TeamRole } from "../../shared/teams";
import type { Transaction } from "kysely";
import { generateSecureRandomString } from "../auth/tokens";
import type { AppDatabase } from "../db/client";
import type { Database } from "../db/schema";
import { DomainError, notFound } from "../errors";
import { requireRight, roleIn } from "./access";
import { recordActivity } from "./activity";
import type { SpacesContext } from "./context";

export interface TeamSummary {
  id: string;
  name: string;
  role: TeamRole;
  members: number;
  credits: number;
}

/** The teams the user belongs to, with their role, member count and balance (by name). */
export async function teamsOf(deps: SpacesContext, userId: string): Promise<TeamSummary[]> {
  const rows = await deps.db
    .selectFrom("team_members as mine")
    .innerJoin("teams", "teams.id", "mine.team_id")
    .select((eb) => [
      "teams.id",
      "teams.name",
      "teams.credits_remaining",
      "mine.role",
      eb
        .selectFrom("team_members as all_members")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("all_members.team_id", "=", "teams.id")
        .as("members"),
    ])
    .where("mine.user_id", "=", userId)
    .orderBy("teams.name")
    .orderBy("teams.id")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    members: Number(row.members),
    credits: row.credits_remaining,
  }));
}

/** A new team named by its creator, who becomes its Owner and works in it from now on. */
export async function createTeam(deps: SpacesContext, userId: string, name: string): Promise<TeamSummary> {
  const now = deps.clock.now();
  const id = generateSecureRandomString();
  const actor = (await deps.people.people([userId])).get(userId);
  await deps.db.transaction().execute(async (trx) => {
    const held = await trx
      .selectFrom("team_members")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= TEAMS_PER_USER_MAX) throw new DomainError("forbidden", "tooManyTeams");
    await trx.insertInto("teams").values({ id, name, created_by: userId, created_at: now, updated_at: now }).execute();
    await trx.insertInto("team_members").values({ team_id: id, user_id: userId, role: "owner", joined_at: now }).execute();
    await recordActivity(trx, {
      teamId: id,
      actorId: userId,
      actorName: actor?.name ?? "",
      action: "teamCreated",
      details: { name },
      at: now,
    });
    await setSpaceRow(trx, userId, id, now);
  });
  return { id, name, role: "owner", members: 1, credits: 0 };
}

export async function setSpaceRow(
  db: AppDatabase | Transaction<Database>,
  userId: string,
  teamId: string | null,
  now: number,
): Promise<void> {
  if (teamId === null) {
    await db.deleteFrom("current_spaces").where("user_id", "=", userId).execute();
    return;
  }
  await db
    .insertInto("current_spaces")
    .values({ user_id: userId, team_id: teamId, updated_at: now })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ team_id: teamId, updated_at: now }))
    .execute();
}

/** The team the user works in, or null for their personal space (also when they left that team). */
export async function currentSpace(deps: Pick<SpacesContext, "db">, userId: string): Promise<string | null> {
  const row = await deps.db
    .selectFrom("current_spaces")
    .innerJoin("team_members", (join) =>
      join.onRef("team_members.team_id", "=", "current_spaces.team_id").onRef("team_members.user_id", "=", "current_spaces.user_id"),
    )
    .select("current_spaces.team_id")
    .where("current_spaces.user_id", "=", userId)
    .executeTakeFirst();
  return row?.team_id ?? null;
}

/** Works in this team (a member's) or, with null, in the personal space. */
export async function switchSpace(deps: SpacesContext, userId: string, teamId: string | null): Promise<void> {
  if (teamId !== null && (await roleIn(deps.db, userId, teamId)) === null) throw notFound();
  await setSpaceRow(deps.db, userId, teamId, deps.clock.now());
}

/** Sets a member's monthly cap in credits (null: none); Owner or Admin. */
export async function setMonthlyCap(
  deps: SpacesContext,
  actorId: string,
  teamId: string,
  memberId: string,
  cap: number | null,
): Promise<void> {
  await requireRight(deps.db, actorId, teamId, "manageCredits");
  const now = deps.clock.now();
  const people = await deps.people.people([actorId, memberId]);
  await deps.db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("team_members")
      .set({ monthly_cap: cap })
      .where("team_id", "=", teamId)
      .where("user_id", "=", memberId)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw notFound();
    await recordActivity(trx, {
      teamId,
      actorId,
      actorName: people.get(actorId)?.name ?? "",
      action: "capSet",
      details: { member: people.get(memberId)?.name ?? "", cap },
      at: now,
    });
  });
}

/** The team's members with their role and cap (any member may see who is in the team). */
export async function membersOf(deps: SpacesContext, teamId: string) {
  const rows = await deps.db
    .selectFrom("team_members")
    .select(["user_id", "role", "monthly_cap", "joined_at"])
    .where("team_id", "=", teamId)
    .orderBy("joined_at")
    .execute();
  const people = await deps.people.people(rows.map((row) => row.user_id));
  return rows.map((row) => ({
    userId: row.user_id,
    name: people.get(row.user_id)?.name ?? "",
    email: people.get(row.user_id)?.email ?? "",
    role: row.role,
    monthlyCap: row.monthly_cap,
    joinedAt: row.joined_at,
  }));
}

/** The Owners of several teams in one statement, by team (every team has exactly one). */
export async function ownersOfTeams(deps: Pick<SpacesContext, "db">, teamIds: readonly string[]): Promise<Map<string, string>> {
  if (teamIds.length === 0) return new Map();
  const rows = await deps.db
    .selectFrom("team_members")
    .select(["team_id", "user_id"])
    .where("team_id", "in", teamIds)
    .where("role", "=", "owner")
    .execute();
  return new Map(rows.map((row) => [row.team_id, row.user_id]));
}
