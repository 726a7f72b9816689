import { promises as fs } from "node:fs";
import { sql } from "kysely";
import { dialectOf, type AppDatabase } from "./client";

async function fileSize(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return 0;
  }
}

/**
 * The database's size in bytes: SQLite's file and its write-ahead log, or what PostgreSQL reports
 * for the database (tables, indexes and their overhead).
 */
export async function databaseBytes(db: AppDatabase, sqliteFile: string): Promise<number> {
  if (dialectOf(db) === "postgres") {
    const row = await sql<{ bytes: number }>`SELECT pg_database_size(current_database()) AS bytes`.execute(db);
    return Number(row.rows[0]?.bytes ?? 0);
  }
  return (await fileSize(sqliteFile)) + (await fileSize(`${sqliteFile}-wal`));
}
