/**
 * Which engine made a render's AI upscale (issue 30): with engines chosen per task, the upscale may
 * come from another engine than the render, and its download names both the model and the engine.
 * Null on upscales made before: those were made by the render's own engine.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").addColumn("upscale_provider", "text").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").dropColumn("upscale_provider").execute();
}
