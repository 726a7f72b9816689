/**
 * Renders in a custom style (issue 32, decision 101): render_jobs.style then holds the style's id
 * (cs_…) and style_snapshot its content as the render used it (JSON: name, description, what to
 * avoid, palette, tone), so a later change to the style, or its deletion, leaves what a past render
 * says it was. NULL for the built-in styles, whose content is the code's. Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .alterTable("render_jobs")
    .addColumn("style_snapshot", "text", (col) => col.check(t.isJson("style_snapshot")))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("render_jobs").dropColumn("style_snapshot").execute();
}
