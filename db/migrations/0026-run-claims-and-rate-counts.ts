/**
 * Instances sharing one database (issue 29, decision 078): a scheduled run is claimed in
 * `scheduled_runs` before it starts, so that one instance runs it; rate limits and per-address
 * counts are kept in `rate_counts`, so that they hold across instances.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("scheduled_runs")
    // The timer's name (housekeeping, listing-sweep, backup, mail-bodies).
    .addColumn("name", "text", (col) => col.primaryKey())
    // Who holds it (host and process, for people), and a random id of this claim (for the holder's own update).
    .addColumn("claimed_by", "text", (col) => col.notNull())
    .addColumn("claim_id", "text", (col) => col.notNull())
    .addColumn("claimed_at", t.int, (col) => col.notNull())
    // Held until then: while it runs, a lease (a dead holder's lapses); after it, the next time it is due.
    .addColumn("held_until", t.int, (col) => col.notNull())
    .execute();
  await db.schema
    .createTable("rate_counts")
    // What is counted and for whom, e.g. "signIn 203.0.113.7".
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("count", t.int, (col) => col.notNull())
    // The window started with the key's first count and ends then; the next count after it starts a new one.
    .addColumn("window_ends_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("rate_counts_window_ends_at").on("rate_counts").column("window_ends_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_counts").execute();
  await db.schema.dropTable("scheduled_runs").execute();
}
