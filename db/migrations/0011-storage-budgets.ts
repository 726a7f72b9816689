/**
 * What each user's files take on disk, and the bytes visitors upload per day: render_jobs records
 * the bytes of the files made for a job (renders made before this count as 0), and upload_budgets
 * holds one running total per visitor or client address and day. Shipped: never edit this file.
 */
import type { Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .alterTable("render_jobs")
    .addColumn("stored_bytes", t.int, (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("upload_budgets")
    // "visitor:<id>" or "address:<client address>".
    .addColumn("subject", "text", (col) => col.notNull())
    // Days since 1970-01-01 (UTC).
    .addColumn("day", t.int, (col) => col.notNull())
    .addColumn("bytes", t.int, (col) => col.notNull())
    .addPrimaryKeyConstraint("upload_budgets_pk", ["subject", "day"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("upload_budgets").execute();
  await db.schema.alterTable("render_jobs").dropColumn("stored_bytes").execute();
}
