/**
 * `npm run bench` (scale): the studio on PostgreSQL and past one process (issue 29).
 *   1. api: requests per second of a session-checked tRPC query (account.profile, as api.ts) on one
 *      app in this process, on a SQLite file and on PostgreSQL, both running at once and loaded in
 *      turn from a separate process (load.ts), three rounds, medians; latency p50/p99; the server's
 *      CPU per request, and PostgreSQL's own (its processes, from /proc).
 * PostgreSQL: a throw-away cluster, or BENCH_DATABASE_URL's server (postgres.ts).
 * BENCH_PARTS=api chooses parts (default: all). Prints a table, then one JSON line. A benchmark, not
 * a test: it exits 0 whatever it measures.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { runLoad, type LoadResult } from "./http-load";
import { startBenchPostgres, type BenchPostgres } from "./postgres";
import { log, median, ms, progress, round, table } from "./stats";
import { signedInUser, startBenchApp, type BenchApp } from "./studio";

const PARTS = new Set((process.env.BENCH_PARTS ?? "api").split(",").map((part) => part.trim()));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
/** DATABASE_URL needs it (every instance must decrypt the others' secrets); one per run. */
const APP_SECRET = randomBytes(32).toString("base64");

interface ApiFigures {
  database: "SQLite" | "PostgreSQL";
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The app's process (this one), µs per request. */
  appCpuMicros: number;
  /** The database server's processes, µs per request (PostgreSQL only; null when not measurable). */
  databaseCpuMicros: number | null;
  failed: number;
  rounds: number[];
}

/** account.profile on SQLite and on PostgreSQL, the two apps up at once and loaded in turn (a busy neighbour slows both). */
async function apiOnBoth(postgres: BenchPostgres): Promise<ApiFigures[]> {
  progress("api: starting the app on SQLite and on PostgreSQL");
  const apps: Array<{ database: ApiFigures["database"]; bench: BenchApp }> = [];
  try {
    apps.push({ database: "SQLite", bench: await startBenchApp({ startWorker: false }) });
    const databaseUrl = await postgres.newDatabase();
    apps.push({
      database: "PostgreSQL",
      bench: await startBenchApp({ startWorker: false, env: { DATABASE_URL: databaseUrl, APP_SECRET } }),
    });
    const targets = [];
    for (const { database, bench } of apps) {
      const user = await signedInUser(bench, 10);
      const cookie = user.jar.header();
      const url = `${bench.url}/trpc/account.profile`;
      const check = await fetch(url, { headers: { cookie } });
      if (check.status !== 200) throw new Error(`account.profile on ${database} answered ${check.status}`);
      targets.push({ database, url, cookie, results: [] as Array<LoadResult & { databaseCpuMs: number | null }> });
    }
    progress(`api: load of ${CONNECTIONS} connections, ${SECONDS} s each, a warm-up and ${ROUNDS} rounds`);
    for (const target of targets) await runLoad(target.url, target.cookie, { connections: CONNECTIONS, seconds: SECONDS });
    for (let index = 0; index < ROUNDS; index++) {
      for (const target of targets) {
        const databaseBefore = target.database === "PostgreSQL" ? postgres.cpuMs() : null;
        const result = await runLoad(target.url, target.cookie, { connections: CONNECTIONS, seconds: SECONDS });
        const databaseAfter = databaseBefore === null ? null : postgres.cpuMs();
        target.results.push({
          ...result,
          databaseCpuMs: databaseAfter === null || databaseBefore === null ? null : databaseAfter - databaseBefore,
        });
      }
    }
    return targets.map(({ database, results }) => ({
      database,
      perSecond: median(results.map((result) => result.perSecond)),
      p50Ms: median(results.map((result) => result.p50Ms)),
      p99Ms: median(results.map((result) => result.p99Ms)),
      appCpuMicros: median(results.map((result) => result.cpuMicros)),
      databaseCpuMicros:
        database === "PostgreSQL" && results.every((result) => result.databaseCpuMs !== null)
          ? median(results.map((result) => (result.databaseCpuMs! * 1000) / result.completed))
          : null,
      failed: results.reduce((sum, result) => sum + result.failed, 0),
      rounds: results.map((result) => round(result.perSecond, 0)),
    }));
  } finally {
    for (const { bench } of apps) await bench.close();
  }
}

async function main() {
  const began = performance.now();
  const machine = {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? "unknown CPU",
    loadAverage: round(os.loadavg()[0]!, 2),
    node: process.version,
  };
  progress("starting PostgreSQL");
  const postgres = await startBenchPostgres();
  const report: { api?: ApiFigures[] } = {};
  try {
    if (PARTS.has("api")) report.api = await apiOnBoth(postgres);
  } finally {
    await postgres.close();
  }

  const rows: Array<[string, string, string]> = [];
  for (const figures of report.api ?? []) {
    const database = figures.databaseCpuMicros === null ? "" : `, PostgreSQL's processes ${Math.round(figures.databaseCpuMicros)} µs`;
    rows.push(
      [
        `account.profile req/s on ${figures.database} (${CONNECTIONS} connections)`,
        String(Math.round(figures.perSecond)),
        `median of ${ROUNDS} rounds (${figures.rounds.join(", ")})${figures.failed ? `, ${figures.failed} failed` : ""}`,
      ],
      [
        `  latency p50 / p99`,
        `${ms(figures.p50Ms, 2)} / ${ms(figures.p99Ms, 1)}`,
        `CPU per request: app ${Math.round(figures.appCpuMicros)} µs${database}`,
      ],
    );
  }
  const totalSeconds = (performance.now() - began) / 1000;
  log(
    `RoomCanvas scale benchmark: ${machine.cores} cores (${machine.cpu}), load ${machine.loadAverage} at start, Node ${machine.node}; ${postgres.description}`,
  );
  log();
  log(table(rows));
  log();
  log(`(${totalSeconds.toFixed(1)} s in all)`);
  log(
    JSON.stringify({
      bench: "scale",
      machine,
      postgres: postgres.description,
      api: report.api?.map((figures) => ({
        ...figures,
        perSecond: round(figures.perSecond, 0),
        p50Ms: round(figures.p50Ms, 2),
        p99Ms: round(figures.p99Ms, 2),
        appCpuMicros: round(figures.appCpuMicros, 0),
        databaseCpuMicros: figures.databaseCpuMicros === null ? null : round(figures.databaseCpuMicros, 0),
      })),
      connections: CONNECTIONS,
      seconds: SECONDS,
      totalSeconds: round(totalSeconds, 1),
    }),
  );
}

await main();
