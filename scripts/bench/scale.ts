/**
 * `npm run bench` (scale): the studio on PostgreSQL and past one process (issue 29).
 *   1. api: requests per second of a session-checked tRPC query (account.profile, as api.ts) on one
 *      app in this process, on a SQLite file and on PostgreSQL, both running at once and loaded in
 *      turn from a separate process (load.ts), three rounds, medians; latency p50/p99; the server's
 *      CPU per request, and PostgreSQL's own (its processes, from /proc).
 *   2. events: two instances in processes of their own (scripts/lib/instances.ts, the production
 *      bundle) on one PostgreSQL database: A (ROLE=all) takes and renders 20 jobs, 1,000 subscribers of
 *      the owner's events (a separate process, sse-clients.ts) are connected to B (ROLE=web). The delay
 *      of each delivery runs from the event's time as written (render_events.created_at, the writer's
 *      clock, ms) to its receipt. The same with the subscribers on A, in turn, for reference.
 *   3. workers: renders per minute (60 renders, first submit → last success) with one and with two
 *      worker processes (ROLE=worker) on one PostgreSQL database, the jobs created through a web
 *      instance (ROLE=web); the engine is the fake OpenAI API (tests/helpers/fake-openai.ts) in this
 *      process, answering at once, reached over its HTTP protocol (RENDER_PROVIDER=openai). Each
 *      process's CPU per render (from /proc).
 * Every process shares this machine's cores with PostgreSQL and the benchmark itself (its load
 * process, subscribers and fake engine). PostgreSQL: a throw-away cluster, or BENCH_DATABASE_URL's
 * server (postgres.ts). BENCH_PARTS=api,events,workers chooses parts (default: all); BENCH_ROUNDS the
 * rounds of parts 2 and 3 (default 2). Prints a table, then one JSON line. A benchmark, not a test: it
 * exits 0 whatever it measures.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { startFakeOpenAi, type FakeOpenAi } from "../../tests/helpers/fake-openai";
import { postgresBinDir } from "../../tests/helpers/postgres";
import { ensureServerBundle, startInstance, type RunningInstance } from "../lib/instances";
import { runLoad, type LoadResult } from "./http-load";
import { makeRoomPhoto } from "./photo";
import { startBenchPostgres, type BenchPostgres } from "./postgres";
import { processCpuMs } from "./proc";
import { Clients, type Subscription } from "./sse-clients";
import { log, median, ms, percentile, progress, round, table } from "./stats";
import { signedInUser, signedInUserAt, startBenchApp, submit, uploadPhoto, type BenchApp, type StudioClient } from "./studio";

const PARTS = new Set((process.env.BENCH_PARTS ?? "api,events,workers").split(",").map((part) => part.trim()));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = 3;
/** Rounds of the events and workers parts, each configuration once per round, in turn. */
const PROCESS_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1_000);
const EVENT_JOBS = 20;
const THROUGHPUT_JOBS = 60;
const WARMUP_JOBS = 4;
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

// ————— parts 2 and 3: instances in processes of their own —————

/** One PostgreSQL database, one DATA_DIR every process shares (the local file store), the fake engine, and the instances started on them. */
interface Studio {
  db: AppDatabase;
  fake: FakeOpenAi;
  start(name: string, role: "web" | "worker" | "all"): Promise<RunningInstance>;
  close(): Promise<void>;
}

