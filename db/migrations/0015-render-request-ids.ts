/**
 * The request that asked for a render (issue 16, decision 048): the worker's log lines for the job
 * carry the same requestId as the request's own lines. Shipped: never edit this file.
 */
import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").addColumn("request_id", "text").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").dropColumn("request_id").execute();
}
