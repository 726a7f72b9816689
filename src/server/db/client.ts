import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresAdapter, PostgresDialect, type Transaction } from "kysely";
import pg from "pg";
import { CachingSqliteDialect } from "./driver";
import type { Database } from "./schema";

export type AppDatabase = Kysely<Database>;

/** Which database engine a handle (or a transaction of it) talks to. */
export type DatabaseDialect = "sqlite" | "postgres";

/** A PostgreSQL connection string (`DATABASE_URL`); anything else names a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export function dialectOf(db: Kysely<Database> | Transaction<Database>): DatabaseDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

export interface OpenOptions {
  /** Called with each statement's SQL before it runs (tests count statements with it). */
  onStatement?: (sql: string) => void;
  /** PostgreSQL only: connections kept in the pool (default 10). */
  poolSize?: number;
}

/** Opens the database `location` names: a `postgres://` URL, or a SQLite file (the embedded default). */
export function openDatabase(location: string, options: OpenOptions = {}): AppDatabase {
  return isPostgresUrl(location) ? openPostgres(location, options) : openSqlite(location, options);
}

/**
 * Opens the SQLite file (creating its directory) with the settings every connection needs:
 * WAL so readers never block the writer, foreign keys enforced, a busy timeout instead of
 * immediate SQLITE_BUSY, and synchronous=FULL because a lost commit could lose credits.
 */
function openSqlite(file: string, options: OpenOptions): AppDatabase {
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

/**
 * Whole numbers come back as numbers, as they do from SQLite: millisecond times, byte counts and
 * `count(*)` are int8 and sums are numeric, which `pg` would return as strings. Every value the
 * app stores is far below 2^53; a larger one is a bug, and it fails loudly instead of rounding.
 */
function wholeNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`database value out of the safe integer range: ${text}`);
  return value;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID) return wholeNumber;
    if (oid === NUMERIC_OID) return Number;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function openPostgres(url: string, options: OpenOptions): AppDatabase {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types });
  // An idle connection the server dropped (a restart, a failover) is an error on the pool, not a crash.
  pool.on("error", () => {});
  const onStatement = options.onStatement;
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: onStatement
      ? (event) => {
          if (event.level === "query") onStatement(event.query.sql);
        }
      : undefined,
  });
}

/** Where the database is, for logs and the command line: the file, or the URL without its password. */
export function describeDatabase(location: string): string {
  if (!isPostgresUrl(location)) return location;
  const url = new URL(location);
  if (url.password) url.password = "***";
  return url.toString();
}
