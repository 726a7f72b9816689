/**
 * "Apply to the whole project" (issue 30): a set renders every chosen photo of a project in one
 * style with one seed, optionally after a reference picture, so a listing's photos look like one home.
 * Its jobs point to it; deleting the set's last job leaves an empty set, which lists nothing.
 * Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("render_sets")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    // Who asked for it (its jobs carry their own owner and team, as any render); a team's set outlives
    // its author's account, as the team's pictures do.
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("style", "text", (col) => col.notNull())
    .addColumn("render_mode", "text", (col) => col.notNull())
    // The one seed every picture asked for (null: the engine has no seeds).
    .addColumn("seed", t.int)
    // The finished render whose look the others follow, on engines that accept a reference picture.
    .addColumn("reference_job_id", "text")
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("render_sets_project").on("render_sets").columns(["project_id", "created_at"]).execute();
  await db.schema.alterTable("render_jobs").addColumn("set_id", "text").execute();
  await db.schema.createIndex("render_jobs_set").on("render_jobs").column("set_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("render_jobs_set").execute();
  await db.schema.alterTable("render_jobs").dropColumn("set_id").execute();
  await db.schema.dropTable("render_sets").execute();
}
