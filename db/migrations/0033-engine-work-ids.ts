/**
 * The engine's own id of a render's work (issue 30): "replicate:<prediction id>", recorded as soon as
 * the engine has accepted it. A worker that takes over the job of one that died follows that work
 * instead of starting (and paying for) it again. Null until an engine has accepted the job's work.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").addColumn("engine_work_id", "text").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").dropColumn("engine_work_id").execute();
}
