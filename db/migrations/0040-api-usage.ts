/**
 * Requests per API key and day (issue 31, decision 097): what /developers and GET /api/v1/usage
 * show. One row per key and UTC day ("2026-11-27"), added to by one upsert per request; renders
 * ordered, and the answers that were refusals (4xx) or our failures (5xx). Kept 90 days
 * (housekeeping). Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("api_usage")
    .addColumn("api_key_id", "text", (col) => col.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull())
    .addColumn("requests", t.int, (col) => col.notNull())
    .addColumn("renders", t.int, (col) => col.notNull())
    .addColumn("client_errors", t.int, (col) => col.notNull())
    .addColumn("server_errors", t.int, (col) => col.notNull())
    .addPrimaryKeyConstraint("api_usage_pk", ["api_key_id", "day"])
    .execute();
  await db.schema.createIndex("api_usage_by_day").on("api_usage").column("day").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_usage").execute();
}
