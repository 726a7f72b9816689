/**
 * The team's activity log: invitations, joins, removals, role changes, purchases, credit moves and
 * caps, client changes, review decisions, changes of the team's styles, with who and when. Rows are written in the transaction of
 * the change they describe, and keep the actor's name as it was (a log outlives a member).
 */
import type { Transaction } from "kysely";
import type { AppDatabase } from "../db/client";
import type { Database } from "../db/schema";

type Db = AppDatabase | Transaction<Database>;

/** The actions the log records; the client translates each (teams.activity.<action>). */
export const TEAM_ACTIONS = [
  "teamCreated",
  "teamRenamed",
  "memberInvited",
  "invitationRevoked",
  "invitationResent",
  "memberJoined",
  "memberRemoved",
  "memberLeft",
  "roleChanged",
  "ownershipTransferred",
  "creditsBought",
  "creditsMoved",
  "creditsAdjusted",
  "capSet",
  "clientAdded",
  "clientChanged",
  "clientRemoved",
  "projectMoved",
  "reviewDecision",
  "styleAdded",
  "styleChanged",
  "styleRemoved",
] as const;
export type TeamAction = (typeof TEAM_ACTIONS)[number];

export type ActivityDetails = Record<string, string | number | null>;

export interface ActivityEntry {
  id: number;
  actorId: string | null;
  actorName: string;
  action: TeamAction;
  details: ActivityDetails;
  at: number;
}

export async function recordActivity(
  db: Db,
  entry: { teamId: string; actorId: string | null; actorName: string; action: TeamAction; details?: ActivityDetails; at: number },
): Promise<void> {
  await db
    .insertInto("team_activity")
    .values({
      team_id: entry.teamId,
      actor_id: entry.actorId,
      actor_name: entry.actorName,
      action: entry.action,
      details: JSON.stringify(entry.details ?? {}),
      created_at: entry.at,
    })
    .execute();
}

/** The newest entries first; `before` (an entry's id) pages back. */
export async function listActivity(db: Db, teamId: string, page: { before?: number; limit: number }): Promise<ActivityEntry[]> {
  let query = db.selectFrom("team_activity").selectAll().where("team_id", "=", teamId);
  if (page.before !== undefined) query = query.where("id", "<", page.before);
  const rows = await query.orderBy("id", "desc").limit(page.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    actorId: row.actor_id,
    actorName: row.actor_name,
    action: row.action as TeamAction,
    details: JSON.parse(row.details) as ActivityDetails,
    at: row.created_at,
  }));
}
