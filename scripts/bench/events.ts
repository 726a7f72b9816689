/**
 * `npm run bench` (events): live render events with many watchers, clients in another process.
 * The real app (startApp, temporary DATA_DIR, the zero-latency engine) runs here; a child Node
 * process (this file with --clients) holds the SSE subscriptions through the app's own tRPC client.
 *   1. one owner's channel with 100, 500 and 1,000 subscribers: 20 renders, the delay of every
 *      delivery (event published on the server → onData in the client process, both read from the
 *      machine's clock: performance.timeOrigin + performance.now()), p50/p99, and the time the 20
 *      renders take against the same 20 with nobody watching, and the server's CPU for them (issue 25's
 *      goals: p99 ≤ 150 ms, time ≤ 1.2×, server CPU ≤ 1.13× at 1,000 subscribers);
 *   2. 1,000 visitors each watching their own render (render.events with its jobId).
 * Prints a table (figure, value, goal), then one JSON line. A benchmark, not a test: exits 0 either way.
 */
import os from "node:os";
import sharp from "sharp";
import { generateSecureRandomString } from "../../src/server/auth/tokens";
import { visitorOwner } from "../../src/server/render";
import { makeRoomPhoto } from "./photo";
import { CLIENT, Clients, wallNow, type Subscription } from "./sse-clients";
import { log, median, ms, percentile, progress, round, table } from "./stats";
import { signedInUser, startBenchApp, submit, uploadPhoto, type BenchApp, type StudioClient } from "./studio";

// BENCH_QUICK=1: a small run to check the benchmark itself.
const QUICK = process.env.BENCH_QUICK === "1";
const SUBSCRIBER_COUNTS = QUICK ? [Number(process.env.BENCH_SUBS ?? 50)] : [100, 500, 1_000];
const JOBS = 20;
const WARMUP_JOBS = 4;
const VISITORS = QUICK ? 10 : 1_000;
const GOAL_P99_MS = 150;
const GOAL_TIME_RATIO = 1.2;
/** The server's CPU for the 20 renders watched by 1,000, against nobody watching (issue 25: kept at 1.13× or less). */
const GOAL_CPU_RATIO = 1.13;
/**
 * High enough for every subscription of the benchmark (the defaults are 20 per owner, 2,000 in all), and for
 * its 1,000 connections from one address (HTTP_MAX_CONNECTIONS_PER_ADDRESS, 64 by default since decision 063).
 */
const STREAM_LIMITS = {
  EVENT_STREAMS_PER_OWNER: "5000",
  EVENT_STREAMS_TOTAL: "5000",
  DEMO_RENDERS_PER_IP_PER_DAY: "1000",
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: "5000",
};

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Published time of every event, by id, on the server's clock (wallNow). */
class Publications {
  readonly at = new Map<number, { time: number; type: string; owner: string }>();
  recording = false;
  constructor(bench: BenchApp) {
    bench.app.services.render.observeEvents((events) => {
      if (!this.recording) return;
      const now = wallNow();
      for (const stored of events) this.at.set(stored.id, { time: now, type: stored.event.type, owner: stored.owner });
    });
  }
}

/** The 20 renders, sent at once like the render benchmark (four styles per call); resolves with the time to the last one's end. */
async function renders(bench: BenchApp, user: StudioClient, upload: { projectId: string; imageId: string }, count: number) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const jobIds = await submit(user, upload, count, 4);
  const end = await bench.probe.waitForJobs(jobIds, 300_000);
  const used = process.cpuUsage(cpu);
  // The server's CPU (this process) until the last render ended: what other processes on the machine do not change.
  return { wallMs: end - start, cpuMs: (used.user + used.system) / 1000 };
}

async function lastEventId(bench: BenchApp): Promise<string> {
  const last = await bench.app.deps.db
    .selectFrom("render_events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return String(last?.id ?? 0);
}

/** Delays of every delivery of a recorded event, and how many were expected. */
function delays(publications: Publications, receipts: { ids: number[]; times: number[] }) {
  const values: number[] = [];
  for (const [index, id] of receipts.ids.entries()) {
    const published = publications.at.get(id);
    if (published) values.push(receipts.times[index]! - published.time);
  }
  return {
    values,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: values.reduce((most, value) => Math.max(most, value), -Infinity),
  };
}

async function waitForStreamsClosed(bench: BenchApp): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (bench.app.services.render.eventListenerCount > 0 && performance.now() < deadline) await sleep(50);
}

