/**
 * Listing videos (issue 33, decision 111), owned by src/server/listing: a project's pictures as a
 * short MP4. The row holds the request (renders in order, format, length, language), the state of its
 * making (queued, making with its progress, succeeded, failed with why, canceled), the stored file, and
 * whether the owner shows it on the project's public listing pages.
 * Deleting the account or the project removes the row; the file goes with the listing sweep.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("listing_videos")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("job_ids", "text", (col) => col.notNull())
    .addColumn("format", "text", (col) => col.notNull().check(sql`format IN ('landscape', 'portrait')`))
    .addColumn("seconds", t.int, (col) => col.notNull())
    .addColumn("language", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull().check(sql`status IN ('queued', 'making', 'succeeded', 'failed', 'canceled')`))
    .addColumn("progress", t.real, (col) => col.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("file_key", "text")
    .addColumn("bytes", t.int)
    .addColumn("width", t.int)
    .addColumn("height", t.int)
    .addColumn("frames", t.int)
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("updated_at", t.int, (col) => col.notNull())
    .addColumn("finished_at", t.int)
    // Shown on the public pages of the project's listing exports (the owner chooses; one per project).
    .addColumn("on_listing_pages", t.int, (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("listing_videos_project_idx").on("listing_videos").columns(["project_id", "created_at"]).execute();
  await db.schema.createIndex("listing_videos_status_idx").on("listing_videos").columns(["status", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("listing_videos").execute();
}
