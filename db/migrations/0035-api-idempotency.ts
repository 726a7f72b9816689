/**
 * Idempotency keys of the public REST API (issue 31, decision 094): the first answer to a POST sent
 * with an `Idempotency-Key`, per API key, kept 24 hours; the same key with the same request gets that
 * answer again (charged once), with another request a 409. A row without a status is a request still
 * being answered. Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("api_idempotency")
    .addColumn("api_key_id", "text", (col) => col.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (col) => col.notNull())
    .addColumn("request_hash", "text", (col) => col.notNull())
    .addColumn("status", t.int)
    .addColumn("response", "text")
    .addColumn("created_at", t.int, (col) => col.notNull())
    .addPrimaryKeyConstraint("api_idempotency_pk", ["api_key_id", "idempotency_key"])
    .execute();
  await db.schema.createIndex("api_idempotency_by_age").on("api_idempotency").column("created_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_idempotency").execute();
}
