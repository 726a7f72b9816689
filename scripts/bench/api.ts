/**
 * `npm run bench` (fourth part): what the API costs around its queries, and whether queries stay flat
 * as data grows (issue 15, decision 044).
 *   1. req/s of a session-checked tRPC query (account.profile) on the real server, against a bare
 *      Express + better-sqlite3 server doing the same reads (session row, user row, profile, render
 *      statistics, project count), both loaded from a separate process (scripts/bench/load.ts) with
 *      keep-alive connections for a fixed time; goal ≥ 0.8× the bare server (issue 25; it was 0.5×). Also
 *      the server's CPU per request for each (both run in this process), steadier on a busy machine.
 *   2. with 2,000 projects and 5,000 renders seeded for one user: the time of projects.list (first
 *      page), landingStats, render.gallery, admin.jobs, admin.users and admin.overview, each against
 *      one hand-written SQL query through better-sqlite3 answering the same question (medians).
 * Prints a table, then one JSON line. A benchmark, not a test: it exits 0 whether or not a goal is met.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import SqliteDatabase from "better-sqlite3";
import express from "express";
import { runLoad } from "./http-load";
import { log, median, progress, round } from "./stats";
import { signedInUser, startBenchApp, type BenchApp } from "./studio";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const QUERY_RUNS = 30;
const PROJECTS = 2000;
const RENDERS = 5000;
const USERS = 300;
const PAGE = 24;
const DAY_MS = 86_400_000;

/** The load process against one URL, with this benchmark's connections and duration. */
const load = (url: string, cookie: string) => runLoad(url, cookie, { connections: CONNECTIONS, seconds: SECONDS });

/** The bare reference: Express and better-sqlite3 statements doing account.profile's reads, no framework. */
async function startReference(databaseFile: string) {
  const sqlite = new SqliteDatabase(databaseFile, { readonly: true });
  const session = sqlite.prepare("SELECT * FROM sessions WHERE id = ?");
  const user = sqlite.prepare("SELECT id, email FROM users WHERE id = ? AND disabled_at IS NULL");
  const profile = sqlite.prepare(
    `SELECT users.email, users.created_at, users.email_confirmed_at, users.password_hash, profiles.full_name, profiles.credits_remaining
     FROM users LEFT JOIN profiles ON profiles.user_id = users.id WHERE users.id = ?`,
  );
  const renders = sqlite.prepare(
    `SELECT count(*) AS total, sum(CASE WHEN status = 'succeeded' THEN 1 ELSE 0 END) AS succeeded,
     sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed FROM render_jobs WHERE user_id = ?`,
  );
  const styles = sqlite.prepare(
    "SELECT style, count(*) AS count FROM render_jobs WHERE user_id = ? AND status = 'succeeded' GROUP BY style ORDER BY count DESC LIMIT 5",
  );
  const projects = sqlite.prepare("SELECT count(*) AS n FROM projects WHERE user_id = ?");
  const app = express();
  app.get("/profile", (req, res) => {
    const token = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? "")?.[1] ?? "";
    const [id = "", secret = ""] = token.split(".");
    const row = session.get(id) as { user_id: string; secret_hash: Buffer; expires_at: number } | undefined;
    const hash = createHash("sha256").update(secret).digest();
    if (!row || row.secret_hash.length !== hash.length || !timingSafeEqual(row.secret_hash, hash) || Date.now() >= row.expires_at) {
      res.status(401).json({ error: "unauthorized" });
      return;
    }
    const found = user.get(row.user_id) as { id: string } | undefined;
    if (!found) {
      res.status(401).json({ error: "unauthorized" });
      return;
    }
    res.json({
      profile: profile.get(found.id),
      renders: renders.get(found.id),
      styles: styles.all(found.id),
      projects: projects.get(found.id),
    });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sqlite,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).finally(() => sqlite.close()),
  };
}

