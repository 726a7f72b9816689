/**
 * Space events (decision 098): what happened in a space besides a render's progress, appended in the
 * transaction of the change it records, so it exists exactly when the change does. The credits
 * ledger writes a balance that went down; the listing module writes an export made. Readers take
 * them after a cursor of their own, in id order (the webhooks' fan-out, as it reads render_events).
 * It owns space_events and knows nothing of who reads it.
 */
import type { Transaction } from "kysely";
import type { AppDatabase } from "../db/client";
import type { Database } from "../db/schema";

type Db = AppDatabase | Transaction<Database>;

/** How long events are kept: their readers are seconds behind; a week covers a server stopped over a weekend. */
export const SPACE_EVENTS_KEEP_MS = 7 * 24 * 3_600_000;

export type SpaceEvent =
  /** The balance went down (a render's charge, credits moved to a team, an admin's change, a reversed purchase). */
  | { type: "credits.decreased"; teamId: string | null; balance: number; change: number }
  /** A listing export was made (its public page is live). */
  | { type: "listing.created"; teamId: string | null; exportId: string };

export interface StoredSpaceEvent {
  id: number;
  /** The space's event key: "u:<user>" or "t:<team>". */
  owner: string;
  at: number;
  event: SpaceEvent;
}

/** The event key of a team's space, and of a user's personal one (the render events' owner keys). */
export const teamSpaceKey = (teamId: string) => `t:${teamId}`;
export const personalSpaceKey = (userId: string) => `u:${userId}`;

/** Appends one event; call inside the transaction of the change it records. */
export async function recordSpaceEvent(db: Db, owner: string, event: SpaceEvent, at: number): Promise<void> {
  await db
    .insertInto("space_events")
    .values({ owner, type: event.type, payload: JSON.stringify(event), created_at: at })
    .execute();
}

/**
 * Every space's events after `afterId`, oldest first, at most `limit`: the ids of all of them (a
 * reader sees where ids are missing: on PostgreSQL an id is taken at insert and seen at commit).
 */
export async function spaceEventsAfter(
  db: AppDatabase,
  afterId: number,
  limit: number,
): Promise<{ ids: number[]; events: StoredSpaceEvent[] }> {
  const rows = await db
    .selectFrom("space_events")
    .select(["id", "owner", "payload", "created_at"])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  const events = rows.map((row) => ({
    id: Number(row.id),
    owner: row.owner,
    at: Number(row.created_at),
    event: JSON.parse(row.payload) as SpaceEvent,
  }));
  return { ids: events.map((stored) => stored.id), events };
}

/** Removes events older than `before` (housekeeping); how many went. */
export async function forgetSpaceEventsBefore(db: AppDatabase, before: number): Promise<number> {
  const deleted = await db.deleteFrom("space_events").where("created_at", "<", before).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
