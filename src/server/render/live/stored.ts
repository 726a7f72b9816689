/**
 * The render_events table: every change of a job is written here in the transaction that changes
 * the job; streams replay it after a reconnect, and on PostgreSQL each instance reads the rows
 * another instance announced (relay.ts, decision 082).
 */
import { sql, type Transaction } from "kysely";
import { eventConcernsJob, type RenderEvent } from "../../../shared/render";
import { dialectOf, type AppDatabase } from "../../db/client";
import type { Database } from "../../db/schema";

type Db = AppDatabase | Transaction<Database>;

export interface StoredRenderEvent {
  id: number;
  owner: string;
  event: RenderEvent;
}

/**
 * The class of the two-key advisory locks that order one owner's events (the second key is
 * hashtext(owner)): a key space of its own, apart from single-key advisory locks.
 */
export const EVENT_LOCK_CLASS = 82;

/**
 * Appends an event row; publish it (RenderEventBus.publish) once the transaction has committed.
 * On PostgreSQL, ids come from a sequence when the row is inserted and become visible when the
 * transaction commits, in any order: a reader that saw id 12 and resumes after it would skip an 11
 * committed later. So the insert first takes a transaction-level lock on the owner: the owner's
 * events are inserted and committed one transaction after another, in id order (decision 082).
 * The same transaction NOTIFYs render_events (delivered at its commit, never on a rollback).
 */
export async function recordRenderEvent(db: Db, owner: string, event: RenderEvent): Promise<StoredRenderEvent> {
  const postgres = dialectOf(db) === "postgres";
  // A transaction-level lock outside a transaction would end with its statement.
  if (postgres && !db.isTransaction) return db.transaction().execute((trx) => recordRenderEvent(trx, owner, event));
  if (postgres) await sql`select pg_advisory_xact_lock(${EVENT_LOCK_CLASS}, hashtext(${owner}))`.execute(db);
  const row = await db
    .insertInto("render_events")
    .values({ job_id: event.jobId, owner, type: event.type, payload: JSON.stringify(event), created_at: event.at })
    .returning("id")
    .executeTakeFirstOrThrow();
  // Owner keys are short ids ("u:…", "v:…", "t:…"): the payload is far below NOTIFY's 8000 bytes.
  if (postgres) await sql`select pg_notify('render_events', ${JSON.stringify({ o: owner, id: row.id })})`.execute(db);
  return { id: row.id, owner, event };
}

/** The owner's stored events after `afterId`, oldest first (of one job: its own, and the queue moves that place it). */
export async function storedEventsAfter(db: AppDatabase, owner: string, afterId: number, jobId?: string): Promise<StoredRenderEvent[]> {
  let query = db.selectFrom("render_events").select(["id", "payload"]).where("owner", "=", owner).where("id", ">", afterId).orderBy("id");
  if (jobId) query = query.where((eb) => eb.or([eb("job_id", "=", jobId), eb("type", "=", "positions")]));
  const stored = (await query.execute()).map((row) => ({ id: row.id, owner, event: JSON.parse(row.payload) as RenderEvent }));
  return jobId ? stored.filter((row) => eventConcernsJob(row.event, jobId)) : stored;
}

/** Removes events older than `before` (housekeeping: no reconnecting client asks for them); how many went. */
export async function forgetEventsBefore(db: AppDatabase, before: number): Promise<number> {
  const deleted = await db.deleteFrom("render_events").where("created_at", "<", before).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/**
 * Every owner's events after `afterId`, oldest first, at most `limit` rows: the ids of all of them
 * (a reader over every owner sees where ids are missing) and the events whose type is in `types`.
 * The webhooks' fan-out reads it with a cursor of its own (decision 095).
 */
export async function eventsAfterForAll(
  db: AppDatabase,
  afterId: number,
  limit: number,
  types: readonly RenderEvent["type"][],
): Promise<{ ids: number[]; events: StoredRenderEvent[] }> {
  const rows = await db
    .selectFrom("render_events")
    .select(["id", "owner", "type", "payload"])
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return {
    ids: rows.map((row) => Number(row.id)),
    events: rows
      .filter((row) => (types as readonly string[]).includes(row.type))
      .map((row) => ({ id: Number(row.id), owner: row.owner, event: JSON.parse(row.payload) as RenderEvent })),
  };
}