/** 2,000 projects and 5,000 renders for one user, 300 more users, in one transaction. */
function seed(databaseFile: string, userId: string, now: number): void {
  const sqlite = new SqliteDatabase(databaseFile);
  const insertUser = sqlite.prepare("INSERT INTO users (id, email, created_at, updated_at) VALUES (?, ?, ?, ?)");
  const insertProfile = sqlite.prepare(
    "INSERT INTO profiles (user_id, email, full_name, credits_remaining, created_at, updated_at) VALUES (?, ?, ?, 5, ?, ?)",
  );
  const insertRole = sqlite.prepare("INSERT INTO user_roles (user_id, role, created_at) VALUES (?, 'tester', ?)");
  const insertProject = sqlite.prepare(
    "INSERT INTO projects (id, user_id, name, project_type, settings, created_at, updated_at) VALUES (?, ?, ?, 'room_rendering', '{}', ?, ?)",
  );
  const insertUpload = sqlite.prepare(
    `INSERT INTO uploads (id, user_id, project_id, mode, room_type, format, original_key, thumb_key, width, height, bytes, created_at)
     VALUES (?, ?, ?, 'room-photo', 'living-room', 'jpeg', ?, ?, 1024, 768, 200000, ?)`,
  );
  const insertJob = sqlite.prepare(
    `INSERT INTO render_jobs (id, user_id, project_id, upload_id, style, room_type, mode, provider, status, credits_charged,
       thumb_key, stored_bytes, shared_in_gallery_at, created_at, started_at, finished_at, updated_at)
     VALUES (?, ?, ?, ?, 'modern', 'living-room', 'room-photo', 'zero', ?, 1, ?, 300000, ?, ?, ?, ?, ?)`,
  );
  sqlite.transaction(() => {
    for (let index = 0; index < USERS; index++) {
      const id = `bench-user-${index}`;
      const at = now - index * 60_000;
      insertUser.run(id, `user${index}@example.com`, at, at);
      insertProfile.run(id, `user${index}@example.com`, `User ${index}`, at, at);
      insertRole.run(id, at);
    }
    for (let index = 0; index < PROJECTS; index++) {
      const at = now - index * 60_000;
      insertProject.run(`bench-project-${index}`, userId, `Project ${index}`, at, at);
      insertUpload.run(`bench-upload-${index}`, userId, `bench-project-${index}`, `u/${index}.jpg`, `u/${index}-t.jpg`, at);
    }
    for (let index = 0; index < RENDERS; index++) {
      const project = index % PROJECTS;
      const created = now - (index % 40) * DAY_MS - index * 1000;
      const status = index % 10 === 9 ? "failed" : "succeeded";
      const shared = status === "succeeded" && index % 7 === 0 ? created + 1000 : null;
      insertJob.run(
        `bench-job-${index}`,
        userId,
        `bench-project-${project}`,
        `bench-upload-${project}`,
        status,
        `r/${index}-t.jpg`,
        shared,
        created,
        created + 100,
        created + 5100,
        created + 5100,
      );
    }
  })();
  sqlite.close();
}

