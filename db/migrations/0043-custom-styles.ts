/**
 * Styles of a user's or a team's own (issue 32, decision 100), owned by src/server/styles.
 * - A style is a team's (team_id set; any member renders with it, Owner and Admin change it) or a
 *   personal space's (team_id null, user_id its keeper). Exactly one of the two is set, as for
 *   clients: a personal style goes with its keeper's account, a team's stays the team's when its
 *   maker's account goes (created_by becomes null), as the rest of a member's work in a team does.
 * - palette is a JSON array of "#rrggbb"; tone one of STYLE_TONES (src/shared/custom-styles.ts).
 * - reference is the reference picture as the JPEG kept (at most CUSTOM_STYLES.referenceLongEdge a
 *   side, no metadata), in the row itself so that it goes with the row and with the backups.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("custom_styles")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("created_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("avoid", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("palette", "text", (col) => col.notNull().check(t.isJson("palette")))
    .addColumn("tone", "text", (col) => col.notNull())
    .addColumn("reference", t.bytes)
    .addColumn("reference_width", t.int)
    .addColumn("reference_height", t.int)
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .addCheckConstraint("custom_styles_one_space", sql`(team_id IS NULL) <> (user_id IS NULL)`)
    .execute();
  // A space's styles, newest change first.
  await db.schema.createIndex("custom_styles_team_idx").on("custom_styles").columns(["team_id", "updated_at"]).execute();
  await db.schema.createIndex("custom_styles_user_idx").on("custom_styles").columns(["user_id", "updated_at"]).execute();
  // created_by's ON DELETE SET NULL looks the maker's rows up when an account goes.
  await db.schema.createIndex("custom_styles_created_by_idx").on("custom_styles").column("created_by").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("custom_styles").execute();
}
