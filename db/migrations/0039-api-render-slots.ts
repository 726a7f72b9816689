/**
 * Renders running at once per API key (issue 31, decision 096): a row per render (or edit) a key
 * ordered, taken before the render is made (job_id null until then) and ended once the render has
 * ended. The rows not ended are what the limit counts, on every instance together.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("api_render_slots")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("api_key_id", "text", (col) => col.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("job_id", "text")
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("ended_at", t.int)
    .execute();
  await db.schema.createIndex("api_render_slots_open").on("api_render_slots").columns(["api_key_id", "ended_at"]).execute();
  await db.schema.createIndex("api_render_slots_by_age").on("api_render_slots").column("created_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_render_slots").execute();
}
