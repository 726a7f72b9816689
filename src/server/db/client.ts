import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Database } from "./schema";

export type AppDatabase = Kysely<Database>;

/**
 * Opens the SQLite file (creating its directory) with the settings every connection needs:
 * WAL so readers never block the writer, foreign keys enforced, a busy timeout instead of
 * immediate SQLITE_BUSY, and synchronous=FULL because a lost commit could lose credits.
 */
export function openDatabase(file: string): AppDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Owner-only: the database holds password hashes, sessions and mail. SQLite gives its -wal and
  // -shm files the database file's permissions; a file left world-readable by an older version is fixed.
  fs.closeSync(fs.openSync(file, "a", 0o600));
  fs.chmodSync(file, 0o600);
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = FULL");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
