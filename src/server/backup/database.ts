/**
 * The database part of a backup, one pair of functions per engine (decision 081): a consistent
 * snapshot into a file with its tables' row counts, and the restore of such a file with a check
 * that its tables hold those rows.
 *
 * SQLite: VACUUM INTO a file (decision 047). PostgreSQL: `pg_dump --format=custom` reading a
 * snapshot exported by a transaction that counts the rows in that same snapshot; restored with
 * `pg_restore` into an empty database. The connection reaches pg_dump and pg_restore through PG*
 * environment variables parsed from DATABASE_URL, never through their command line (`ps` shows it).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import pg from "pg";
import { isPostgresUrl } from "../db/client";

export type DatabaseEngine = "sqlite" | "postgres";

/** The archive entry holding each engine's database. */
export const DATABASE_ENTRIES = { sqlite: "app.db", postgres: "database.pgdump" } as const satisfies Record<DatabaseEngine, string>;

/** Kysely's migrations table: present in any database the app made. */
const MIGRATIONS_TABLE = "kysely_migration";

/** A backup or a restore refused or failed, with the reason (archive.ts re-exports it). */
export class BackupError extends Error {
  override name = "BackupError";
}

/** pg_dump or pg_restore is not installed where a backup of PostgreSQL looks for it. */
export class PostgresToolMissingError extends BackupError {
  constructor(readonly tool: string) {
    super(
      `${tool} was not found (looked in PATH and /usr/lib/postgresql/*/bin): backups of a PostgreSQL database need PostgreSQL's ` +
        `client programs, of the server's major version or newer. Install them (Debian/Ubuntu: apt-get install postgresql-client; ` +
        `Alpine: apk add postgresql-client) and try again`,
    );
  }
}

export interface DatabaseSnapshot {
  engine: DatabaseEngine;
  /** The snapshot's file. */
  file: string;
  /** Row counts per table, of the snapshot itself. */
  tables: Record<string, number>;
}

export const engineOf = (location: string): DatabaseEngine => (isPostgresUrl(location) ? "postgres" : "sqlite");

/** Row counts of every table of a SQLite file. */
export function countSqliteTables(databaseFile: string): Record<string, number> {
  const sqlite = new SqliteDatabase(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(tables.map((name) => [name, sqlite.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number]));
  } finally {
    sqlite.close();
  }
}

/**
 * A consistent copy of the database `location` names (a SQLite file or a postgres:// URL) into
 * `work`, under the engine's entry name.
 */
export async function snapshotDatabase(location: string, work: string, toolDirs?: string[]): Promise<DatabaseSnapshot> {
  const engine = engineOf(location);
  const file = path.join(work, DATABASE_ENTRIES[engine]);
  if (engine === "postgres") return { engine, file, tables: await dumpPostgres(location, file, toolDirs) };
  snapshotSqlite(location, file);
  return { engine, file, tables: countSqliteTables(file) };
}

/**
 * VACUUM INTO reads one snapshot (WAL lets the server keep writing meanwhile) and writes a compact
 * file. A plain copy of app.db would miss what still sits in app.db-wal.
 */
function snapshotSqlite(databaseFile: string, target: string): void {
  const sqlite = new SqliteDatabase(databaseFile, { fileMustExist: true });
  try {
    sqlite.pragma("busy_timeout = 10000");
    sqlite.prepare("VACUUM INTO ?").run(target);
  } finally {
    sqlite.close();
  }
}

/** The staged SQLite file passes SQLite's integrity check and holds the rows the manifest counts. */
export function verifySqlite(databaseFile: string, expected: Record<string, number>): void {
  const sqlite = new SqliteDatabase(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const integrity = sqlite.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new BackupError(`the backed-up database fails SQLite's integrity check (${String(integrity)})`);
  } finally {
    sqlite.close();
  }
  compareCounts(countSqliteTables(databaseFile), expected);
}

function compareCounts(tables: Record<string, number>, expected: Record<string, number>): void {
  for (const [table, rows] of Object.entries(expected)) {
    if (tables[table] !== rows) throw new BackupError(`table ${table} has ${tables[table] ?? 0} rows, the manifest says ${rows}`);
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

/** The Debian/Ubuntu folders of PostgreSQL's programs, newest version first. */
function debianBinDirs(): string[] {
  const root = "/usr/lib/postgresql";
  let versions: string[];
  try {
    versions = fs.readdirSync(root);
  } catch {
    return [];
  }
  return versions
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))
    .map((name) => path.join(root, name, "bin"));
}

/** Where pg_dump and pg_restore are looked for: PATH, then Debian's versioned folders. */
export function defaultToolDirs(): string[] {
  return [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), ...debianBinDirs()];
}

