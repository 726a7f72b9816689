/**
 * PostgreSQL for the tests' PostgreSQL lane (decision 079).
 *
 * `TEST_DATABASE_URL=postgres://user@host:port/` uses that server; `TEST_DATABASE_URL=throwaway`
 * starts a throw-away cluster from Debian's PostgreSQL binaries (initdb, pg_ctl) in a temporary
 * folder, on a free loopback port, and removes it at the end. Each test gets its own database,
 * copied from a migrated template with CREATE DATABASE … TEMPLATE (tens of milliseconds).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { freePort } from "../../scripts/lib/free-port";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

/** The lane is on when TEST_DATABASE_URL is set (a server's URL, or "throwaway"). */
export function postgresLaneRequested(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL);
}

/**
 * Names of one run's databases: a run's template and its tests' copies carry the run's id, so runs
 * sharing one server (two checkouts, a developer and CI) never drop each other's databases.
 */
export function runDatabaseNames(runId: string) {
  return { template: `rc_template_${runId}`, prefix: `rc_test_${runId}_` };
}

/** The folder holding Debian's PostgreSQL binaries (the newest version installed), or null. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0]!, "bin") : null;
}

/** initdb and pg_ctl refuse to run as root: as root, they run as the postgres user. */
function runAsPostgres(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" });
  else execFileSync(command, args, { stdio: "pipe" });
}

export interface ThrowawayCluster {
  /** The server's URL, ending with '/' (append a database name). */
  serverUrl: string;
  stop(): void;
}

/**
 * A new cluster for this run. fsync and synchronous commits are off: the data is thrown away, and a
 * test measures correctness, not durability (the crash tests kill processes, not the machine).
 * `durable: true` keeps PostgreSQL's defaults instead (the benchmarks: what a real server pays).
 */
export async function startThrowawayCluster(options: { durable?: boolean } = {}): Promise<ThrowawayCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("TEST_DATABASE_URL=throwaway needs PostgreSQL's server binaries (apt-get install -y postgresql)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "roomcanvas-pg-"));
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  const data = path.join(dir, "data");
  runAsPostgres(path.join(bin, "initdb"), ["-D", data, "--auth=trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8"]);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=400",
    ...(options.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ].join(" ");
  runAsPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-o", settings, "-l", path.join(dir, "server.log"), "-w", "start"]);
  return {
    serverUrl: `postgres://postgres@127.0.0.1:${port}/`,
    stop() {
      try {
        runAsPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs one statement with psql against the server's `postgres` database (synchronous: makeTestEnv is). */
export function psql(serverUrl: string, statement: string, database = "postgres"): string {
  return execFileSync("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", serverUrl + database, "-c", statement], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** A new database for one test, copied from the run's migrated template; returns its URL. */
export function createTestDatabase(serverUrl: string, runId: string): string {
  const { template, prefix } = runDatabaseNames(runId);
  const name = prefix + randomBytes(6).toString("hex");
  psql(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return serverUrl + name;
}

/** A new empty database (for tests that migrate themselves); returns its URL. */
export function createEmptyDatabase(serverUrl: string, runId: string): string {
  const name = runDatabaseNames(runId).prefix + randomBytes(6).toString("hex");
  psql(serverUrl, `CREATE DATABASE ${name}`);
  return serverUrl + name;
}

/** Drops the run's template and test databases (on a server that is not thrown away). */
export function dropTestDatabases(serverUrl: string, runId: string): void {
  const { template, prefix } = runDatabaseNames(runId);
  const names = psql(serverUrl, `SELECT datname FROM pg_database WHERE datname LIKE '${prefix}%'`)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  for (const name of [...names, template]) psql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