async function oneOwner(photo: Buffer) {
  const bench = await startBenchApp({ env: STREAM_LIMITS });
  try {
    const user = await signedInUser(bench, 10_000);
    const upload = await uploadPhoto(bench, user, photo);
    const publications = new Publications(bench);
    progress(`warm-up: ${WARMUP_JOBS} renders`);
    await renders(bench, user, upload, WARMUP_JOBS);
    const alone: number[] = [];
    const aloneCpu: number[] = [];
    const runAlone = async () => {
      progress(`${JOBS} renders, nobody watching`);
      const run = await renders(bench, user, upload, JOBS);
      alone.push(run.wallMs);
      aloneCpu.push(run.cpuMs);
    };
    await runAlone();
    const runs = [];
    for (const count of SUBSCRIBER_COUNTS) {
      progress(`${JOBS} renders, ${count} subscribers in another process`);
      const clients = new Clients();
      try {
        const subscription: Subscription = { cookie: user.jar.header(), input: { lastEventId: await lastEventId(bench) } };
        await clients.subscribe(bench.url, Array(count).fill(subscription), () => bench.app.services.render.eventListenerCount >= count);
        publications.at.clear();
        publications.recording = true;
        const { wallMs, cpuMs } = await renders(bench, user, upload, JOBS);
        publications.recording = false;
        const events = publications.at.size;
        const receipts = await clients.collect([...publications.at.keys()], events * count);
        const measured = delays(publications, receipts);
        if (process.env.BENCH_DEBUG) {
          const seen = new Set(receipts.ids);
          progress(`undelivered: ${JSON.stringify([...publications.at].filter(([id]) => !seen.has(id)))}; last ${receipts.ids.at(-1)}`);
        }
        runs.push({
          subscribers: count,
          events,
          positionEvents: [...publications.at.values()].filter((event) => event.type === "positions").length,
          deliveries: measured.values.length,
          expected: events * count,
          p50: measured.p50,
          p99: measured.p99,
          max: measured.max,
          wallMs,
          cpuMs,
          clientCpuMs: receipts.cpuMs,
        });
      } finally {
        await clients.close();
      }
      await waitForStreamsClosed(bench);
      // Nobody watching again between runs: the reference sees the same (busy) machine.
      await runAlone();
    }
    return { runs, aloneMs: median(alone), alone, aloneCpuMs: median(aloneCpu) };
  } finally {
    await bench.close();
  }
}

