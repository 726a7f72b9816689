import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely } from "kysely";
import { CachingSqliteDialect } from "./driver";
import type { Database } from "./schema";

export type AppDatabase = Kysely<Database>;

/**
 * Opens the SQLite file (creating its directory) with the settings every connection needs:
 * WAL so readers never block the writer, foreign keys enforced, a busy timeout instead of
 * immediate SQLITE_BUSY, and synchronous=FULL because a lost commit could lose credits.
 */
export function openDatabase(file: string, options: { onStatement?: (sql: string) => void } = {}): AppDatabase {
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
  // Prepared statements are kept and the one connection is handed to one waiter at a time (decision 044);
  // the hot reads may run at once when the connection is free (decision 046).
  const dialect = new CachingSqliteDialect({ database: sqlite, onStatement: options.onStatement });
  const db = new Kysely<Database>({ dialect });
  dialect.serve(db);
  return db;
}
