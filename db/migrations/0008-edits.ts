/**
 * The modification studio's edits: a render job of kind "edit" repaints a painted region of a
 * version (a render, another edit, or the photo itself) with an instruction. Its row in render_edits
 * holds the link to the version it was made from, the mask and the instruction. Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("render_jobs")
    .addColumn("kind", "text", (col) =>
      col
        .notNull()
        .defaultTo("render")
        .check(sql`kind IN ('render', 'edit')`),
    )
    .execute();
  await db.schema
    .createTable("render_edits")
    .addColumn("job_id", "text", (col) => col.primaryKey().references("render_jobs.id").onDelete("cascade"))
    // The version it was made from: null = the photo itself. Deleting a version re-links its
    // children to its own parent first; SET NULL is only the safety net.
    .addColumn("parent_job_id", "text", (col) => col.references("render_jobs.id").onDelete("set null"))
    .addColumn("mask_key", "text", (col) => col.notNull())
    .addColumn("instruction", "text", (col) => col.notNull())
    .addColumn("preset", "text", (col) => col.check(sql`preset IN ('remove', 'replace', 'recolour')`))
    .execute();
  await db.schema.createIndex("render_edits_parent_idx").on("render_edits").columns(["parent_job_id"]).execute();
  await db.schema.createIndex("render_jobs_upload_idx").on("render_jobs").columns(["upload_id", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("render_jobs_upload_idx").execute();
  await db.schema.dropTable("render_edits").execute();
  await db.schema.alterTable("render_jobs").dropColumn("kind").execute();
}
