/**
 * Administration: credit purchases through Stripe and the Stripe events already handled (each
 * event id once, since Stripe redelivers), analytics events sent by clients, the self-test runs,
 * and an audit of what admins did to accounts. Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);

  await db.schema
    .createTable("credit_purchases")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("package_id", "text", (col) => col.notNull())
    .addColumn("credits", t.int, (col) => col.notNull().check(sql`credits > 0`))
    .addColumn("amount_cents", t.int, (col) => col.notNull().check(sql`amount_cents >= 0`))
    .addColumn("currency", "text", (col) => col.notNull())
    .addColumn("checkout_session_id", "text", (col) => col.unique())
    .addColumn("payment_intent_id", "text")
    .addColumn("status", "text", (col) => col.notNull().check(sql`status IN ('pending', 'paid', 'refunded', 'expired')`))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .addColumn("paid_at", t.int)
    .addColumn("refunded_at", t.int)
    .execute();
  await db.schema.createIndex("credit_purchases_user_idx").on("credit_purchases").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("credit_purchases_intent_idx").on("credit_purchases").columns(["payment_intent_id"]).execute();

  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("processed_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();

  await db.schema
    .createTable("analytics_events")
    .addColumn("id", t.int, t.autoId)
    .addColumn("category", "text", (col) => col.notNull())
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("label", "text")
    .addColumn("value", t.real)
    .addColumn("metadata", "text", (col) => col.check(sql`metadata IS NULL OR ${t.isJson("metadata")}`))
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("session_id", "text", (col) => col.notNull())
    .addColumn("occurred_at", t.int, (col) => col.notNull())
    .addColumn("received_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
  await db.schema.createIndex("analytics_events_category_idx").on("analytics_events").columns(["category", "occurred_at"]).execute();

  await db.schema
    .createTable("self_test_runs")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("suite", "text", (col) => col.notNull())
    .addColumn("source", "text", (col) => col.notNull().check(sql`source IN ('browser', 'cli')`))
    .addColumn("passed", t.int, (col) => col.notNull())
    .addColumn("failed", t.int, (col) => col.notNull())
    .addColumn("results", "text", (col) => col.notNull().check(t.isJson("results")))
    .addColumn("started_at", t.int, (col) => col.notNull())
    .addColumn("finished_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("self_test_runs_finished_idx").on("self_test_runs").columns(["finished_at"]).execute();

  await db.schema
    .createTable("admin_audit")
    .addColumn("id", t.int, t.autoId)
    .addColumn("admin_user_id", "text")
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("target_user_id", "text")
    .addColumn("details", "text", (col) => col.check(sql`details IS NULL OR ${t.isJson("details")}`))
    .addColumn("created_at", t.int, (col) => col.notNull().defaultTo(t.now))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["admin_audit", "self_test_runs", "analytics_events", "stripe_events", "credit_purchases"])
    await db.schema.dropTable(table).execute();
}
