/**
 * Studio version numbers and render variations, stored once (issue 27, items 5 and 6; decision 069).
 * render_jobs.version_number: the job's number among its photo's versions (the photo itself is v1),
 * given once, when the job becomes a version (an edit when it is queued, a render when it succeeds)
 * and never recomputed from the tree's shape. Existing versions are numbered here in the order they
 * were made. render_jobs.variation / variation_count: "variation 2 of 4" of the request that made
 * the job (null for jobs made before this migration and for re-renders, which are one picture).
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema.alterTable("render_jobs").addColumn("version_number", t.int).execute();
  await db.schema.alterTable("render_jobs").addColumn("variation", t.int).execute();
  await db.schema.alterTable("render_jobs").addColumn("variation_count", t.int).execute();
  // Versions so far: every edit, and every render that succeeded, in the order they were made (v2 onwards).
  // (A PostgreSQL database is always new at this step: it has no rows to number, and no rowid.)
  if (!t.postgres)
    await sql`
    UPDATE render_jobs SET version_number = (
      SELECT numbered.number FROM (
        SELECT id, row_number() OVER (PARTITION BY upload_id ORDER BY created_at, rowid) + 1 AS number
        FROM render_jobs WHERE kind = 'edit' OR status = 'succeeded'
      ) AS numbered
      WHERE numbered.id = render_jobs.id
    )
    WHERE kind = 'edit' OR status = 'succeeded'
  `.execute(db);
  // One number per version of a photo (several NULLs, jobs that are not versions yet, are allowed).
  await db.schema
    .createIndex("render_jobs_version_number_idx")
    .unique()
    .on("render_jobs")
    .columns(["upload_id", "version_number"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("render_jobs_version_number_idx").execute();
  await db.schema.alterTable("render_jobs").dropColumn("variation_count").execute();
  await db.schema.alterTable("render_jobs").dropColumn("variation").execute();
  await db.schema.alterTable("render_jobs").dropColumn("version_number").execute();
}
