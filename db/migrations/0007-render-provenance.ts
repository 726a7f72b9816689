/**
 * Renders that explain themselves: the render mode (redesign, stage, declutter), the seed asked
 * for and the one used, the structure strength, the exact prompt and parameters sent, the model's
 * version, the engine's start and end (so queued, preprocessing, engine and saving times are
 * known), the "structure kept" score, and an AI upscale made on request. Shipped: never edit this file.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  const add = (column: string, type: "text" | "integer" | "real", build?: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder) =>
    db.schema
      .alterTable("render_jobs")
      .addColumn(column, type === "integer" ? t.int : type === "real" ? t.real : "text", build ?? ((col) => col))
      .execute();
  await add("render_mode", "text", (col) =>
    col
      .notNull()
      .defaultTo("redesign")
      .check(sql`render_mode IN ('redesign', 'stage', 'declutter')`),
  );
  await add("structure", "text", (col) =>
    col
      .notNull()
      .defaultTo("normal")
      .check(sql`structure IN ('normal', 'strong')`),
  );
  /** The seed the user asked for (re-render with this seed); null lets the engine or the worker choose. */
  await add("requested_seed", "integer");
  /** The seed the engine used, when it has seeds. */
  await add("seed", "integer");
  await add("model_version", "text");
  await add("prompt", "text");
  /** JSON: the engine parameters sent (strengths, steps, sizes...), for the details panel. */
  await add("parameters", "text");
  await add("engine_started_at", "integer");
  await add("engine_finished_at", "integer");
  /** 0..1: how much of the room's lines the result kept (the structure check). */
  await add("structure_score", "real");
  await add("upscaled_key", "text");
  await add("upscaled_width", "integer");
  await add("upscaled_height", "integer");
  await add("upscale_model", "text");
  await db.schema.createIndex("render_jobs_provider_model_idx").on("render_jobs").columns(["provider", "model", "status"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("render_jobs_provider_model_idx").execute();
  for (const column of [
    "upscale_model",
    "upscaled_height",
    "upscaled_width",
    "upscaled_key",
    "structure_score",
    "engine_finished_at",
    "engine_started_at",
    "parameters",
    "prompt",
    "model_version",
    "seed",
    "requested_seed",
    "structure",
    "render_mode",
  ]) {
    await db.schema.alterTable("render_jobs").dropColumn(column).execute();
  }
}
