/**
 * Webhook deliveries already accepted, by their webhook-id (issue 27): a replayed Replicate webhook
 * is acknowledged without acting on it again. Kept a while past the signature's time window
 * (render module; housekeeping removes older ones). Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("webhook_receipts")
    .addColumn("webhook_id", "text", (col) => col.primaryKey())
    .addColumn("received_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("webhook_receipts_received_at").on("webhook_receipts").column("received_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_receipts").execute();
}
