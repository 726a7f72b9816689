/**
 * Listing exports (California B&P Code §10140.8): a render with its disclosure burned in, and the
 * public page /l/<code> with the unaltered original. References to the user, the render and the
 * project become NULL when those are deleted, so the public page stops at once (it requires them)
 * and the listing module's sweep removes the files. Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("listing_exports")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("code", "text", (col) => col.notNull().unique())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("job_id", "text", (col) => col.references("render_jobs.id").onDelete("set null"))
    .addColumn("project_id", "text", (col) => col.references("projects.id").onDelete("set null"))
    .addColumn("disclosure", "text", (col) => col.notNull())
    .addColumn("language", "text", (col) => col.notNull().check(sql`language IN ('en', 'es', 'fr')`))
    /** The page's URL as the QR code in the picture encodes it. */
    .addColumn("public_url", "text", (col) => col.notNull())
    /** Storage keys; NULL once the files are removed (revoked, or the render gone). */
    .addColumn("picture_key", "text")
    .addColumn("original_key", "text")
    .addColumn("altered_key", "text")
    .addColumn("width", t.int, (col) => col.notNull())
    .addColumn("height", t.int, (col) => col.notNull())
    .addColumn("original_width", t.int, (col) => col.notNull())
    .addColumn("original_height", t.int, (col) => col.notNull())
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("revoked_at", t.int)
    .execute();
  await db.schema.createIndex("listing_exports_job_idx").on("listing_exports").columns(["job_id"]).execute();
  await db.schema.createIndex("listing_exports_user_idx").on("listing_exports").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("listing_exports_project_idx").on("listing_exports").columns(["project_id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("listing_exports").execute();
}
