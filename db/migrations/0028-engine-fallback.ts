/**
 * Engines chosen per task, with fallback (issue 30, decision 088): a render records why another
 * engine than the task's first made it (render_jobs.provider already says which engine did), and
 * so does an upscale (upscale_provider, migration 0030, says which engine made it). Text, null when
 * the first engine made it: a keyed message (shared/messages.ts) the client translates.
 * Owned by the render module.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").addColumn("fallback_reason", "text").execute();
  await db.schema.alterTable("render_jobs").addColumn("upscale_fallback_reason", "text").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").dropColumn("upscale_fallback_reason").execute();
  await db.schema.alterTable("render_jobs").dropColumn("fallback_reason").execute();
}
