/**
 * `npm run bench` (issue 30): the Preview engine at the photo's own size, on the real app (startApp,
 * SQLite, the in-process worker):
 *   1. its pipeline on a 12 MP photo, one render at a time: the worker's claim-to-done time
 *      (finished_at − started_at) against sharp alone decoding and re-encoding the same photo at its
 *      size (goal ≤ 1.3×);
 *   2. the peak memory of one 24 MP render: a fresh process of its own starts the app, uploads a
 *      24 MP photo, renders it once, and reports its peak resident set (goal ≤ 600 MB).
 * Prints a table, then one JSON line. A benchmark, not a test: it exits 0 whether or not a goal is met.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { localProvider } from "../../src/server/render/engines/local";
import { makeRoomPhoto } from "./photo";
import { log, median, ms, progress, round, table } from "./stats";
import { signedInUser, startBenchApp, timedRender, uploadPhoto } from "./studio";

const WARMUPS = 1;
const RUNS = 5;
const GOAL_RATIO = 1.3;
const GOAL_PEAK_MB = 600;
/** 6000 × 4000: the largest photo the Preview engine works at without scaling it down. */
const LARGE = { width: 6000, height: 4000 };

/** Decode, stand upright and encode at the photo's size: the least any picture of that size costs. */
async function sharpAlone(photo: Buffer): Promise<number> {
  const start = performance.now();
  await sharp(Buffer.from(photo)).rotate().jpeg({ quality: 90 }).toBuffer();
  return performance.now() - start;
}

/** Part 2, in a process of its own: one 24 MP render, then the process's peak resident set. */
async function peakMemoryChild(): Promise<void> {
  const photo = await makeRoomPhoto(LARGE.width, LARGE.height);
  const bench = await startBenchApp({ renderProvider: localProvider });
  try {
    const user = await signedInUser(bench, 10);
    const upload = await uploadPhoto(bench, user, photo);
    const render = await timedRender(bench, user, upload, 0);
    const peakMb = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(`${JSON.stringify({ peakMb, ...render, photoBytes: photo.length })}\n`);
  } finally {
    await bench.close();
  }
}

function runChild(): Promise<{ peakMb: number; ms: number; width: number; height: number; photoBytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--peak-memory"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`the peak-memory process ended with ${code}`));
      resolve(JSON.parse(out.trim().split("\n").at(-1)!) as never);
    });
  });
}

async function main(): Promise<void> {
  progress("making the 12 MP photo");
  const photo = await makeRoomPhoto();
  const bench = await startBenchApp({ renderProvider: localProvider });
  const pipeline: number[] = [];
  const alone: number[] = [];
  let size = { width: 0, height: 0 };
  try {
    const user = await signedInUser(bench, WARMUPS + RUNS + 5);
    const upload = await uploadPhoto(bench, user, photo);
    progress(`pipeline: ${WARMUPS} + ${RUNS} × (sharp alone, then one Preview render)`);
    for (let index = 0; index < WARMUPS + RUNS; index++) {
      const baseline = await sharpAlone(photo);
      const render = await timedRender(bench, user, upload, index);
      size = { width: render.width, height: render.height };
      if (index >= WARMUPS) {
        alone.push(baseline);
        pipeline.push(render.ms);
      }
    }
  } finally {
    await bench.close();
  }
  progress("peak memory: one 24 MP render in a process of its own");
  const peak = await runChild();

  const ratio = median(pipeline) / median(alone);
  log(`Preview engine at the photo's size (${os.cpus().length} cores, Node ${process.versions.node}, load ${os.loadavg()[0]!.toFixed(1)})`);
  log(
    table([
      ["sharp alone: decode, rotate, JPEG q90 at 4000 × 3000 (median)", ms(median(alone))],
      [`Preview pipeline, claim to done, result ${size.width} × ${size.height} (median)`, ms(median(pipeline))],
      ["pipeline / sharp alone", `${ratio.toFixed(2)}×`, `goal ≤ ${GOAL_RATIO}: ${ratio <= GOAL_RATIO ? "met" : "NOT MET"}`],
      [
        `one ${LARGE.width} × ${LARGE.height} render: peak resident set of its process`,
        `${Math.round(peak.peakMb)} MB`,
        `goal ≤ ${GOAL_PEAK_MB} MB: ${peak.peakMb <= GOAL_PEAK_MB ? "met" : "NOT MET"}`,
      ],
      ["  its claim to done, result size", `${ms(peak.ms)}, ${peak.width} × ${peak.height}`],
    ]),
  );
  log(
    JSON.stringify({
      benchmark: "full-resolution",
      sharpAloneMs: round(median(alone)),
      pipelineMs: round(median(pipeline)),
      ratio: round(ratio, 2),
      peakMb: Math.round(peak.peakMb),
      largeRenderMs: peak.ms,
    }),
  );
}

if (process.argv.includes("--peak-memory")) await peakMemoryChild();
else await main();
