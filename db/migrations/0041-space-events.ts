/**
 * Space events (issue 31, decision 098): an append-only record of what happened in a space other
 * than a render's progress, written in the transaction of the change it records. Two kinds so far: a
 * credit balance that went down (with the balance after and the change), and a listing export made.
 * The webhooks' fan-out reads it after a cursor of its own (webhook_cursor "space_events"), as it
 * reads render_events; an endpoint asking for credits.low says below how many credits
 * (credits_low_below). Kept 7 days (housekeeping). Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("space_events")
    .addColumn("id", t.int, t.autoId)
    .addColumn("owner", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull().check(t.isJson("payload")))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("space_events_by_time").on("space_events").column("created_at").execute();
  await db.schema.alterTable("webhook_endpoints").addColumn("credits_low_below", t.int).execute();
  await sql`insert into webhook_cursor (name, last_id) values ('space_events', 0)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from webhook_cursor where name = 'space_events'`.execute(db);
  await db.schema.alterTable("webhook_endpoints").dropColumn("credits_low_below").execute();
  await db.schema.dropTable("space_events").execute();
}
