/**
 * Exterior photos (issue 33, decision 110): render_jobs.render_mode also takes 'sky', 'twilight' and
 * 'garden'. The column's CHECK (0007) is widened:
 * - PostgreSQL: its constraint dropped and added again;
 * - SQLite, which cannot alter a CHECK: the table rebuilt from its own CREATE statement with the new
 *   list (SQLite's "making other kinds of table schema changes" procedure): foreign keys off, in one
 *   transaction a new table, every row copied, the old one dropped and the new one renamed, its
 *   indexes and triggers made again, then the foreign keys checked before they are turned back on. Other tables'
 *   references name the table, so they hold.
 * Shipped: never edit this file.
 */
import { sql, type Kysely } from "kysely";
import { portable } from "./portable";

const BEFORE = "render_mode IN ('redesign', 'stage', 'declutter')";
const AFTER = "render_mode IN ('redesign', 'stage', 'declutter', 'sky', 'twilight', 'garden')";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
async function replaceCheck(db: Kysely<any>, from: string, to: string): Promise<void> {
  if (portable(db).postgres) {
    await sql`ALTER TABLE render_jobs DROP CONSTRAINT render_jobs_render_mode_check`.execute(db);
    await sql`ALTER TABLE render_jobs ADD CONSTRAINT render_jobs_render_mode_check CHECK (${sql.raw(to)})`.execute(db);
    return;
  }
  const table = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'render_jobs'`.execute(db);
  const create = table.rows[0]?.sql;
  if (!create?.includes(from)) throw new Error("render_jobs does not have the render_mode check this migration replaces");
  // Its indexes and triggers go with the old table: made again on the new one, as they were.
  const parts = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'render_jobs' AND sql IS NOT NULL
    ORDER BY CASE type WHEN 'index' THEN 0 ELSE 1 END`.execute(db);
  const rebuilt = create.replace(from, to).replace(/^CREATE TABLE "?render_jobs"?/, 'CREATE TABLE "render_jobs_new"');
  if (!rebuilt.startsWith('CREATE TABLE "render_jobs_new"')) throw new Error("render_jobs' CREATE statement was not recognised");
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(rebuilt).execute(trx);
      await sql`INSERT INTO render_jobs_new SELECT * FROM render_jobs`.execute(trx);
      await sql`DROP TABLE render_jobs`.execute(trx);
      await sql`ALTER TABLE render_jobs_new RENAME TO render_jobs`.execute(trx);
      for (const part of parts.rows) await sql.raw(part.sql).execute(trx);
      const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`rebuilding render_jobs would break ${broken.rows.length} references`);
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function up(db: Kysely<any>): Promise<void> {
  await replaceCheck(db, BEFORE, AFTER);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function down(db: Kysely<any>): Promise<void> {
  // The narrower check cannot hold an exterior's render: it is counted a redesign again.
  await sql`UPDATE render_jobs SET render_mode = 'redesign' WHERE render_mode IN ('sky', 'twilight', 'garden')`.execute(db);
  await replaceCheck(db, AFTER, BEFORE);
}
