/**
 * The community hub (issue 32, decision 102), owned by src/server/community.
 * - publications: a finished render its owner published, with a title, a layout and whether the
 *   owner's name (or their studio's, for a team's render) is shown. before_key and after_key are the
 *   metadata-free copies made when it was published (null for the gallery's renders this migration
 *   moves over: their copies are made on first request, decision 102). One per render.
 * - publication_likes, publication_saves: who liked and who saved what; like_count is kept with the
 *   publication for the "most liked" order.
 * - community_follows: a user following a designer (target_kind "user") or a studio ("team").
 * - publication_reports: at most one open report per user and publication.
 * - publishing_blocks: accounts an admin stopped from publishing.
 * The renders the public gallery showed (render_jobs.shared_in_gallery_at) become publications
 * here, and the flag is cleared: publishing is the only way into /gallery now.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("publications")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("job_id", "text", (col) => col.notNull().unique().references("render_jobs.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("layout", "text", (col) => col.notNull())
    .addColumn("show_name", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("style", "text", (col) => col.notNull())
    .addColumn("style_name", "text")
    .addColumn("room_type", "text", (col) => col.notNull())
    .addColumn("before_key", "text")
    .addColumn("after_key", "text")
    .addColumn("like_count", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("published_at", t.int, (col) => col.notNull())
    .addColumn("hidden_at", t.int)
    .addColumn("hidden_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("publications_newest_idx").on("publications").columns(["published_at", "id"]).execute();
  await db.schema.createIndex("publications_liked_idx").on("publications").columns(["like_count", "published_at", "id"]).execute();
  await db.schema.createIndex("publications_user_idx").on("publications").column("user_id").execute();
  await db.schema.createIndex("publications_team_idx").on("publications").column("team_id").execute();
  await db.schema.createIndex("publications_hidden_by_idx").on("publications").column("hidden_by").execute();

  for (const table of ["publication_likes", "publication_saves"]) {
    await db.schema
      .createTable(table)
      .addColumn("publication_id", "text", (col) => col.notNull().references("publications.id").onDelete("cascade"))
      .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", t.int, (col) => col.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ["publication_id", "user_id"])
      .execute();
    await db.schema.createIndex(`${table}_user_idx`).on(table).columns(["user_id", "created_at"]).execute();
  }

  await db.schema
    .createTable("community_follows")
    .addColumn("follower_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("target_kind", "text", (col) => col.notNull())
    .addColumn("target_id", "text", (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addPrimaryKeyConstraint("community_follows_pk", ["follower_id", "target_kind", "target_id"])
    .addCheckConstraint("community_follows_kind", sql`target_kind IN ('user', 'team')`)
    .execute();

  await db.schema
    .createTable("publication_reports")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("publication_id", "text", (col) => col.notNull().references("publications.id").onDelete("cascade"))
    .addColumn("reporter_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("note", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("resolved_at", t.int)
    .addColumn("resolution", "text")
    .addColumn("resolved_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .execute();
  // One open report per user and publication.
  await db.schema
    .createIndex("publication_reports_open_idx")
    .on("publication_reports")
    .columns(["publication_id", "reporter_id"])
    .unique()
    .where(sql.ref("resolved_at"), "is", null)
    .execute();
  await db.schema.createIndex("publication_reports_created_idx").on("publication_reports").columns(["resolved_at", "created_at"]).execute();
  await db.schema.createIndex("publication_reports_reporter_idx").on("publication_reports").column("reporter_id").execute();
  await db.schema.createIndex("publication_reports_resolved_by_idx").on("publication_reports").column("resolved_by").execute();

  await db.schema
    .createTable("publishing_blocks")
    .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("blocked_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("publishing_blocks_blocked_by_idx").on("publishing_blocks").column("blocked_by").execute();

  // The gallery's renders become publications (no title: the page names them by their style), with
  // their copies made on first request; a visitor's render never was in the gallery.
  await sql`
    INSERT INTO publications (id, job_id, user_id, team_id, title, layout, show_name, style, style_name, room_type, like_count, published_at)
    SELECT 'pub_' || ${t.randomId}, id, user_id, team_id, '', 'before-after', 0, style, NULL, room_type, 0, shared_in_gallery_at
    FROM render_jobs
    WHERE shared_in_gallery_at IS NOT NULL AND status = 'succeeded' AND style <> '' AND user_id IS NOT NULL
  `.execute(db);
  await sql`UPDATE render_jobs SET shared_in_gallery_at = NULL WHERE shared_in_gallery_at IS NOT NULL`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "publishing_blocks",
    "publication_reports",
    "community_follows",
    "publication_saves",
    "publication_likes",
    "publications",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
