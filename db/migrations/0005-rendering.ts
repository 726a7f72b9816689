/**
 * The render flow: uploaded images, durable render jobs, their event log (what a reconnecting
 * client replays), and the visitors' free demo renders. Files live in storage under generated keys;
 * rows point at them. Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);

  await db.schema
    .createTable("uploads")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("visitor_id", "text")
    .addColumn("project_id", "text", (col) => col.references("projects.id").onDelete("cascade"))
    .addColumn("mode", "text", (col) => col.notNull().check(sql`mode IN ('room-photo', 'floor-plan')`))
    .addColumn("room_type", "text", (col) => col.notNull())
    .addColumn("format", "text", (col) => col.notNull().check(sql`format IN ('jpeg', 'png')`))
    .addColumn("original_key", "text", (col) => col.notNull())
    .addColumn("thumb_key", "text", (col) => col.notNull())
    .addColumn("width", t.int, (col) => col.notNull())
    .addColumn("height", t.int, (col) => col.notNull())
    .addColumn("bytes", t.int, (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addCheckConstraint("uploads_owner_ck", sql`(user_id IS NULL) <> (visitor_id IS NULL)`)
    .execute();
  await db.schema.createIndex("uploads_user_idx").on("uploads").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("uploads_visitor_idx").on("uploads").columns(["visitor_id"]).execute();
  await db.schema.createIndex("uploads_project_idx").on("uploads").columns(["project_id"]).execute();

  await db.schema
    .createTable("render_jobs")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("visitor_id", "text")
    .addColumn("project_id", "text", (col) => col.references("projects.id").onDelete("cascade"))
    .addColumn("upload_id", "text", (col) => col.notNull().references("uploads.id").onDelete("cascade"))
    .addColumn("style", "text", (col) => col.notNull())
    .addColumn("room_type", "text", (col) => col.notNull())
    .addColumn("mode", "text", (col) => col.notNull())
    .addColumn("note", "text")
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) =>
      col.notNull().check(sql`status IN ('queued', 'preprocessing', 'rendering', 'saving', 'succeeded', 'failed', 'canceled')`),
    )
    .addColumn("credits_charged", t.int, (col) => col.notNull().check(sql`credits_charged >= 0`))
    .addColumn("attempts", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("recoveries", t.int, (col) => col.notNull().defaultTo(0))
    .addColumn("percent", t.int)
    .addColumn("error", "text")
    .addColumn("model", "text")
    .addColumn("input_key", "text")
    .addColumn("result_key", "text")
    .addColumn("medium_key", "text")
    .addColumn("thumb_key", "text")
    .addColumn("high_key", "text")
    .addColumn("result_width", t.int)
    .addColumn("result_height", t.int)
    .addColumn("share_token", "text", (col) => col.unique())
    .addColumn("shared_in_gallery_at", t.int)
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("started_at", t.int)
    .addColumn("finished_at", t.int)
    .addColumn("updated_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addCheckConstraint("render_jobs_owner_ck", sql`(user_id IS NULL) <> (visitor_id IS NULL)`)
    .execute();
  await db.schema.createIndex("render_jobs_status_idx").on("render_jobs").columns(["status"]).execute();
  await db.schema.createIndex("render_jobs_user_idx").on("render_jobs").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("render_jobs_visitor_idx").on("render_jobs").columns(["visitor_id"]).execute();
  await db.schema.createIndex("render_jobs_project_idx").on("render_jobs").columns(["project_id"]).execute();
  await db.schema.createIndex("render_jobs_gallery_idx").on("render_jobs").columns(["shared_in_gallery_at"]).execute();

  // (An index on status alone is ordered by rowid within each status: the queue order.)

  // Append-only: the id orders events and is the id a reconnecting client sends back.
  await db.schema
    .createTable("render_events")
    .addColumn("id", t.int, t.autoId)
    .addColumn("job_id", "text", (col) => col.notNull())
    .addColumn("owner", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull().check(t.isJson("payload")))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("render_events_job_idx").on("render_events").columns(["job_id", "id"]).execute();
  await db.schema.createIndex("render_events_owner_idx").on("render_events").columns(["owner", "id"]).execute();

  // One free demo render per visitor (primary key), counted per address too.
  await db.schema
    .createTable("visitor_demo_renders")
    .addColumn("visitor_id", "text", (col) => col.primaryKey())
    .addColumn("ip_address", "text", (col) => col.notNull())
    .addColumn("job_id", "text", (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("visitor_demo_renders_ip_idx").on("visitor_demo_renders").columns(["ip_address", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("visitor_demo_renders").execute();
  await db.schema.dropTable("render_events").execute();
  await db.schema.dropTable("render_jobs").execute();
  await db.schema.dropTable("uploads").execute();
}
