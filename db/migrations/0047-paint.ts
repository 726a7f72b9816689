/**
 * The studio's Paint tool (issue 33, decision 109):
 * - render_edits: a paint edit's colour (#rrggbb) and the surface it is noted under (walls,
 *   cabinets…); both null on other edits. A paint edit has no preset.
 * - studio_settings: a 'paint' section (the operator's palette and what a Preview-engine paint
 *   costs); the table is rebuilt with it among its sections, rows kept.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
async function rebuildSettings(db: Kysely<any>, sections: string): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("studio_settings_new")
    .addColumn("section", "text", (col) => col.primaryKey().check(sql.raw(`section IN (${sections})`)))
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .execute();
  await sql`INSERT INTO studio_settings_new (section, value, updated_at)
    SELECT section, value, updated_at FROM studio_settings WHERE section IN (${sql.raw(sections)})`.execute(db);
  await db.schema.dropTable("studio_settings").execute();
  await db.schema.alterTable("studio_settings_new").renameTo("studio_settings").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("render_edits")
    .addColumn("paint_colour", "text", (col) => col.check(sql`paint_colour IS NULL OR length(paint_colour) = 7`))
    .execute();
  await db.schema
    .alterTable("render_edits")
    .addColumn("paint_surface", "text", (col) =>
      col.check(sql`paint_surface IS NULL OR paint_surface IN ('walls', 'ceiling', 'cabinets', 'doors', 'trim', 'other')`),
    )
    .execute();
  await rebuildSettings(db, "'brand', 'free-credits', 'engine', 'paint'");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function down(db: Kysely<any>): Promise<void> {
  await rebuildSettings(db, "'brand', 'free-credits', 'engine'");
  await db.schema.alterTable("render_edits").dropColumn("paint_surface").execute();
  await db.schema.alterTable("render_edits").dropColumn("paint_colour").execute();
}