async function timeMedian(run: () => unknown): Promise<number> {
  for (let warm = 0; warm < 3; warm++) await run();
  const times: number[] = [];
  for (let index = 0; index < QUERY_RUNS; index++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function queryFigures(bench: BenchApp, userId: string, reference: SqliteDatabase.Database) {
  const { services, deps } = bench.app;
  const now = deps.clock.now();
  const since = now - 30 * DAY_MS;
  const firstPage = reference.prepare(
    `SELECT p.*, (SELECT count(*) FROM render_jobs r WHERE r.project_id = p.id) AS renders
     FROM projects p WHERE p.user_id = ? ORDER BY p.updated_at DESC LIMIT ${PAGE}`,
  );
  const landing = reference.prepare(
    `SELECT count(*) AS made, (SELECT avg(finished_at - started_at) FROM render_jobs
       WHERE status = 'succeeded' AND finished_at >= ? AND started_at IS NOT NULL) AS average
     FROM render_jobs WHERE status = 'succeeded'`,
  );
  const gallery = reference.prepare(
    `SELECT id, style, room_type FROM render_jobs WHERE shared_in_gallery_at IS NOT NULL AND style != '' AND status = 'succeeded'
     ORDER BY shared_in_gallery_at DESC LIMIT 60`,
  );
  const jobs = reference.prepare(
    `SELECT r.id, r.user_id, r.style, r.kind, r.status, r.provider, r.created_at, r.started_at, r.finished_at, r.error, r.attempts, u.email
     FROM render_jobs r LEFT JOIN users u ON u.id = r.user_id ORDER BY r.created_at DESC LIMIT 50`,
  );
  const users = reference.prepare(
    `SELECT u.id, u.email, u.created_at, p.full_name, p.credits_remaining, l.locked_until,
       (SELECT group_concat(role) FROM user_roles ur WHERE ur.user_id = u.id) AS roles,
       (SELECT count(*) FROM render_jobs r WHERE r.user_id = u.id) AS renders
     FROM users u LEFT JOIN profiles p ON p.user_id = u.id LEFT JOIN login_attempts l ON l.email = lower(u.email)
     ORDER BY u.created_at DESC LIMIT 50`,
  );
  const overview = reference.prepare(
    `SELECT (SELECT count(*) FROM users) AS users, (SELECT coalesce(sum(stored_bytes), 0) FROM render_jobs) +
       (SELECT coalesce(sum(bytes), 0) FROM uploads) AS bytes`,
  );
  const figures: Array<{ name: string; value: number; reference: number; goal: string }> = [];
  const measure = async (name: string, run: () => unknown, referenceRun: () => unknown, goal = "") => {
    progress(name);
    figures.push({ name, value: await timeMedian(run), reference: await timeMedian(referenceRun), goal });
  };
  await measure(
    `projects.list, first page of ${PAGE} (2,000 projects)`,
    () => services.projects.list(userId, { limit: PAGE }),
    () => firstPage.all(userId),
    "≤ 20 ms",
  );
  await measure(
    "landingStats, uncached (5,000 renders)",
    () => services.render.landingFiguresUncached(),
    () => landing.get(since),
  );
  await measure(
    "landingStats, as served (cached for a minute)",
    () => services.render.landingFigures(),
    () => landing.get(since),
  );
  await measure(
    "render.gallery",
    () => services.render.gallery(),
    () => gallery.all(),
  );
  await measure(
    "admin.jobs, first page of 50",
    () => services.admin.jobs({ limit: 50, offset: 0 }),
    () => jobs.all(),
  );
  await measure(
    "admin.users, first page of 50",
    () => services.admin.users({ limit: 50, offset: 0 }),
    () => users.all(),
  );
  await measure(
    "admin.overview",
    () => services.admin.overview(),
    () => overview.get(),
  );
  return figures;
}

async function main() {
  progress("starting the server");
  const bench = await startBenchApp();
  const reference = await startReference(bench.app.deps.env.DATABASE_FILE);
  try {
    const user = await signedInUser(bench, 10);
    const cookie = user.jar.header();
    const profileUrl = `${bench.url}/trpc/account.profile`;
    const check = await fetch(profileUrl, { headers: { cookie } });
    const referenceCheck = await fetch(`${reference.url}/profile`, { headers: { cookie } });
    if (check.status !== 200 || referenceCheck.status !== 200)
      throw new Error(`profile answered ${check.status} / ${referenceCheck.status}`);

    // Warm both up, then alternate so that a busy neighbour slows both.
    progress(`load: ${CONNECTIONS} connections, ${SECONDS} s each`);
    await load(profileUrl, cookie);
    await load(`${reference.url}/profile`, cookie);
    const api: number[] = [];
    const bare: number[] = [];
    const apiCpu: number[] = [];
    const bareCpu: number[] = [];
    let failed = 0;
    for (let round = 0; round < 3; round++) {
      const a = await load(profileUrl, cookie);
      const b = await load(`${reference.url}/profile`, cookie);
      api.push(a.perSecond);
      bare.push(b.perSecond);
      apiCpu.push(a.cpuMicros);
      bareCpu.push(b.cpuMicros);
      failed += a.failed + b.failed;
    }
    const apiRate = median(api);
    const bareRate = median(bare);
    const apiCpuMicros = median(apiCpu);
    const bareCpuMicros = median(bareCpu);

    progress(`seeding ${PROJECTS} projects and ${RENDERS} renders`);
    seed(bench.app.deps.env.DATABASE_FILE, user.userId, bench.app.deps.clock.now());
    const figures = await queryFigures(bench, user.userId, reference.sqlite);

    const rows: string[][] = [
      ["figure", "value", "reference", "ratio", "goal"],
      [
        `account.profile req/s (${CONNECTIONS} connections${failed ? `, ${failed} failed` : ""})`,
        String(Math.round(apiRate)),
        `${Math.round(bareRate)} (bare Express)`,
        `${round(apiRate / bareRate, 2)}×`,
        "≥ 0.8×",
      ],
      [
        "account.profile server CPU per request (ratio: bare ÷ ours)",
        `${Math.round(apiCpuMicros)} µs`,
        `${Math.round(bareCpuMicros)} µs (bare Express)`,
        `${round(bareCpuMicros / apiCpuMicros, 2)}×`,
        "",
      ],
      ...figures.map((figure) => [
        figure.name,
        `${round(figure.value, 2)} ms`,
        `${round(figure.reference, 2)} ms (one SQL query)`,
        `${round(figure.value / figure.reference, 1)}×`,
        figure.goal,
      ]),
    ];
    const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
    log(
      `API and queries (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load ${(await import("node:os")).loadavg()[0]!.toFixed(1)})`,
    );
    for (const row of rows)
      log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ")}`);
    log(
      JSON.stringify({
        apiPerSecond: round(apiRate),
        barePerSecond: round(bareRate),
        ratio: round(apiRate / bareRate, 3),
        apiCpuMicrosPerRequest: round(apiCpuMicros),
        bareCpuMicrosPerRequest: round(bareCpuMicros),
        queries: figures.map((figure) => ({ ...figure, value: round(figure.value, 3), reference: round(figure.reference, 3) })),
      }),
    );
  } finally {
    await reference.close();
    await bench.close();
  }
}

await main();
