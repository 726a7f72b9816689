/**
 * Who may see and change what in a team: the one place the server answers it (decision 070).
 * Every capability that touches team data asks here, with the caller's id read on each request, so
 * a removed member is refused at once on every device. A caller who is not a member learns nothing
 * (404, as for a row that does not exist); a member whose role lacks the right gets 403 with
 * "teamRightMissing".
 */
import { roleMay, type TeamRight, type TeamRole } from "../../shared/teams";
import type { Transaction } from "kysely";
import type { AppDatabase } from "../db/client";
import type { Database } from "../db/schema";
import { DomainError, notFound } from "../errors";

type Db = AppDatabase | Transaction<Database>;

/** The caller's role in the team, or null when they are not a member (or there is no such team). */
export async function roleIn(db: Db, userId: string, teamId: string): Promise<TeamRole | null> {
  const row = await db
    .selectFrom("team_members")
    .select("role")
    .where("team_id", "=", teamId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** The user's membership of the team (role and monthly cap), or null when they are not a member. */
export async function membershipOf(db: Db, userId: string, teamId: string): Promise<{ role: TeamRole; monthlyCap: number | null } | null> {
  const row = await db
    .selectFrom("team_members")
    .select(["role", "monthly_cap"])
    .where("team_id", "=", teamId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { role: row.role, monthlyCap: row.monthly_cap } : null;
}

/** The caller's role when it carries the right; else 404 (not a member) or 403 (a role without it). */
export async function requireRight(db: Db, userId: string, teamId: string, right: TeamRight): Promise<TeamRole> {
  const role = await roleIn(db, userId, teamId);
  if (role === null) throw notFound();
  if (!roleMay(role, right)) throw new DomainError("forbidden", "teamRightMissing");
  return role;
}

/** The ids of every team the user belongs to. */
export async function teamIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("team_members").select("team_id").where("user_id", "=", userId).execute();
  return rows.map((row) => row.team_id);
}
