/**
 * `npm run bench` (issue 33): the Paint tool's exact recolour of a 12 MP photo on the Preview engine.
 *   - recolour: recolourRegion() as the engine runs it: decode the photo, the mask to its size, the
 *     recolour in linear light, PNG out (what the worker's composite reads);
 *   - sharp's own resize of the same photo: decode every pixel (no shrink-on-load) and resize it to
 *     half its size, PNG out at the same compression;
 *   - goal: recolour ≤ 2× the resize. Also the worker's composite that follows (the whole paint).
 * The photo is the tests' drawn room at 4000 × 3000 (JPEG q90); the mask is the back wall as the
 * smart selection finds it on the studio's 1024 × 768 picture. Prints a table, then one JSON line.
 * A benchmark, not a test: it exits 0 whether or not the goal is met.
 */
import os from "node:os";
import sharp from "sharp";
import { smartSelect } from "../../src/shared/paint";
import { compositeEdit } from "../../src/server/images/composite";
import { recolourRegion } from "../../src/server/images/recolour";
import { paintedRoom } from "../../tests/helpers/painted-room";
import { log, median, ms, progress, round, table } from "./stats";

const WARMUPS = 1;
const RUNS = 7;
const GOAL_RATIO = 2;
const COLOUR = "#2f3e57";

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function main(): Promise<void> {
  progress("drawing the 12 MP room and its mask");
  const large = paintedRoom(4000, 3000);
  const photo = await sharp(large.rgb, { raw: { width: 4000, height: 3000, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const studio = paintedRoom(1024, 768);
  const wall = smartSelect({ width: 1024, height: 768, data: studio.rgb, channels: 3 }, { x: 307, y: 345 });
  const mask = await sharp(Buffer.from(wall.map((value) => (value ? 255 : 0))), { raw: { width: 1024, height: 768, channels: 1 } })
    .png()
    .toBuffer();

  const resize: number[] = [];
  const recolour: number[] = [];
  const composite: number[] = [];
  progress(`${WARMUPS} + ${RUNS} × (resize, recolour, composite)`);
  for (let run = 0; run < WARMUPS + RUNS; run++) {
    const resized = await timed(() =>
      sharp(photo).resize({ width: 2000, fastShrinkOnLoad: false }).png({ compressionLevel: 1 }).toBuffer(),
    );
    let recoloured: Buffer = Buffer.alloc(0);
    const painted = await timed(async () => (recoloured = await recolourRegion(photo, mask, COLOUR)));
    const base = await sharp(photo).png({ compressionLevel: 1 }).toBuffer();
    const composed = await timed(() => compositeEdit(base, recoloured, mask));
    if (run >= WARMUPS) {
      resize.push(resized);
      recolour.push(painted);
      composite.push(composed);
    }
  }
  const ratio = median(recolour) / median(resize);
  log(
    `Paint: exact recolour of a 4000 × 3000 photo (${os.cpus().length} cores, Node ${process.versions.node}, load ${os.loadavg()[0]!.toFixed(1)})`,
  );
  log(
    table([
      ["sharp: decode every pixel, resize to 2000 × 1500, PNG (median)", ms(median(resize))],
      ["recolour: decode, mask to size, recolour, PNG (median)", ms(median(recolour))],
      ["recolour / resize", `${ratio.toFixed(2)}×`, `goal ≤ ${GOAL_RATIO}: ${ratio <= GOAL_RATIO ? "met" : "NOT MET"}`],
      ["then the worker's composite (feathered edge, PNG) (median)", ms(median(composite))],
    ]),
  );
  log(
    JSON.stringify({
      benchmark: "paint",
      resizeMs: round(median(resize)),
      recolourMs: round(median(recolour)),
      ratio: round(ratio, 2),
      compositeMs: round(median(composite)),
    }),
  );
}

await main();
