/**
 * The marketplace of styles (issue 32, decision 103), owned by src/server/marketplace.
 * - A listing is a team's (team_id) or a personal space's (user_id), as custom styles are; created_by
 *   is its author. version counts its publications (1, 2, …); install_count the spaces that installed it.
 * - Its styles, cover and examples are copies, not references: the author's style or render changing or
 *   going later does not change the listing until a new version is published. Pictures are JPEGs
 *   without metadata, in the rows (as reference pictures are: decision 100).
 * - facets: "tone:<tone>" and "room:<room type>" of the listing, what the browse filters by.
 * - An install is one space's copy of a listing (one per space), with the version it has and the
 *   copies it made (style_ids, JSON, in the listing's order); kept_version: a newer version the space
 *   chose not to take (its own copies kept).
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("marketplace_listings")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("created_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("version", t.int, (col) => col.notNull())
    .addColumn("install_count", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("cover", t.bytes, (col) => col.notNull())
    .addColumn("cover_width", t.int, (col) => col.notNull())
    .addColumn("cover_height", t.int, (col) => col.notNull())
    .addColumn("published_at", t.int, (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .addCheckConstraint("marketplace_listings_one_space", sql`(team_id IS NULL) <> (user_id IS NULL)`)
    .execute();
  await db.schema.createIndex("marketplace_listings_newest_idx").on("marketplace_listings").columns(["updated_at", "id"]).execute();
  await db.schema.createIndex("marketplace_listings_installs_idx").on("marketplace_listings").columns(["install_count", "id"]).execute();
  await db.schema.createIndex("marketplace_listings_team_idx").on("marketplace_listings").column("team_id").execute();
  await db.schema.createIndex("marketplace_listings_user_idx").on("marketplace_listings").column("user_id").execute();
  await db.schema.createIndex("marketplace_listings_created_by_idx").on("marketplace_listings").column("created_by").execute();

  await db.schema
    .createTable("marketplace_listing_facets")
    .addColumn("listing_id", "text", (col) => col.notNull().references("marketplace_listings.id").onDelete("cascade"))
    .addColumn("facet", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("marketplace_listing_facets_pk", ["listing_id", "facet"])
    .execute();
  await db.schema
    .createIndex("marketplace_listing_facets_facet_idx")
    .on("marketplace_listing_facets")
    .columns(["facet", "listing_id"])
    .execute();

  await db.schema
    .createTable("marketplace_listing_styles")
    .addColumn("listing_id", "text", (col) => col.notNull().references("marketplace_listings.id").onDelete("cascade"))
    .addColumn("position", t.int, (col) => col.notNull())
    .addColumn("source_style_id", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("avoid", "text", (col) => col.notNull())
    .addColumn("palette", "text", (col) => col.notNull().check(t.isJson("palette")))
    .addColumn("tone", "text", (col) => col.notNull())
    .addColumn("reference", t.bytes)
    .addColumn("reference_width", t.int)
    .addColumn("reference_height", t.int)
    .addPrimaryKeyConstraint("marketplace_listing_styles_pk", ["listing_id", "position"])
    .execute();

  await db.schema
    .createTable("marketplace_listing_examples")
    .addColumn("listing_id", "text", (col) => col.notNull().references("marketplace_listings.id").onDelete("cascade"))
    .addColumn("position", t.int, (col) => col.notNull())
    .addColumn("room_type", "text", (col) => col.notNull())
    .addColumn("picture", t.bytes, (col) => col.notNull())
    .addColumn("width", t.int, (col) => col.notNull())
    .addColumn("height", t.int, (col) => col.notNull())
    .addPrimaryKeyConstraint("marketplace_listing_examples_pk", ["listing_id", "position"])
    .execute();

  await db.schema
    .createTable("marketplace_installs")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("listing_id", "text", (col) => col.notNull().references("marketplace_listings.id").onDelete("cascade"))
    .addColumn("space_key", "text", (col) => col.notNull())
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("installed_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("version", t.int, (col) => col.notNull())
    .addColumn("kept_version", t.int)
    .addColumn("style_ids", "text", (col) => col.notNull().check(t.isJson("style_ids")))
    .addColumn("installed_at", t.int, (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .addCheckConstraint("marketplace_installs_one_space", sql`(team_id IS NULL) <> (user_id IS NULL)`)
    .execute();
  await db.schema
    .createIndex("marketplace_installs_space_idx")
    .on("marketplace_installs")
    .columns(["listing_id", "space_key"])
    .unique()
    .execute();
  await db.schema.createIndex("marketplace_installs_space_key_idx").on("marketplace_installs").column("space_key").execute();
  await db.schema.createIndex("marketplace_installs_team_idx").on("marketplace_installs").column("team_id").execute();
  await db.schema.createIndex("marketplace_installs_user_idx").on("marketplace_installs").column("user_id").execute();
  await db.schema.createIndex("marketplace_installs_installed_by_idx").on("marketplace_installs").column("installed_by").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("marketplace_installs").execute();
  await db.schema.dropTable("marketplace_listing_examples").execute();
  await db.schema.dropTable("marketplace_listing_styles").execute();
  await db.schema.dropTable("marketplace_listing_facets").execute();
  await db.schema.dropTable("marketplace_listings").execute();
}
