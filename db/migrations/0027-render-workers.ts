/**
 * Render workers seen alive (issue 29, decision 085): each running worker writes its row when it
 * starts and again every quarter of its lease, and removes it when it stops. The self-test's queue
 * check on any instance (a web instance has no worker of its own) counts the slots of the workers
 * seen within a lease, and says so when none is: a lease on a job only shows a busy worker, never
 * an idle one. Owned by the render module.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("render_workers")
    // The worker's instance id (host:pid:random, new at each start): what it records on the jobs it claims.
    .addColumn("instance_id", "text", (col) => col.primaryKey())
    // How many renders it works on at once (its RENDER_CONCURRENCY).
    .addColumn("slots", t.int, (col) => col.notNull())
    .addColumn("started_at", t.int, (col) => col.notNull())
    // When it last said it was alive (ms).
    .addColumn("seen_at", t.int, (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("render_workers").execute();
}
