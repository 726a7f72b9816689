/**
 * Housekeeping passes (issue 16): when each ran and what it removed, by kind, for /admin.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("housekeeping_runs")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("trigger", "text", (col) => col.notNull().check(sql`trigger IN ('schedule', 'admin')`))
    .addColumn("started_at", t.int, (col) => col.notNull())
    .addColumn("finished_at", t.int)
    // JSON objects: counts by kind, and errors by step.
    .addColumn("removed", "text", (col) => col.notNull())
    .addColumn("errors", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("housekeeping_runs_started_at").on("housekeeping_runs").column("started_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("housekeeping_runs").execute();
}
