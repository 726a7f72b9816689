/**
 * Portfolio pages of the social hub (issue 32, decision 105), owned by src/server/community.
 * - portfolios: one per user, public at /p/<handle> while visible: the name it shows, an
 *   introduction, up to five links (JSON: [{label, url}]), a contact e-mail and phone, and the team
 *   it presents (brand_team_id; null: the user alone, and again null when the team goes).
 * Handles are stored lower case, so one unique index is enough on both databases.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("portfolios")
    .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("handle", "text", (col) => col.notNull().unique())
    .addColumn("display_name", "text", (col) => col.notNull())
    .addColumn("headline", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("links", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("contact_email", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("contact_phone", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("brand_team_id", "text", (col) => col.references("teams.id").onDelete("set null"))
    .addColumn("visible", t.int, (col) => col.notNull().defaultTo(1))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("portfolios_brand_team_idx").on("portfolios").column("brand_team_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("portfolios").execute();
}
