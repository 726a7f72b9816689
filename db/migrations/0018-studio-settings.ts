/**
 * The operator's settings of /admin → Studio (issue 16): one row per section (brand, free credits,
 * engine) holding a JSON object. Engine keys inside it are sealed with the app secret.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("studio_settings")
    .addColumn("section", "text", (col) => col.primaryKey().check(sql`section IN ('brand', 'free-credits', 'engine')`))
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("studio_settings").execute();
}
