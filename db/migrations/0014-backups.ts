/**
 * Backups (issue 16, decision 047): one row per backup taken by the schedule, an admin or
 * `npm run backup`, written when it starts and completed when it ends. Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const t = portable(db);
  await db.schema
    .createTable("backups")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("trigger", "text", (col) => col.notNull().check(sql`trigger IN ('schedule', 'admin', 'command')`))
    .addColumn("started_at", t.int, (col) => col.notNull())
    .addColumn("finished_at", t.int)
    // Set on success: the .tar.gz, its size, and how many files it holds (the database included).
    .addColumn("file", "text")
    .addColumn("bytes", t.int)
    .addColumn("files", t.int)
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("backups_started_at").on("backups").column("started_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("backups").execute();
}