/** The path of a PostgreSQL client program, or null when none is installed in `dirs`. */
export function findPostgresTool(tool: "pg_dump" | "pg_restore", dirs = defaultToolDirs()): string | null {
  for (const dir of dirs) {
    const candidate = path.join(dir, tool);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function requireTool(tool: "pg_dump" | "pg_restore", dirs?: string[]): string {
  const found = findPostgresTool(tool, dirs);
  if (!found) throw new PostgresToolMissingError(tool);
  return found;
}

/** URL query parameters libpq reads from the environment as well. */
const QUERY_VARIABLES: Record<string, string> = {
  sslmode: "PGSSLMODE",
  sslrootcert: "PGSSLROOTCERT",
  sslcert: "PGSSLCERT",
  sslkey: "PGSSLKEY",
  host: "PGHOST",
  port: "PGPORT",
  user: "PGUSER",
  password: "PGPASSWORD",
  application_name: "PGAPPNAME",
  connect_timeout: "PGCONNECT_TIMEOUT",
  options: "PGOPTIONS",
};

/**
 * The connection of a postgres:// URL as libpq's environment variables (PGHOST, PGPORT, PGUSER,
 * PGPASSWORD, PGDATABASE, …), so that no password appears on a child's command line. Other PG*
 * variables of this process are left out, so they cannot redirect the child elsewhere.
 */
export function postgresEnvironment(url: string): NodeJS.ProcessEnv {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("PG")));
  if (parsed.hostname) env.PGHOST = decodeURIComponent(parsed.hostname.replace(/^\[(.*)\]$/, "$1"));
  if (parsed.port) env.PGPORT = parsed.port;
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (database) env.PGDATABASE = database;
  for (const [name, value] of parsed.searchParams) {
    const variable = QUERY_VARIABLES[name];
    if (variable) env[variable] = value;
  }
  return env;
}

/** The database name a URL connects to (as libpq defaults it: the user's name). */
function databaseName(url: string): string {
  const env = postgresEnvironment(url);
  return env.PGDATABASE ?? env.PGUSER ?? "postgres";
}

/** Runs a PostgreSQL program; its stderr becomes the error when it fails. */
function runTool(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 16_384) stderr += chunk.toString();
    });
    child.on("error", (error) => reject(new BackupError(`${path.basename(program)} could not run (${error.message})`)));
    child.on("close", (code, signal) => {
      if (code === 0) return resolve();
      const reason = stderr.trim().split("\n").slice(0, 6).join("; ") || `exit ${code ?? signal}`;
      reject(new BackupError(`${path.basename(program)} failed: ${reason}`));
    });
  });
}

/** Every table of the database's own schemas, as schema-qualified names (just the name in public). */
async function postgresTables(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
        AND table_schema NOT LIKE 'pg\\_%' ORDER BY table_schema, table_name`,
  );
  return rows.map((row) => (row.schema === "public" ? row.name : `${row.schema}.${row.name}`));
}

const quoteName = (name: string) => name.split(".").map((part) => `"${part.replace(/"/g, '""')}"`);

async function countPostgresTables(client: pg.ClientBase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await postgresTables(client)) {
    const { rows } = await client.query<{ rows: string }>(`SELECT count(*) AS rows FROM ${quoteName(table).join(".")}`);
    counts[table] = Number(rows[0]!.rows);
  }
  return counts;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`cannot connect to the PostgreSQL database ${databaseName(url)} (${(error as Error).message})`);
  }
  return client;
}

/**
 * pg_dump of the database into `target`, and the row counts of the same snapshot: a read-only
 * repeatable-read transaction exports its snapshot, counts the rows in it, and stays open while
 * pg_dump reads that snapshot (--snapshot). The server keeps writing meanwhile.
 */
async function dumpPostgres(url: string, target: string, toolDirs?: string[]): Promise<Record<string, number>> {
  const pgDump = requireTool("pg_dump", toolDirs);
  const client = await connect(url);
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows } = await client.query<{ snapshot: string }>("SELECT pg_export_snapshot() AS snapshot");
    const tables = await countPostgresTables(client);
    await runTool(pgDump, ["--format=custom", `--snapshot=${rows[0]!.snapshot}`, `--file=${target}`], postgresEnvironment(url));
    await client.query("COMMIT");
    return tables;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Refuses a database that holds any table: a restore never overwrites a studio's data. */
export async function ensureEmptyPostgres(url: string): Promise<void> {
  const client = await connect(url);
  try {
    const tables = await postgresTables(client);
    if (tables.length > 0) {
      throw new BackupError(
        `the PostgreSQL database ${databaseName(url)} is not empty (it has ${tables.length} tables, such as ${tables[0]}): ` +
          "restore into an empty database (a restore never overwrites a studio's data; createdb a new one)",
      );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * pg_restore of a staged dump into the empty database, in one transaction (a failure leaves it
 * empty), without the original owner and grants (the restoring role owns everything); then the
 * restored tables must hold the rows the manifest counts, migrations table included.
 */
export async function restorePostgres(url: string, dump: string, expected: Record<string, number>, toolDirs?: string[]): Promise<void> {
  const pgRestore = requireTool("pg_restore", toolDirs);
  await ensureEmptyPostgres(url);
  await runTool(
    pgRestore,
    ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${databaseName(url)}`, dump],
    postgresEnvironment(url),
  );
  const client = await connect(url);
  try {
    const tables = await countPostgresTables(client);
    if (!(MIGRATIONS_TABLE in tables)) {
      throw new BackupError(`the restored database has no ${MIGRATIONS_TABLE} table: the backup does not hold a studio's database`);
    }
    try {
      compareCounts(tables, expected);
    } catch (error) {
      throw new BackupError(
        `${(error as Error).message}; the database ${databaseName(url)} holds what was restored: empty it before trying again`,
      );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
