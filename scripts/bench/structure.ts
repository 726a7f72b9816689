/**
 * `npx tsx scripts/bench/structure.ts`: what the structure check (src/server/render/engines/structure.ts)
 * costs per render. The worker compares the 320-px thumbnails it makes anyway (the upload's and
 * the result's); here, a 1024×768 room photo with grain (./photo.ts, baseline JPEG q90, about
 * 200 KB) against the Preview engine's grade of it in five styles, as thumbnails (what the worker
 * does) and at full size (what the check cost when it decoded the 1024-px pictures).
 * structureScore is timed from the encoded pictures to the score, one pair at a time: wall time
 * and the process's CPU time (sharp's threads included), and for the full-size pairs the share of
 * decoding (sharp) and of the JavaScript. `npm run bench`'s render benchmark sets the check's cost
 * against the pipeline's. Prints a table, then one JSON line. A benchmark, not a test: it exits 0
 * whatever it measures.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { localProvider } from "../../src/server/render/engines/local";
import { compareEdges, edgeMap, structureScore, workingPicture, workingSize } from "../../src/server/render/engines/structure";
import { RENDER } from "../../src/shared/render";
import type { DesignStyle } from "../../src/shared/styles";
import { makeRoomPhoto } from "./photo";
import { log, median, ms, percentile, round, table } from "./stats";

const WIDTH = 1024;
const HEIGHT = 768;
const WARMUPS = 5;
const RUNS = 30;
const STYLES: DesignStyle[] = ["modern", "industrial", "scandinavian", "art-deco", "coastal"];

interface Timing {
  wall: number[];
  cpu: number[];
}

/** Runs `task` WARMUPS + RUNS times (pair index = run), recording wall and CPU ms of the measured runs. */
async function time(task: (run: number) => Promise<unknown> | unknown): Promise<Timing> {
  for (let run = 0; run < WARMUPS; run++) await task(run);
  const timing: Timing = { wall: [], cpu: [] };
  for (let run = 0; run < RUNS; run++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await task(run);
    timing.wall.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    timing.cpu.push((used.user + used.system) / 1000);
  }
  return timing;
}

const summary = (timing: Timing) =>
  `${ms(median(timing.wall), 2)} (p95 ${ms(percentile(timing.wall, 95), 2)}), CPU ${ms(median(timing.cpu), 2)}`;

const photo = await makeRoomPhoto(WIDTH, HEIGHT);
const results = await Promise.all(
  STYLES.map(async (style) => {
    const rendered = await localProvider.render({
      image: photo,
      width: WIDTH,
      height: HEIGHT,
      style,
      roomType: "living-room",
      mode: "room-photo",
      signal: new AbortController().signal,
    });
    return rendered.image;
  }),
);
const thumb = (image: Buffer) =>
  sharp(image).resize(RENDER.thumbLongEdge, RENDER.thumbLongEdge, { fit: "inside" }).jpeg({ quality: 80 }).toBuffer();
const photoThumb = await thumb(photo);
const resultThumbs = await Promise.all(results.map(thumb));
const pick = <T>(list: readonly T[], run: number) => list[run % list.length]!;

const scores: number[] = [];
const full = await time(async (run) => scores.push((await structureScore(photo, pick(results, run))).score));
const thumbs = await time(async (run) => scores.push((await structureScore(photoThumb, pick(resultThumbs, run))).score));

// Where the time goes, for the full-size pairs: decoding both at the working size, then the JavaScript.
const size = workingSize(WIDTH, HEIGHT, 256);
const decode = (image: Buffer) => workingPicture(image, size.width, size.height);
const decodes = await time((run) => Promise.all([decode(photo), decode(pick(results, run))]));
const pixels = await Promise.all([photo, ...results].map(decode));
const javascript = await time((run) =>
  compareEdges(edgeMap(pixels[0]!, size.width, size.height), edgeMap(pick(pixels.slice(1), run), size.width, size.height)),
);

log(`Structure check per pair, ${RUNS} runs after ${WARMUPS} warm-ups, median (p95) wall time and median CPU time;`);
log(`${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)} at the end (other processes slow the wall time):`);
log(
  table([
    [
      `${RENDER.thumbLongEdge}-px thumbnail pairs, as the worker runs it (${Math.round(photoThumb.length / 1024)} KB input)`,
      summary(thumbs),
    ],
    [`${WIDTH}×${HEIGHT} JPEG pairs (${Math.round(photo.length / 1024)} KB input)`, summary(full)],
    [`  of which decoding both (sharp, in parallel)`, summary(decodes)],
    [`  of which edges of both and comparison (JavaScript)`, summary(javascript)],
    ["scores (the same room graded)", `${Math.min(...scores).toFixed(2)}–${Math.max(...scores).toFixed(2)}`],
  ]),
);
log(
  JSON.stringify({
    fullMedianMs: round(median(full.wall), 2),
    fullP95Ms: round(percentile(full.wall, 95), 2),
    fullCpuMedianMs: round(median(full.cpu), 2),
    thumbMedianMs: round(median(thumbs.wall), 2),
    thumbP95Ms: round(percentile(thumbs.wall, 95), 2),
    decodeMedianMs: round(median(decodes.wall), 2),
    javascriptMedianMs: round(median(javascript.wall), 2),
    loadAverage: round(os.loadavg()[0]!, 1),
  }),
);