async function startStudio(postgres: BenchPostgres): Promise<Studio> {
  await ensureServerBundle();
  const databaseUrl = await postgres.newDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "roomcanvas-bench-scale-"));
  const fake = await startFakeOpenAi();
  const db = openDatabase(databaseUrl, { poolSize: 2 });
  const running: RunningInstance[] = [];
  const env = {
    DATABASE_URL: databaseUrl,
    APP_SECRET,
    DATA_DIR: dataDir,
    RENDER_PROVIDER: "openai",
    OPENAI_API_KEY: fake.apiKey,
    OPENAI_API_URL: fake.url,
    LOG_LEVEL: "warn",
    // As behind the reverse proxy of README's Scaling out: the subscribers all come from one address, a
    // trusted proxy's connections are not capped per address (HTTP_MAX_CONNECTIONS_PER_ADDRESS, 64).
    TRUST_PROXY: "loopback",
    // High enough for every subscription of the benchmark (the defaults are 20 per owner, 2,000 in all).
    EVENT_STREAMS_PER_OWNER: "5000",
    EVENT_STREAMS_TOTAL: "5000",
  };
  return {
    db,
    fake,
    async start(name, role) {
      const instance = await startInstance({ name, role, env });
      running.push(instance);
      return instance;
    },
    async close() {
      await Promise.all(running.map((instance) => instance.stop()));
      await db.destroy();
      await fake.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** The fake engine records every request with its picture, for tests; nobody reads them here. */
const forgetRequests = (fake: FakeOpenAi) => fake.requests.splice(0);

/**
 * Waits, reading the database, until every job has ended; throws if one did not succeed. Returns the
 * latest finished_at (the workers' clock, ms). `scored`: also until each has its structure score
 * (recorded just after it succeeded), so that no work spills into what is measured next.
 */
async function jobsDone(db: AppDatabase, jobIds: readonly string[], options: { scored?: boolean; timeoutMs?: number } = {}) {
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  for (;;) {
    const rows = await db
      .selectFrom("render_jobs")
      .select(["id", "status", "finished_at", "structure_score"])
      .where("id", "in", jobIds)
      .execute();
    const failed = rows.find((row) => row.status === "failed" || row.status === "canceled");
    if (failed) throw new Error(`render ${failed.id} ended ${failed.status}`);
    const done = rows.filter((row) => row.status === "succeeded" && (!options.scored || row.structure_score !== null));
    if (done.length === jobIds.length) return Math.max(...rows.map((row) => row.finished_at ?? 0));
    if (Date.now() > deadline) throw new Error(`${jobIds.length - done.length} of ${jobIds.length} renders did not finish in time`);
    await sleep(25);
  }
}

async function lastEventId(db: AppDatabase): Promise<number> {
  const last = await db
    .selectFrom("render_events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(last?.id ?? 0);
}

interface EventRun {
  /** Where the subscribers were: "B (web), renders on A" or "A, where the renders run". */
  where: "across" | "same";
  events: number;
  deliveries: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
}

/** 20 renders on A, watched by SUBSCRIBERS streams of the owner on `target`: every delivery's delay from the event's written time. */
async function watchedRenders(
  studio: Studio,
  target: RunningInstance,
  user: StudioClient & { userId: string },
  upload: { projectId: string; imageId: string },
): Promise<Omit<EventRun, "where">> {
  const clients = new Clients();
  try {
    const subscription: Subscription = { cookie: user.jar.header(), input: { lastEventId: String(await lastEventId(studio.db)) } };
    await clients.subscribe(target.url, Array<Subscription>(SUBSCRIBERS).fill(subscription));
    // The streams are live; a couple of renders first, whose events are not counted.
    await jobsDone(studio.db, await submit(user, upload, 2, 2), { scored: true });
    const after = await lastEventId(studio.db);
    await jobsDone(studio.db, await submit(user, upload, EVENT_JOBS, 4), { scored: true });
    forgetRequests(studio.fake);
    const rows = await studio.db
      .selectFrom("render_events")
      .select(["id", "created_at", "type"])
      .where("owner", "=", `u:${user.userId}`)
      .where("id", ">", after)
      .execute();
    const written = new Map(rows.map((row) => [Number(row.id), Number(row.created_at)]));
    const receipts = await clients.collect([...written.keys()], written.size * SUBSCRIBERS, 60_000);
    const delays: number[] = [];
    for (const [index, id] of receipts.ids.entries()) {
      const at = written.get(id);
      if (at !== undefined) delays.push(receipts.times[index]! - at);
    }
    if (process.env.BENCH_DEBUG) {
      const types = new Map(rows.map((row) => [Number(row.id), row.type]));
      const byType = new Map<string, number[]>();
      for (const [index, id] of receipts.ids.entries()) {
        const at = written.get(id);
        if (at === undefined) continue;
        const type = types.get(id)!;
        byType.set(type, [...(byType.get(type) ?? []), receipts.times[index]! - at]);
      }
      for (const [type, values] of byType)
        progress(
          `${type}: ${values.length / SUBSCRIBERS} events, p50 ${percentile(values, 50).toFixed(1)} p99 ${percentile(values, 99).toFixed(1)}`,
        );
    }
    return {
      events: written.size,
      deliveries: delays.length,
      expected: written.size * SUBSCRIBERS,
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: delays.reduce((most, value) => Math.max(most, value), -Infinity),
    };
  } finally {
    await clients.close();
  }
}

async function eventsAcrossInstances(postgres: BenchPostgres, photo: Buffer): Promise<EventRun[]> {
  progress("events: starting instances A (ROLE=all) and B (ROLE=web) on one PostgreSQL database");
  const studio = await startStudio(postgres);
  try {
    const [a, b] = [await studio.start("a", "all"), await studio.start("b", "web")];
    const user = await signedInUserAt(a.url, studio.db, 100_000);
    const upload = await uploadPhoto(a, user, photo);
    progress(`events: warm-up, ${WARMUP_JOBS} renders`);
    await jobsDone(studio.db, await submit(user, upload, WARMUP_JOBS, 4), { scored: true });
    const runs: EventRun[] = [];
    for (let index = 0; index < PROCESS_ROUNDS; index++) {
      for (const [where, target] of [
        ["across", b],
        ["same", a],
      ] as const) {
        progress(`events: ${EVENT_JOBS} renders on A, ${SUBSCRIBERS} subscribers on ${target === b ? "B" : "A"} (round ${index + 1})`);
        runs.push({ where, ...(await watchedRenders(studio, target, user, upload)) });
      }
    }
    return runs;
  } finally {
    await studio.close();
  }
}

interface ThroughputRun {
  workers: number;
  wallMs: number;
  perMinute: number;
  /** CPU per render, ms: the workers, the web instance, PostgreSQL, this process (the fake engine, the client, the polling). */
  cpu: { workers: number; web: number; database: number | null; bench: number };
}

async function workerThroughput(postgres: BenchPostgres, photo: Buffer): Promise<ThroughputRun[]> {
  progress("workers: starting a web instance and a worker on one PostgreSQL database");
  const studio = await startStudio(postgres);
  try {
    const web = await studio.start("web", "web");
    const user = await signedInUserAt(web.url, studio.db, 100_000);
    const upload = await uploadPhoto(web, user, photo);
    const workers = [await studio.start("worker-1", "worker")];
    const warmUp = async () => jobsDone(studio.db, await submit(user, upload, WARMUP_JOBS, 2), { scored: true });
    await warmUp();
    const runs: ThroughputRun[] = [];
    for (let index = 0; index < PROCESS_ROUNDS; index++) {
      for (const count of [1, 2]) {
        while (workers.length > count) await workers.pop()!.stop();
        if (workers.length < count) {
          workers.push(await studio.start(`worker-${index + 2}`, "worker"));
          await warmUp();
        }
        progress(`workers: ${THROUGHPUT_JOBS} renders, ${count} worker process${count > 1 ? "es" : ""} (round ${index + 1})`);
        const cpuOf = () => ({
          workers: workers.reduce((sum, worker) => sum + (processCpuMs(worker.pid) ?? 0), 0),
          web: processCpuMs(web.pid) ?? 0,
          database: postgres.cpuMs(),
          bench: (({ user: used, system }) => (used + system) / 1000)(process.cpuUsage()),
        });
        const before = cpuOf();
        const start = Date.now();
        const jobIds = await submit(user, upload, THROUGHPUT_JOBS);
        const end = await jobsDone(studio.db, jobIds);
        await jobsDone(studio.db, jobIds, { scored: true });
        const after = cpuOf();
        forgetRequests(studio.fake);
        const perRender = (key: "workers" | "web" | "bench") => (after[key] - before[key]) / jobIds.length;
        const wallMs = end - start;
        runs.push({
          workers: count,
          wallMs,
          perMinute: (jobIds.length / wallMs) * 60_000,
          cpu: {
            workers: perRender("workers"),
            web: perRender("web"),
            database: after.database === null || before.database === null ? null : (after.database - before.database) / jobIds.length,
            bench: perRender("bench"),
          },
        });
      }
    }
    return runs;
  } finally {
    await studio.close();
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
  if (!process.env.BENCH_DATABASE_URL && !postgresBinDir()) {
    log("RoomCanvas scale benchmark skipped: no PostgreSQL server binaries (apt-get install -y postgresql), and no BENCH_DATABASE_URL");
    return;
  }
  progress("starting PostgreSQL");
  const postgres = await startBenchPostgres();
  const report: { api?: ApiFigures[]; events?: EventRun[]; workers?: ThroughputRun[] } = {};
  try {
    if (PARTS.has("api")) report.api = await apiOnBoth(postgres);
    if (PARTS.has("events") || PARTS.has("workers")) {
      progress("making the 12 MP photo");
      const photo = await makeRoomPhoto();
      if (PARTS.has("events")) report.events = await eventsAcrossInstances(postgres, photo);
      if (PARTS.has("workers")) report.workers = await workerThroughput(postgres, photo);
    }
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
  for (const where of ["across", "same"] as const) {
    const runs = (report.events ?? []).filter((run) => run.where === where);
    if (runs.length === 0) continue;
    const label = where === "across" ? "on instance B, renders on A" : "on A, where the renders run";
    const all = (pick: (run: EventRun) => number, digits = 1) => runs.map((run) => pick(run).toFixed(digits)).join(", ");
    rows.push(
      [
        `event delay p50 / p99, ${SUBSCRIBERS.toLocaleString("en-US")} subscribers ${label}`,
        `${ms(median(runs.map((run) => run.p50)))} / ${ms(median(runs.map((run) => run.p99)))}`,
        `medians of ${runs.length} runs: p50 ${all((run) => run.p50)}; p99 ${all((run) => run.p99)}`,
      ],
      [
        `  max; events × subscribers`,
        ms(Math.max(...runs.map((run) => run.max)), 0),
        runs
          .map(
            (run) => `${run.events} events: ${run.deliveries.toLocaleString("en-US")} of ${run.expected.toLocaleString("en-US")} delivered`,
          )
          .join("; "),
      ],
    );
  }
  for (const count of [1, 2]) {
    const runs = (report.workers ?? []).filter((run) => run.workers === count);
    if (runs.length === 0) continue;
    const cpu = (pick: (run: ThroughputRun) => number | null) => {
      const values = runs.map(pick).filter((value): value is number => value !== null);
      return values.length ? `${Math.round(median(values))} ms` : "n/a";
    };
    rows.push(
      [
        `renders/min, ${count} worker process${count > 1 ? "es" : ""} (${THROUGHPUT_JOBS} renders)`,
        `${Math.round(median(runs.map((run) => run.perMinute)))}/min`,
        `median of ${runs.length} runs: ${runs.map((run) => Math.round(run.perMinute)).join(", ")}`,
      ],
      [
        `  CPU per render`,
        cpu((run) => run.cpu.workers),
        `worker${count > 1 ? "s" : ""}; web ${cpu((run) => run.cpu.web)}, PostgreSQL ${cpu((run) => run.cpu.database)}, fake engine and client ${cpu((run) => run.cpu.bench)}`,
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
      events: report.events?.map((run) => ({ ...run, p50: round(run.p50, 1), p99: round(run.p99, 1), max: round(run.max, 1) })),
      workers: report.workers?.map((run) => ({
        workers: run.workers,
        wallMs: run.wallMs,
        perMinute: round(run.perMinute, 0),
        cpuPerRenderMs: Object.fromEntries(Object.entries(run.cpu).map(([key, value]) => [key, value === null ? null : round(value, 0)])),
      })),
      connections: CONNECTIONS,
      seconds: SECONDS,
      subscribers: SUBSCRIBERS,
      totalSeconds: round(totalSeconds, 1),
    }),
  );
}

await main();
