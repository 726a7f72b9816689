/**
 * Wrong second-factor codes per account, across sign-ins: a correct password opens a new challenge
 * each time, so the per-challenge limit alone let the factor be ground down. Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("two_factor_failures")
    .addColumn("id", t.int, t.autoId)
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", t.int, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("two_factor_failures_user_idx").on("two_factor_failures").columns(["user_id", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("two_factor_failures").execute();
}