/** 1,000 visitors, each with one upload and one render queued before anybody watches; each watches its own (jobId). */
async function manyOwners() {
  const bench = await startBenchApp({ env: STREAM_LIMITS, startWorker: false });
  try {
    const { render } = bench.app.services;
    const small = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 180, g: 160, b: 140 } } })
      .jpeg({ quality: 85 })
      .toBuffer();
    const subscriptions: Subscription[] = [];
    const jobIds: string[] = [];
    for (let index = 0; index < VISITORS; index++) {
      const visitorId = generateSecureRandomString();
      const owner = visitorOwner(visitorId);
      const address = `10.${(index >> 8) & 255}.${index & 255}.1`;
      const upload = await render.saveUpload(owner, small, { mode: "room-photo", roomType: "bedroom" }, "en", address);
      const { jobs } = await render.create(owner, { projectId: upload.projectId, imageId: upload.id, style: "modern" }, address);
      jobIds.push(jobs[0]!.id);
      subscriptions.push({ cookie: `visitor=${visitorId}`, input: { jobId: jobs[0]!.id, lastEventId: null } });
    }
    const publications = new Publications(bench);
    const clients = new Clients();
    try {
      await clients.subscribe(bench.url, subscriptions, () => render.eventListenerCount >= subscriptions.length);
      publications.recording = true;
      const start = performance.now();
      await render.startWorker();
      const end = await bench.probe.waitForJobs(jobIds, 600_000);
      publications.recording = false;
      // Each owner has one render and one watcher: every event is delivered once (a queue move only to its owner).
      const receipts = await clients.collect([...publications.at.keys()], publications.at.size);
      const measured = delays(publications, receipts);
      return {
        visitors: VISITORS,
        events: publications.at.size,
        deliveries: measured.values.length,
        p50: measured.p50,
        p99: measured.p99,
        max: measured.max,
        wallMs: end - start,
        clientCpuMs: receipts.cpuMs,
      };
    } finally {
      await clients.close();
    }
  } finally {
    await bench.close();
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
  progress("making the 12 MP photo");
  const photo = await makeRoomPhoto();
  const owner = await oneOwner(photo);
  progress(`${VISITORS} visitors each watching their own render`);
  const many = await manyOwners();

  const rows: Array<[string, string, string]> = [
    [`${JOBS} renders, nobody watching`, ms(owner.aloneMs, 0), `median of ${owner.alone.length} runs`],
  ];
  for (const run of owner.runs) {
    const ratio = run.wallMs / owner.aloneMs;
    rows.push(
      [
        `event delay p50, ${run.subscribers} subscribers (one owner)`,
        ms(run.p50, 1),
        `${run.events} events (${run.positionEvents} queue moves) × ${run.subscribers}: ${run.deliveries.toLocaleString("en-US")} of ${run.expected.toLocaleString("en-US")} delivered`,
      ],
      [
        `event delay p99, ${run.subscribers} subscribers (one owner)`,
        ms(run.p99, 1),
        `goal ≤ ${GOAL_P99_MS} ms: ${run.p99 <= GOAL_P99_MS ? "met" : "NOT MET"}; max ${ms(run.max, 0)}`,
      ],
      [
        `${JOBS} renders, ${run.subscribers} subscribers`,
        ms(run.wallMs, 0),
        `${ratio.toFixed(2)}× nobody watching, goal ≤ ${GOAL_TIME_RATIO}: ${ratio <= GOAL_TIME_RATIO ? "met" : "NOT MET"}; server CPU ${ms(run.cpuMs, 0)} (${(run.cpuMs / owner.aloneCpuMs).toFixed(2)}×, goal ≤ ${GOAL_CPU_RATIO}: ${run.cpuMs / owner.aloneCpuMs <= GOAL_CPU_RATIO ? "met" : "NOT MET"}), client process ${ms(run.clientCpuMs, 0)}`,
      ],
    );
  }
  rows.push(
    [
      `event delay p50, ${many.visitors} visitors each watching their own render`,
      ms(many.p50, 1),
      `${many.deliveries.toLocaleString("en-US")} deliveries of ${many.events} events`,
    ],
    [
      `event delay p99, ${many.visitors} visitors each watching their own render`,
      ms(many.p99, 1),
      `goal ≤ ${GOAL_P99_MS} ms: ${many.p99 <= GOAL_P99_MS ? "met" : "NOT MET"}; max ${ms(many.max, 0)}`,
    ],
    [`${many.visitors} renders (640×480), each watched by its owner`, ms(many.wallMs, 0), "worker start → last success"],
  );
  const totalSeconds = (performance.now() - began) / 1000;
  log(
    `RoomCanvas event benchmark: ${machine.cores} cores (${machine.cpu}), load ${machine.loadAverage} at start, Node ${machine.node}; clients in a separate process`,
  );
  log();
  log(table(rows));
  log();
  log(`(${totalSeconds.toFixed(1)} s in all)`);
  log(
    JSON.stringify({
      bench: "events",
      machine,
      oneOwner: {
        jobs: JOBS,
        aloneMs: round(owner.aloneMs, 0),
        aloneCpuMs: round(owner.aloneCpuMs, 0),
        alone: owner.alone.map((value) => round(value, 0)),
        runs: owner.runs.map((run) => ({
          ...run,
          p50: round(run.p50, 2),
          p99: round(run.p99, 2),
          max: round(run.max, 1),
          wallMs: round(run.wallMs, 0),
        })),
      },
      manyOwners: { ...many, p50: round(many.p50, 2), p99: round(many.p99, 2), max: round(many.max, 1), wallMs: round(many.wallMs, 0) },
      client: CLIENT,
      goals: { p99Ms: GOAL_P99_MS, timeRatio: GOAL_TIME_RATIO, cpuRatio: GOAL_CPU_RATIO },
      totalSeconds: round(totalSeconds, 1),
    }),
  );
}

await main();
