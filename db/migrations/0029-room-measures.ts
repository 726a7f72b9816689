/**
 * Measuring a room (issue 30, decision 089). Owned by the measures module (src/server/measures).
 * - measure_references: what the user marked of known size on a photo (one per photo): a rectangle on
 *   the floor or an upright door, as JSON (points are fractions of the picture's width and height).
 * - room_measures: lengths measured in a project. `source` says how: "photo" (two points marked on a
 *   photo, its length computed from the photo's reference when read, so length_cm stays NULL) or "ar"
 *   (a phone's AR session, measured in space: upload_id NULL, length_cm set). points is JSON.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("measure_references")
    .addColumn("upload_id", "text", (col) => col.primaryKey().references("uploads.id").onDelete("cascade"))
    .addColumn("reference", "text", (col) => col.notNull().check(t.isJsonObject("reference")))
    .addColumn("updated_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("room_measures")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.references("projects.id").onDelete("cascade"))
    .addColumn("upload_id", "text", (col) => col.references("uploads.id").onDelete("cascade"))
    .addColumn("source", "text", (col) => col.notNull().check(sql`source IN ('photo', 'ar')`))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("points", "text", (col) => col.notNull().check(t.isJsonObject("points")))
    .addColumn("length_cm", t.real)
    .addColumn("label", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("created_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("room_measures_upload_idx").on("room_measures").columns(["upload_id", "created_at"]).execute();
  await db.schema.createIndex("room_measures_project_idx").on("room_measures").columns(["project_id", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["room_measures", "measure_references"]) await db.schema.dropTable(table).execute();
}
