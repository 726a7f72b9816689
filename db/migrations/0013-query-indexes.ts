/**
 * Indexes that match the order of the lists that grow (decision 044): a user's projects latest first
 * (and the next page after a cursor), every job newest first for the admin (all, or of one status), the
 * public gallery's shared renders, the landing page's figures (succeeded renders with their times, read
 * from the index alone), and the admin's users newest first. Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("projects_user_updated_idx").on("projects").columns(["user_id", "updated_at", "id"]).execute();
  await db.schema.createIndex("render_jobs_created_idx").on("render_jobs").columns(["created_at"]).execute();
  // Its first column serves every query the plain status index served.
  await db.schema.createIndex("render_jobs_status_created_idx").on("render_jobs").columns(["status", "created_at"]).execute();
  await db.schema.dropIndex("render_jobs_status_idx").execute();
  await db.schema
    .createIndex("render_jobs_status_finished_idx")
    .on("render_jobs")
    .columns(["status", "finished_at", "started_at"])
    .execute();
  // Only shared renders, by status then in the gallery's order: status is bound as a parameter, so it must
  // be a column of the index (a partial index's condition can only use what the query writes literally).
  await db.schema
    .createIndex("render_jobs_gallery_shared_idx")
    .on("render_jobs")
    .columns(["status", "shared_in_gallery_at"])
    .where(sql.ref("shared_in_gallery_at"), "is not", null)
    .execute();
  await db.schema.dropIndex("render_jobs_gallery_idx").execute();
  await db.schema.createIndex("users_created_idx").on("users").columns(["created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("users_created_idx").execute();
  await db.schema.createIndex("render_jobs_gallery_idx").on("render_jobs").columns(["shared_in_gallery_at"]).execute();
  await db.schema.dropIndex("render_jobs_gallery_shared_idx").execute();
  await db.schema.dropIndex("render_jobs_status_finished_idx").execute();
  await db.schema.createIndex("render_jobs_status_idx").on("render_jobs").columns(["status"]).execute();
  await db.schema.dropIndex("render_jobs_status_created_idx").execute();
  await db.schema.dropIndex("render_jobs_created_idx").execute();
  await db.schema.dropIndex("projects_user_updated_idx").execute();
}
