/**
 * Render workers with leases, and a queue order both databases keep (issue 29; decision 077).
 * - render_jobs.claimed_by: the instance id of the worker that claimed the job last (kept when it
 *   ends, as a record of who rendered it; cleared when the job goes back to the queue).
 * - render_jobs.lease_until: until when (ms) that claim holds unless renewed; NULL when nobody holds
 *   one. A running job whose lease has run out (or is NULL: left running before this migration)
 *   belongs to nobody, and any worker puts it back in the queue.
 * - render_jobs.claims: how often the job was claimed. Each claim adds one, and every write of the
 *   worker checks it, so a worker whose claim was taken over (or given up and taken again, by itself
 *   or another) can no longer change the job: the number fences off the older claim.
 * - render_jobs.queue_seq: the queue's order, in insertion order, filled by the database on both:
 *   an identity column on PostgreSQL (a sequence: two transactions inserting at once get different
 *   numbers, each in the order of its inserts); on SQLite a trigger gives one more than the highest
 *   number (the single writer serialises it). Not rowid: VACUUM, and a restore from a backup made by
 *   VACUUM INTO, may renumber rowids, and PostgreSQL has none. Existing jobs keep the order they
 *   had (rowid on SQLite; creation time on PostgreSQL).
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema.alterTable("render_jobs").addColumn("claimed_by", "text").execute();
  await db.schema.alterTable("render_jobs").addColumn("lease_until", t.int).execute();
  await db.schema
    .alterTable("render_jobs")
    .addColumn("claims", t.int, (col) => col.notNull().defaultTo(0))
    .execute();
  // Jobs that ran before count as claimed once (their files carry the first claim's names).
  await sql`UPDATE render_jobs SET claims = 1 WHERE status <> 'queued'`.execute(db);
  if (t.postgres) {
    await db.schema
      .alterTable("render_jobs")
      .addColumn("queue_seq", "bigint", (col) => col.generatedByDefaultAsIdentity())
      .execute();
    // The identity numbered existing rows in storage order; they take their creation order instead
    // (1..n, which the sequence has already passed).
    await sql`
      UPDATE render_jobs SET queue_seq = ordered.number
      FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS number FROM render_jobs) AS ordered
      WHERE ordered.id = render_jobs.id
    `.execute(db);
  } else {
    await db.schema.alterTable("render_jobs").addColumn("queue_seq", t.int).execute();
    await sql`UPDATE render_jobs SET queue_seq = rowid`.execute(db);
    await sql`
      CREATE TRIGGER render_jobs_queue_seq AFTER INSERT ON render_jobs WHEN NEW.queue_seq IS NULL
      BEGIN
        UPDATE render_jobs SET queue_seq = (SELECT coalesce(max(queue_seq), 0) + 1 FROM render_jobs) WHERE rowid = NEW.rowid;
      END
    `.execute(db);
  }
  // Each number once; the highest found at once (the trigger), the oldest queued job at once (the claim).
  await db.schema.createIndex("render_jobs_queue_seq_idx").unique().on("render_jobs").columns(["queue_seq"]).execute();
  await db.schema.createIndex("render_jobs_status_queue_idx").on("render_jobs").columns(["status", "queue_seq"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("render_jobs_status_queue_idx").execute();
  await db.schema.dropIndex("render_jobs_queue_seq_idx").execute();
  if (!portable(db).postgres) await sql`DROP TRIGGER render_jobs_queue_seq`.execute(db);
  for (const column of ["queue_seq", "claims", "lease_until", "claimed_by"]) {
    await db.schema.alterTable("render_jobs").dropColumn(column).execute();
  }
}
