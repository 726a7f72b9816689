/**
 * Webhooks of the public REST API (issue 31, decision 095). An endpoint belongs to a space (a user's
 * personal space, or a team when team_id is set; `owner` is that space's event key, "u:<id>" or
 * "t:<id>") and was made by a user. Its signing secret is kept sealed with APP_SECRET (it must be
 * read to sign). webhook_deliveries is the durable outbox: one row per event per endpoint, sent in
 * `seq` order per endpoint, claimed with a lease; each try is a webhook_attempts row. `event_key`
 * (the render event's id) makes the fan-out idempotent. webhook_cursor holds how far the fan-out has
 * read render_events (it starts at today's last event: no old event is sent). Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("team_id", "text", (col) => col.references("teams.id").onDelete("cascade"))
    .addColumn("owner", "text", (col) => col.notNull())
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("events", "text", (col) => col.notNull().check(t.isJson("events")))
    .addColumn("secret", "text", (col) => col.notNull())
    .addColumn("language", "text", (col) => col.notNull().defaultTo("en"))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("disabled_at", t.int)
    .addColumn("disabled_reason", "text")
    .execute();
  await db.schema.createIndex("webhook_endpoints_by_owner").on("webhook_endpoints").columns(["owner", "created_at"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("seq", t.int, t.autoId)
    .addColumn("id", "text", (col) => col.notNull().unique())
    .addColumn("endpoint_id", "text", (col) => col.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("event_key", "text")
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("next_attempt_at", t.int, (col) => col.notNull())
    .addColumn("lease_until", t.int)
    .addColumn("lease_owner", "text")
    .addColumn("finished_at", t.int)
    .execute();
  await db.schema.createIndex("webhook_deliveries_once").on("webhook_deliveries").columns(["endpoint_id", "event_key"]).unique().execute();
  await db.schema.createIndex("webhook_deliveries_queue").on("webhook_deliveries").columns(["status", "endpoint_id", "seq"]).execute();
  await db.schema.createIndex("webhook_deliveries_log").on("webhook_deliveries").columns(["endpoint_id", "created_at"]).execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", t.int, t.autoId)
    .addColumn("delivery_id", "text", (col) => col.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("at", t.int, (col) => col.notNull())
    .addColumn("status", t.int)
    .addColumn("error", "text")
    .addColumn("answer", "text")
    .addColumn("duration_ms", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("webhook_attempts_by_delivery").on("webhook_attempts").columns(["delivery_id", "id"]).execute();

  await db.schema
    .createTable("webhook_cursor")
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("last_id", t.int, (col) => col.notNull())
    .execute();
  await sql`insert into webhook_cursor (name, last_id) select 'render_events', coalesce(max(id), 0) from render_events`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_cursor").execute();
  await db.schema.dropTable("webhook_attempts").execute();
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_endpoints").execute();
}
