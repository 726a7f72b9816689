/**
 * `npx tsx scripts/bench/comfyui.ts [runs]`: what the ComfyUI adapter itself costs per render.
 * The fake ComfyUI of the tests (tests/helpers/fake-comfyui.ts) runs in this process at zero
 * latency (no pause between sampler steps, no queue ahead), so a render's wall time is the
 * adapter's work plus the fake's: WebSocket handshake, multipart upload of a prepared 1024×768
 * photo, queuing the restyle graph, following its messages, reading /history and fetching the
 * image from /view, all over loopback. Goal: ≤ 50 ms per render (median).
 * Prints a table, then one JSON line. A benchmark, not a test: it exits 0 whether or not the goal is met.
 */
import os from "node:os";
import { createComfyUiProvider } from "../../src/server/render/engines/comfyui";
import { RENDER } from "../../src/shared/render";
import { startFakeComfyUi } from "../../tests/helpers/fake-comfyui";
import { makeRoomPhoto } from "./photo";
import { log, median, ms, percentile, round, table } from "./stats";

const WARMUPS = 3;
const RUNS = Number(process.argv[2] ?? 30);
const GOAL_MS = 50;

async function main(): Promise<void> {
  // The worker's prepared input: a room photo at the engine's 1024 px long edge.
  const photo = await makeRoomPhoto(RENDER.providerInputLongEdge, (RENDER.providerInputLongEdge * 3) / 4);
  const fake = await startFakeComfyUi({ token: "bench-token" });
  fake.script({ stepDelayMs: 0, queueDelayMs: 0, noise: false });
  const comfy = createComfyUiProvider({
    baseUrl: fake.url,
    token: fake.token,
    checkpoint: "sd_xl_base_1.0.safetensors",
    controlnetDepth: "controlnet-depth-sdxl-1.0.safetensors",
    controlnetLines: "controlnet-mlsd-sdxl-1.0.safetensors",
    inpaintCheckpoint: "sd_xl_base_1.0_inpainting_0.1.safetensors",
  });
  const times: number[] = [];
  let progressEvents = 0;
  let historyReads = 0;
  try {
    for (let run = 0; run < WARMUPS + RUNS; run++) {
      fake.clearRecords();
      const started = performance.now();
      const result = await comfy.render({
        image: photo,
        width: RENDER.providerInputLongEdge,
        height: (RENDER.providerInputLongEdge * 3) / 4,
        style: "japandi",
        roomType: "living-room",
        mode: "room-photo",
        prompt: "a reading nook by the window",
        signal: AbortSignal.timeout(10_000),
        onProgress: () => (progressEvents += run >= WARMUPS ? 1 : 0),
      });
      const elapsed = performance.now() - started;
      if (!result.image.equals(fake.image)) throw new Error("the adapter returned another image than the fake saved");
      if (run >= WARMUPS) {
        times.push(elapsed);
        historyReads += fake.historyReads().length;
      }
    }
  } finally {
    await fake.close();
  }

  const p50 = median(times);
  const p95 = percentile(times, 95);
  log(`ComfyUI adapter overhead against its fake at zero latency (${os.cpus().length} cores, Node ${process.versions.node})`);
  log(
    table([
      ["renders measured", `${RUNS}`, `after ${WARMUPS} warm-ups, one at a time`],
      ["prepared photo", `${Math.round(photo.length / 1024)} KiB`, "1024×768 JPEG"],
      ["median per render", ms(p50), `goal ≤ ${GOAL_MS} ms: ${p50 <= GOAL_MS ? "met" : "NOT met"}`],
      ["p95 per render", ms(p95)],
      ["fastest / slowest", `${ms(Math.min(...times))} / ${ms(Math.max(...times))}`],
      ["/history reads per render", (historyReads / RUNS).toFixed(2), "1 when history is stored before the client asks"],
      ["progress callbacks per render", (progressEvents / RUNS).toFixed(2), "4 sampler steps"],
    ]),
  );
  log(
    JSON.stringify({
      bench: "comfyui-adapter",
      runs: RUNS,
      medianMs: round(p50),
      p95Ms: round(p95),
      minMs: round(Math.min(...times)),
      maxMs: round(Math.max(...times)),
      goalMs: GOAL_MS,
      goalMet: p50 <= GOAL_MS,
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
