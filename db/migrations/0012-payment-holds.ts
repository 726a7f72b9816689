/**
 * Payments held for an admin: a paid Checkout Session whose amount or currency differs from its
 * package is not credited; it waits here until an admin credits it anyway or dismisses it, or Stripe
 * reports it refunded. A table of its own because credit_purchases.status has a CHECK constraint
 * (the held purchase stays 'pending'). Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("payment_holds")
    .addColumn("purchase_id", "text", (col) => col.primaryKey().references("credit_purchases.id").onDelete("cascade"))
    .addColumn("checkout_session_id", "text", (col) => col.notNull())
    .addColumn("payment_intent_id", "text")
    // What Stripe says was paid (amount_total may be absent: that is held too).
    .addColumn("paid_amount_cents", t.int)
    .addColumn("paid_currency", "text")
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addColumn("resolved_at", t.int)
    .addColumn("resolution", "text", (col) => col.check(sql`resolution IN ('credited', 'dismissed', 'refunded')`))
    .addColumn("resolved_by", "text", (col) => col.references("users.id").onDelete("set null"))
    .addCheckConstraint("payment_holds_resolved", sql`(resolved_at IS NULL) = (resolution IS NULL)`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("payment_holds").execute();
}
