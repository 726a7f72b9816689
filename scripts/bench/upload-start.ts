/**
 * `npm run bench`, uploads and start-up:
 *   1. one 12 MP JPEG upload accepted: POST /api/uploads on the real server, request to 201, against
 *      sharp alone doing what any upload must (decode, rotate upright, strip metadata, re-encode at
 *      the same quality) on the same bytes, alternated run by run (goal ≤ 1.5×);
 *   2. `npm start` to a healthy /healthz, on a built client and a fresh DATA_DIR (migrations
 *      included) and again on the now-migrated one (goal ≤ 1.5 s).
 * Prints a table, then one JSON line. A benchmark, not a test: it exits 0 whether or not a goal is met.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { freePort } from "../lib/free-port";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { MAX_INPUT_PIXELS } from "../../src/server/images/prepare-upload";
import { makeRoomPhoto } from "./photo";
import { log, median, ms, progress, round, table } from "./stats";
import { signedInUser, startBenchApp, uploadPhoto } from "./studio";

const RUNS = 9;
const START_RUNS = 5;
const UPLOAD_GOAL = 1.5;
const START_GOAL_MS = 1500;

/** What any upload must do with the photo: decode, turn upright, drop metadata, encode again (q92, as kept). */
function sharpAlone(photo: Buffer): Promise<Buffer> {
  return sharp(photo, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" }).rotate().jpeg({ quality: 92 }).toBuffer();
}

async function uploads(photo: Buffer): Promise<{ upload: number; sharp: number }> {
  const bench = await startBenchApp();
  try {
    const user = await signedInUser(bench, 1);
    const uploadTimes: number[] = [];
    const sharpTimes: number[] = [];
    for (let run = -2; run < RUNS; run++) {
      let started = performance.now();
      await sharpAlone(Buffer.from(photo));
      const sharpMs = performance.now() - started;
      started = performance.now();
      await uploadPhoto(bench, user, photo);
      const uploadMs = performance.now() - started;
      // The first two of each warm up sharp's and the server's code paths.
      if (run >= 0) {
        sharpTimes.push(sharpMs);
        uploadTimes.push(uploadMs);
      }
    }
    return { upload: median(uploadTimes), sharp: median(sharpTimes) };
  } finally {
    await bench.close();
  }
}

/** `npm start` (as an operator runs it) until /healthz answers 200; the process is stopped after. */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "ignore",
    detached: true,
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((response) => response.ok)
        .catch(() => false);
      if (healthy) return performance.now() - started;
      if (performance.now() - started > 30_000) throw new Error("no healthy /healthz within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

async function startUp(): Promise<{ fresh: number; migrated: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "roomcanvas-bench-start-"));
  try {
    // The first start may build the client; it is not counted.
    await timeStart(dataDir);
    const fresh: number[] = [];
    const migrated: number[] = [];
    for (let run = 0; run < START_RUNS; run++) {
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), "roomcanvas-bench-start-"));
      try {
        fresh.push(await timeStart(empty));
      } finally {
        fs.rmSync(empty, { recursive: true, force: true });
      }
      migrated.push(await timeStart(dataDir));
    }
    return { fresh: median(fresh), migrated: median(migrated) };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

progress("making a 12 MP room photo");
const photo = await makeRoomPhoto();
progress(`uploading it ${RUNS} times, alternating with sharp alone`);
const upload = await uploads(photo);
progress(`starting the server with npm start ${START_RUNS * 2} times`);
const start = await startUp();

const ratio = upload.upload / upload.sharp;
log();
log(`Uploads and start-up (${os.cpus().length} cores, Node ${process.versions.node}, load ${os.loadavg()[0]!.toFixed(1)})`);
log(
  table([
    ["sharp alone: decode, rotate, strip, encode q92 (median)", ms(upload.sharp, 0)],
    ["12 MP JPEG upload, request to 201 (median)", ms(upload.upload, 0)],
    ["upload / sharp alone", `${ratio.toFixed(2)}×`, `goal ≤ ${UPLOAD_GOAL}× ${ratio <= UPLOAD_GOAL ? "met" : "NOT met"}`],
    [
      "npm start to healthy /healthz, new DATA_DIR",
      ms(start.fresh, 0),
      `goal ≤ ${START_GOAL_MS} ms ${start.fresh <= START_GOAL_MS ? "met" : "NOT met"}`,
    ],
    [
      "npm start to healthy /healthz, migrated DATA_DIR",
      ms(start.migrated, 0),
      `goal ≤ ${START_GOAL_MS} ms ${start.migrated <= START_GOAL_MS ? "met" : "NOT met"}`,
    ],
  ]),
);
log(
  JSON.stringify({
    uploadMs: round(upload.upload),
    sharpMs: round(upload.sharp),
    uploadRatio: round(ratio, 2),
    startFreshMs: round(start.fresh),
    startMigratedMs: round(start.migrated),
  }),
);
