/**
 * `npm run bench`: how much the render pipeline costs around the engine, and how fast its events
 * reach the people watching. For a 12 MP JPEG, on the real app (startApp, SQLite, the in-process
 * worker) with a zero-latency engine:
 *   1. pipeline overhead: one render at a time, the worker's claim-to-done time (finished_at −
 *      started_at) against sharp alone doing the same decode-resize-encode (goal ≤ 1.3×);
 *   2. throughput: renders per minute at the default concurrency;
 *   3. event delay: from the worker publishing an event to a subscribed client's onData, with
 *      200 clients subscribed over SSE (p50/p99).
 * Prints a table, then one JSON line. A benchmark, not a test: it exits 0 whether or not the goal is met.
 */
import os from "node:os";
import sharp from "sharp";
import type { Unsubscribable } from "@trpc/server/observable";
import { MAX_INPUT_PIXELS } from "../../src/server/images/prepare-upload";
import { structureScore } from "../../src/server/render/engines/structure";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { RENDER } from "../../src/shared/render";
import { makeRoomPhoto, PHOTO_HEIGHT, PHOTO_WIDTH } from "./photo";
import { log, median, ms, percentile, progress, round, table } from "./stats";
import {
  createStudioClient,
  startBenchApp,
  signedInUser,
  submit,
  timedRender,
  uploadPhoto,
  type BenchApp,
  type StudioClient,
} from "./studio";

