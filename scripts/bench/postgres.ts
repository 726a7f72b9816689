/**
 * PostgreSQL for the benchmarks. `BENCH_DATABASE_URL=postgres://user@host:port/` uses that server:
 * the run creates its own `bench_<run>_*` databases there and drops them at the end. Unset, the run
 * starts a throw-away cluster from Debian's binaries as the tests' PostgreSQL lane does
 * (tests/helpers/postgres.ts), but with PostgreSQL's default durability (fsync and synchronous
 * commits on), as SQLite runs with synchronous=FULL: what a real server pays for a commit.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describeDatabase, openDatabase } from "../../src/server/db/client";
import { migrateToLatest } from "../../src/server/db/migrate";
import { processTreeCpuMs, statFields } from "./proc";
import { psql, startThrowawayCluster, type ThrowawayCluster } from "../../tests/helpers/postgres";

export interface BenchPostgres {
  /** The server's URL ending with '/'. */
  serverUrl: string;
  /** "throw-away cluster (PostgreSQL 15.18, fsync on)" or the server given. */
  description: string;
  /** A new database with every migration applied; its URL. */
  newDatabase(): Promise<string>;
  /**
   * CPU time (ms, user + system) the server's processes have used so far, exited backends included:
   * the postmaster and its children, read from /proc. Null when the server is not on this machine
   * (or not found); on a shared server it counts the other databases' work too.
   */
  cpuMs(): number | null;
  close(): Promise<void>;
}

/** The postmaster's pid: the parent of a backend of ours, when the server runs on this machine. */
async function findPostmaster(serverUrl: string): Promise<number | null> {
  const url = new URL(serverUrl);
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(url.hostname)) return null;
  const client = new pg.Client({ connectionString: `${serverUrl}postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    // Read while the backend lives (it ends with the connection).
    const fields = statFields(rows[0]!.pid);
    return fields ? Number(fields[1]) : null;
  } finally {
    await client.end();
  }
}

export async function startBenchPostgres(): Promise<BenchPostgres> {
  const given = process.env.BENCH_DATABASE_URL;
  let cluster: ThrowawayCluster | null = null;
  let serverUrl: string;
  if (given) {
    const url = new URL(given);
    url.pathname = "/";
    serverUrl = url.toString();
  } else {
    cluster = await startThrowawayCluster({ durable: true });
    serverUrl = cluster.serverUrl;
  }
  const run = randomBytes(4).toString("hex");
  const created: string[] = [];
  const version = psql(serverUrl, "SHOW server_version").trim();
  const fsync = psql(serverUrl, "SHOW fsync").trim();
  const synchronousCommit = psql(serverUrl, "SHOW synchronous_commit").trim();
  const postmaster = await findPostmaster(serverUrl);
  return {
    serverUrl,
    description: `${cluster ? "a throw-away cluster" : `the server at ${describeDatabase(serverUrl)}`} (PostgreSQL ${version}, fsync ${fsync}, synchronous_commit ${synchronousCommit})`,
    async newDatabase() {
      const name = `bench_${run}_${created.length + 1}`;
      psql(serverUrl, `CREATE DATABASE ${name}`);
      created.push(name);
      const db = openDatabase(serverUrl + name);
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      return serverUrl + name;
    },
    cpuMs: () => (postmaster === null ? null : processTreeCpuMs(postmaster)),
    async close() {
      if (cluster) {
        cluster.stop();
        return;
      }
      for (const name of created) psql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