const WARMUPS = 3;
const RUNS = 15;
const THROUGHPUT_JOBS = 60;
const SUBSCRIBERS = 200;
const EVENT_JOBS = 20;
const GOAL_RATIO = 1.3;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** What the worker's preprocessing does (providerInput): upright, long edge at most 1024, JPEG q90. */
async function sharpAlone(photo: Buffer): Promise<Buffer> {
  return sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" })
    .rotate()
    .resize({ width: RENDER.providerInputLongEdge, height: RENDER.providerInputLongEdge, fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * One render at a time, each right after one run of sharp alone on a fresh copy of the same bytes
 * (as the worker reads a fresh copy from disk), so that both see the same machine: a busy
 * neighbour slows both, not just one. Sharp alone also runs on the copy the upload stored (what
 * the worker actually decodes), to tell the cost of that copy's encoding from the pipeline's own. The pipeline time is the worker's own claim-to-done time
 * (finished_at − started_at); the first runs of each are warm-ups.
 */
async function overhead(
  bench: BenchApp,
  user: StudioClient,
  upload: { projectId: string; imageId: string },
  photo: Buffer,
  stored: Buffer,
) {
  const baseline: number[] = [];
  const onStored: number[] = [];
  const pipeline: number[] = [];
  const timeSharpAlone = async (bytes: Buffer) => {
    const copy = Buffer.from(bytes);
    const start = performance.now();
    await sharpAlone(copy);
    return performance.now() - start;
  };
  for (let index = 0; index < WARMUPS + RUNS; index++) {
    const alone = await timeSharpAlone(photo);
    const aloneOnStored = await timeSharpAlone(stored);

    const render = await timedRender(bench, user, upload, index);
    if (index >= WARMUPS) {
      baseline.push(alone);
      onStored.push(aloneOnStored);
      pipeline.push(render.ms);
    }
  }
  return { baseline, onStored, pipeline };
}

/**
 * Many renders at once at the default concurrency: first submit to last success. Also the process's
 * CPU time per render (the client's side of the calls included, a small part), counted until every
 * render's structure check has recorded its score.
 */
async function throughput(bench: BenchApp, user: StudioClient, upload: { projectId: string; imageId: string }) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const jobIds = await submit(user, upload, THROUGHPUT_JOBS);
  const end = await bench.probe.waitForJobs(jobIds);
  const wallMs = end - start;
  const scoredDeadline = performance.now() + 30_000;
  for (;;) {
    const unscored = await bench.app.deps.db
      .selectFrom("render_jobs")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("id", "in", jobIds)
      .where("structure_score", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(unscored.count) === 0) break;
    if (performance.now() > scoredDeadline) throw new Error(`${unscored.count} renders have no structure score after 30 s`);
    await sleep(10);
  }
  const used = process.cpuUsage(cpu);
  const cpuPerRenderMs = (used.user + used.system) / 1000 / jobIds.length;
  return { jobs: jobIds.length, wallMs, perMinute: (jobIds.length / wallMs) * 60_000, cpuPerRenderMs, jobIds };
}

/**
 * The structure check as the worker runs it (structureScore on the upload's and a result's
 * thumbnails), one at a time: median wall and CPU time of RUNS after WARMUPS.
 */
async function structureCheckCost(bench: BenchApp, upload: { imageId: string }, jobIds: readonly string[]) {
  const { db, storage } = bench.app.deps;
  const read = async (key: string | null) => {
    const data = key ? (await storage.get(UPLOAD_BUCKET, key))?.data : undefined;
    if (!data) throw new Error(`${key} is not stored`);
    return data;
  };
  const uploadRow = await db.selectFrom("uploads").select("thumb_key").where("id", "=", upload.imageId).executeTakeFirstOrThrow();
  const inputThumb = await read(uploadRow.thumb_key);
  const jobs = await db.selectFrom("render_jobs").select("thumb_key").where("id", "in", jobIds.slice(0, 5)).execute();
  const resultThumbs = await Promise.all(jobs.map((job) => read(job.thumb_key)));
  const wall: number[] = [];
  const cpuMs: number[] = [];
  for (let run = 0; run < WARMUPS + RUNS * 2; run++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    await structureScore(inputThumb, resultThumbs[run % resultThumbs.length]!);
    const used = process.cpuUsage(cpu);
    if (run >= WARMUPS) {
      wall.push(performance.now() - start);
      cpuMs.push((used.user + used.system) / 1000);
    }
  }
  return { wallMs: median(wall), cpuMs: median(cpuMs) };
}

/** 200 SSE subscribers of the user's events; the delay of every delivery of every event the renders publish. */
async function eventDelay(bench: BenchApp, user: StudioClient, upload: { projectId: string; imageId: string }) {
  const { db } = bench.app.deps;
  const { render } = bench.app.services;
  const last = await db
    .selectFrom("render_events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  const lastEventId = String(last?.id ?? 0);
  const listenersBefore = render.eventListenerCount;
  const delays: number[] = [];
  const subscriptions: Unsubscribable[] = [];
  // The subscribers share the user's cookies and one tRPC client; each subscription is its own EventSource.
  const watcher = createStudioClient(bench.url, user.jar);
  let started = 0;
  let failure: unknown;
  try {
    for (let index = 0; index < SUBSCRIBERS; index++) {
      subscriptions.push(
        watcher.client.render.events.subscribe(
          { lastEventId },
          {
            onStarted: () => started++,
            onData: (tracked) => {
              const publishedAt = bench.probe.publishedAt.get(Number(tracked.id));
              if (publishedAt !== undefined) delays.push(performance.now() - publishedAt);
            },
            onError: (error) => (failure = error),
          },
        ),
      );
    }
    const connectDeadline = performance.now() + 30_000;
    while (started < SUBSCRIBERS || render.eventListenerCount < listenersBefore + SUBSCRIBERS) {
      if (failure) throw failure;
      if (performance.now() > connectDeadline) throw new Error(`only ${started} of ${SUBSCRIBERS} subscribers connected`);
      await sleep(20);
    }
    await sleep(250);

    bench.probe.recording = true;
    const jobIds = await submit(user, upload, EVENT_JOBS);
    await bench.probe.waitForJobs(jobIds);
    bench.probe.recording = false;
    const events = bench.probe.publishedAt.size;
    const deliverDeadline = performance.now() + 15_000;
    while (delays.length < events * SUBSCRIBERS && performance.now() < deliverDeadline) {
      if (failure) throw failure;
      await sleep(20);
    }
    return {
      subscribers: SUBSCRIBERS,
      jobs: jobIds.length,
      events,
      deliveries: delays.length,
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: Math.max(...delays),
    };
  } finally {
    for (const subscription of subscriptions) subscription.unsubscribe();
  }
}

async function main() {
  const began = performance.now();
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const machine = {
    cores: os.cpus().length,
    cpu,
    loadAverage: round(os.loadavg()[0]!, 2),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    sharp: sharp.versions.sharp ?? "?",
    libvips: sharp.versions.vips,
  };

  progress("making the 12 MP photo");
  const photo = await makeRoomPhoto();
  progress("starting the app");
  const bench = await startBenchApp();
  let report;
  try {
    const user = await signedInUser(bench, 1_000);
    const upload = await uploadPhoto(bench, user, photo);
    const stored = await bench.app.deps.db
      .selectFrom("uploads")
      .select("original_key")
      .where("id", "=", upload.imageId)
      .executeTakeFirstOrThrow();
    const storedBytes = (await bench.app.deps.storage.get(UPLOAD_BUCKET, stored.original_key))?.data;
    if (!storedBytes) throw new Error("the upload is not stored");
    const storedProgressive = (await sharp(storedBytes).metadata()).isProgressive ?? false;

    progress(`overhead: ${WARMUPS} + ${RUNS} × (sharp alone, then one render)`);
    const { baseline, onStored, pipeline } = await overhead(bench, user, upload, photo, storedBytes);
    progress(`throughput: ${THROUGHPUT_JOBS} renders at concurrency ${bench.app.deps.env.RENDER_CONCURRENCY}`);
    const rate = await throughput(bench, user, upload);
    progress("structure check on the app's thumbnails");
    const check = await structureCheckCost(bench, upload, rate.jobIds);
    progress(`event delay: ${SUBSCRIBERS} subscribers, ${EVENT_JOBS} renders`);
    const delay = await eventDelay(bench, user, upload);
    report = {
      check,
      baseline,
      onStored,
      pipeline,
      rate,
      delay,
      storedBytes: storedBytes.length,
      storedProgressive,
      concurrency: bench.app.deps.env.RENDER_CONCURRENCY,
    };
  } finally {
    await bench.close();
  }

  const pipelineMs = median(report.pipeline);
  const baselineMs = median(report.baseline);
  const ratio = pipelineMs / baselineMs;
  const goalMet = ratio <= GOAL_RATIO;
  const storedInfo = `median of ${RUNS}; ${report.storedProgressive ? "progressive" : "baseline"} JPEG, the copy the worker decodes`;
  const totalSeconds = (performance.now() - began) / 1000;

  log(
    `RoomCanvas render benchmark: ${machine.cores} cores (${cpu}), load ${machine.loadAverage} at start, Node ${machine.node}, sharp ${machine.sharp} / libvips ${machine.libvips}`,
  );
  log(
    `Photo: ${PHOTO_WIDTH}×${PHOTO_HEIGHT} JPEG q90, ${photo.length.toLocaleString("en-US")} bytes (${report.storedBytes.toLocaleString("en-US")} bytes as stored after upload)`,
  );
  log();
  log(
    table([
      [
        "sharp alone: rotate, resize ≤1024, JPEG q90",
        ms(baselineMs),
        `median of ${RUNS}, ${Math.min(...report.baseline).toFixed(1)}–${Math.max(...report.baseline).toFixed(1)}`,
      ],
      ["sharp alone, same, on the upload as stored", ms(median(report.onStored)), storedInfo],
      [
        "pipeline, zero-latency engine (claim → done)",
        ms(pipelineMs, 0),
        `median of ${RUNS}, ${Math.min(...report.pipeline)}–${Math.max(...report.pipeline)}`,
      ],
      ["overhead ratio, pipeline / sharp alone", `${ratio.toFixed(2)}×`, `goal ≤ ${GOAL_RATIO}: ${goalMet ? "met" : "NOT MET"}`],
      [
        "throughput at concurrency " + report.concurrency,
        `${report.rate.perMinute.toFixed(0)}/min`,
        `${report.rate.jobs} renders in ${(report.rate.wallMs / 1000).toFixed(2)} s`,
      ],
      ["CPU per render (all threads), pipeline and structure check", ms(report.rate.cpuPerRenderMs, 1), "in the throughput run"],
      [
        "structure check per render (CPU)",
        ms(report.check.cpuMs, 1),
        `${((100 * report.check.cpuMs) / (report.rate.cpuPerRenderMs - report.check.cpuMs)).toFixed(1)} % of the rest of the pipeline (goal ≤ 5 %); wall ${ms(report.check.wallMs, 1)}`,
      ],
      [
        `event delay p50, ${report.delay.subscribers} subscribers`,
        ms(report.delay.p50, 2),
        `${report.delay.events} events × ${report.delay.subscribers} = ${report.delay.deliveries.toLocaleString("en-US")} deliveries`,
      ],
      [`event delay p99, ${report.delay.subscribers} subscribers`, ms(report.delay.p99, 2), `max ${ms(report.delay.max, 1)}`],
    ]),
  );
  log();
  log(`(${totalSeconds.toFixed(1)} s in all)`);
  log(
    JSON.stringify({
      bench: "render",
      machine,
      photo: {
        width: PHOTO_WIDTH,
        height: PHOTO_HEIGHT,
        bytes: photo.length,
        storedBytes: report.storedBytes,
        storedProgressive: report.storedProgressive,
      },
      overhead: {
        baselineMs: round(baselineMs, 2),
        storedCopyMs: round(median(report.onStored), 2),
        pipelineMs,
        ratio: round(ratio, 3),
        goal: GOAL_RATIO,
        goalMet,
        runs: RUNS,
      },
      throughput: {
        concurrency: report.concurrency,
        jobs: report.rate.jobs,
        wallMs: round(report.rate.wallMs, 0),
        rendersPerMinute: round(report.rate.perMinute, 1),
        cpuPerRenderMs: round(report.rate.cpuPerRenderMs, 1),
      },
      structureCheck: {
        cpuMs: round(report.check.cpuMs, 2),
        wallMs: round(report.check.wallMs, 2),
        shareOfPipeline: round(report.check.cpuMs / (report.rate.cpuPerRenderMs - report.check.cpuMs), 3),
      },
      eventDelay: {
        subscribers: report.delay.subscribers,
        jobs: report.delay.jobs,
        events: report.delay.events,
        deliveries: report.delay.deliveries,
        p50Ms: round(report.delay.p50, 3),
        p99Ms: round(report.delay.p99, 3),
        maxMs: round(report.delay.max, 3),
      },
      totalSeconds: round(totalSeconds, 1),
    }),
  );
}

await main();
