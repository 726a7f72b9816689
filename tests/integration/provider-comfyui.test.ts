/**
 * The ComfyUI adapter against a fake ComfyUI on loopback that speaks the documented server API
 * (HTTP and WebSocket on one port), its workflow templates, the self-test's check, and one render
 * through the real server.
 */
import { customStyleSnapshot } from "../helpers/custom-style";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { RENDER } from "../../src/shared/render";
import { parseEnv } from "../../src/server/env";
import { createRenderProvider } from "../../src/server/render/engines";
import {
  COMFYUI_CAPABILITIES,
  comfyUiOptionsFromEnv,
  createComfyUiProvider,
  type ComfyUiProvider,
  type ComfyUiProviderOptions,
} from "../../src/server/render/engines/comfyui";
import {
  loadWorkflows,
  PLACEHOLDERS,
  REQUIRED_PLACEHOLDERS,
  SHIPPED_WORKFLOW_DIR,
  TEMPLATE_NAMES,
  WorkflowError,
  type ApiGraph,
} from "../../src/server/render/engines/comfyui-workflow";
import { PermanentRenderError, RetryableRenderError, type RenderRequest } from "../../src/server/render/engines/provider";
import { buildNegativePrompt, buildPrompt } from "../../src/server/render/engines/prompt";
import { TransientRenderError } from "../../src/server/render/engines/replicate";
import { PredictionWaiters } from "../../src/server/render/engines/replicate-webhook";
import { checkRenderProvider } from "../../src/server/services/system-checks";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { collectEvents, isFinal, roomPhoto, signedInClient, upload } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";
import { engineRequest, noisyRoomPhoto, TEST_NOTE } from "../helpers/engine-request";

const CHECKPOINT = "sd_xl_base_1.0.safetensors";
const INPAINT_CHECKPOINT = "sd_xl_base_1.0_inpainting_0.1.safetensors";
const DEPTH = "controlnet-depth-sdxl-1.0.safetensors";
const LINES = "controlnet-mlsd-sdxl-1.0.safetensors";
const NOTE = TEST_NOTE;

let room: Buffer;
let mask: Buffer;
let fake: FakeComfyUi;

beforeAll(async () => {
  room = await noisyRoomPhoto();
  mask = await sharp({ create: { width: 120, height: 80, channels: 3, background: "#000" } })
    .composite([{ input: { create: { width: 40, height: 30, channels: 3, background: "#fff" } }, left: 40, top: 25 }])
    .png()
    .toBuffer();
});

beforeEach(async () => {
  fake = await startFakeComfyUi();
});

afterEach(async () => {
  await fake.close();
});

function renderRequest(overrides: Partial<RenderRequest> = {}): RenderRequest {
  return engineRequest(room, overrides);
}

function provider(overrides: Partial<ComfyUiProviderOptions> = {}): ComfyUiProvider {
  return createComfyUiProvider({
    baseUrl: fake.url,
    token: fake.token,
    checkpoint: CHECKPOINT,
    controlnetDepth: DEPTH,
    controlnetLines: LINES,
    inpaintCheckpoint: INPAINT_CHECKPOINT,
    pollIntervalMs: 20,
    ...overrides,
  });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

const queuedGraph = (index = 0) => (fake.queued()[index]?.json as { prompt: ApiGraph; client_id: string }).prompt;
const queuedBody = (index = 0) => fake.queued()[index]?.json as { prompt: ApiGraph; client_id: string };
const promptIds = () => [...fake.prompts.keys()];
/**
 * A fetch that counts the answers to POST /prompt read in full, as the adapter reads them: from
 * then on it knows its prompt id, and a cancel can name the prompt.
 */
function watchingQueue(): { fetch: typeof fetch; queued: () => number } {
  let queued = 0;
  const watching: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).endsWith("/prompt")) return response;
    const body = await response.arrayBuffer();
    queued += 1;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: watching, queued: () => queued };
}

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("ComfyUI adapter", () => {
  it("puts a custom style's description in the positive prompt and what it avoids in the negative one (issue 32)", async () => {
    const snapshot = customStyleSnapshot();
    const result = await provider().render(renderRequest({ style: snapshot.id, styleSnapshot: snapshot }));
    const { prompt: graph } = queuedBody();
    const texts = Object.values(graph).flatMap((node) => Object.values((node as { inputs: Record<string, unknown> }).inputs));
    expect(texts).toContain(result.prompt);
    expect(result.prompt).toContain(`redesigned in the "Casa Azul" style: ${snapshot.description}.`);
    const negative = String(result.parameters?.negativePrompt);
    expect(negative).toMatch(/, chrome, glossy plastic$/);
    expect(texts).toContain(negative);
  });

  it("renders: uploads the photo, queues restyle.json with every value where the template says, reports the sampler's percent, returns the saved image", async () => {
    const comfy = provider();
    const progress: number[] = [];
    const result = await comfy.render(renderRequest({ seed: 4242, onProgress: (fraction) => progress.push(fraction) }));

    expect(result.image.equals(fake.image)).toBe(true);
    expect(result.mime).toBe("image/jpeg");
    const prompt = buildPrompt({ style: "scandinavian", roomType: "living-room", mode: "room-photo", note: NOTE });
    const negativePrompt = buildNegativePrompt("room-photo");
    expect(result).toMatchObject({ model: CHECKPOINT, seed: 4242, prompt });
    expect(result.prompt).toMatch(/The client also asks: Please add a reading nook by the window$/);
    expect(result.parameters).toEqual({
      template: "restyle",
      workflow: "shipped",
      renderMode: "redesign",
      structure: "normal",
      denoise: 0.6,
      controlnetDepth: DEPTH,
      controlnetDepthStrength: 0.6,
      controlnetLines: LINES,
      controlnetLinesStrength: 0.5,
      steps: 30,
      cfg: 6.5,
      sampler: "dpmpp_2m",
      scheduler: "karras",
      negativePrompt,
    });
    // The preprocessors' own 1/1 bars and another prompt's 99/100 are not this render's progress.
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);

    // The photo went up as multipart field "image", into the roomcanvas input subfolder.
    expect(fake.uploadsReceived).toHaveLength(1);
    const uploaded = fake.uploadsReceived[0]!;
    expect(uploaded).toMatchObject({ subfolder: "roomcanvas", type: "input", mime: "image/jpeg" });
    expect(uploaded.bytes.equals(room)).toBe(true);

    // One prompt, its client_id the WebSocket's clientId, and each placeholder's value where the template put it.
    expect(fake.queued()).toHaveLength(1);
    const { prompt: graph, client_id: clientId } = queuedBody();
    expect(fake.upgrades).toEqual([expect.objectContaining({ path: "/ws", clientId, accepted: true })]);
    const expected: Record<string, unknown> = {
      image: `roomcanvas/${uploaded.name}`,
      prompt,
      negative_prompt: negativePrompt,
      seed: 4242,
      denoise: 0.6,
      checkpoint: CHECKPOINT,
      controlnet_depth: DEPTH,
      controlnet_lines: LINES,
      depth_strength: 0.6,
      lines_strength: 0.5,
    };
    const slots = comfy.workflows.restyle.slots;
    expect(new Set(slots.map((slot) => slot.placeholder))).toEqual(new Set(Object.keys(expected)));
    for (const slot of slots) expect(graph[slot.node]!.inputs[slot.input], slot.placeholder).toEqual(expected[slot.placeholder]);
    // Spelled out for the shipped template, numbers as JSON numbers.
    expect(graph["2"]).toMatchObject({ class_type: "LoadImage", inputs: { image: `roomcanvas/${uploaded.name}` } });
    expect(graph["1"]!.inputs.ckpt_name).toBe(CHECKPOINT);
    expect(graph["6"]!.inputs.control_net_name).toBe(DEPTH);
    expect(graph["9"]!.inputs.control_net_name).toBe(LINES);
    expect(graph["3"]!.inputs.text).toBe(prompt);
    expect(graph["4"]!.inputs.text).toBe(negativePrompt);
    expect(typeof graph["12"]!.inputs.seed).toBe("number");
    expect(typeof graph["12"]!.inputs.denoise).toBe("number");
    expect(typeof graph["7"]!.inputs.strength).toBe("number");
    expect(JSON.stringify(Object.values(graph).map((node) => node.inputs))).not.toContain("{{");

    // The output node's image came from /view; nothing was interrupted or deleted.
    expect(fake.views()[0]?.query).toMatchObject({ subfolder: "roomcanvas", type: "output" });
    expect(fake.interrupts()).toHaveLength(0);
    expect(fake.queueDeletes()).toHaveLength(0);
    // The noise really was there: a preview frame's neighbours named another prompt, ended and failed.
    expect(fake.sent.filter((message) => message.data.prompt_id === "another-clients-prompt").map((message) => message.type)).toContain(
      "execution_error",
    );
  });

  it("chooses a seed in 0..2147483647 when none is asked for, sends it as a number and reports it", async () => {
    const first = await provider().render(renderRequest());
    const second = await provider().render(renderRequest());
    for (const [index, result] of [first, second].entries()) {
      expect(Number.isInteger(result.seed)).toBe(true);
      expect(result.seed).toBeGreaterThanOrEqual(0);
      expect(result.seed).toBeLessThanOrEqual(RENDER.maxSeed);
      expect(queuedGraph(index)["12"]!.inputs.seed).toBe(result.seed);
    }
  });

  it("stages with stage.json and a higher denoise, declutters with restyle.json, the declutter prompt and a low denoise; strong structure repaints less and holds harder", async () => {
    const comfy = provider();
    const cases = [
      { renderMode: "stage", structure: "normal", template: "stage", denoise: 0.85, depth: 0.4, lines: 0.65, words: /virtually staged/ },
      {
        renderMode: "declutter",
        structure: "normal",
        template: "restyle",
        denoise: 0.35,
        depth: 0.75,
        lines: 0.6,
        words: /clutter removed/,
      },
      { renderMode: "redesign", structure: "strong", template: "restyle", denoise: 0.45, depth: 0.85, lines: 0.75, words: /redesigned in/ },
      { renderMode: "stage", structure: "strong", template: "stage", denoise: 0.75, depth: 0.55, lines: 0.85, words: /virtually staged/ },
    ] as const;
    for (const [index, expected] of cases.entries()) {
      const result = await comfy.render(renderRequest({ renderMode: expected.renderMode, structure: expected.structure }));
      const label = `${expected.renderMode}/${expected.structure}`;
      expect(result.parameters, label).toMatchObject({
        template: expected.template,
        denoise: expected.denoise,
        controlnetDepthStrength: expected.depth,
        controlnetLinesStrength: expected.lines,
      });
      expect(result.prompt, label).toMatch(expected.words);
      const graph = queuedGraph(index);
      expect(graph["14"]!.inputs.filename_prefix, label).toBe(`roomcanvas/${expected.template}`);
      expect(graph["12"]!.inputs.denoise, label).toBe(expected.denoise);
      expect([graph["7"]!.inputs.strength, graph["10"]!.inputs.strength], label).toEqual([expected.depth, expected.lines]);
      expect(graph["4"]!.inputs.text, label).toBe(buildNegativePrompt("room-photo", expected.renderMode));
    }
  });

  it("fails for good, naming the node and its error, when ComfyUI refuses the workflow (400 with node_errors)", async () => {
    fake.models.checkpoints = ["juggernautXL_v9.safetensors"];
    const error = await rejection(provider().render(renderRequest()));
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(error.message).toBe(
      `ComfyUI refused the restyle workflow: Prompt outputs failed validation — node 1 (CheckpointLoaderSimple): Value not in list: ckpt_name: '${CHECKPOINT}' not in ["juggernautXL_v9.safetensors"]`,
    );
    expect(fake.prompts.size).toBe(0);
    expect(fake.interrupts()).toHaveLength(0);
  });

  it("fails with ComfyUI's exception message when execution_error arrives mid-run", async () => {
    fake.script({ outcome: "error", errorAfterStep: 2 });
    const progress: number[] = [];
    const error = await rejection(provider().render(renderRequest({ onProgress: (fraction) => progress.push(fraction) })));
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(error.message).toBe("ComfyUI failed in node 12 (KSampler): CUDA out of memory. Tried to allocate 2.50 GiB");
    expect(progress).toEqual([0.25, 0.5]);
    // The prompt ended on its own: nothing to cancel.
    expect(fake.interrupts()).toHaveLength(0);
    expect(fake.queueDeletes()).toHaveLength(0);
  });

  it("polls /history when the WebSocket drops mid-run, and still returns the image", async () => {
    fake.script({ steps: 6, stepDelayMs: 30, dropSocketAfterStep: 2 });
    const progress: number[] = [];
    const result = await provider().render(renderRequest({ onProgress: (fraction) => progress.push(fraction) }));
    expect(result.image.equals(fake.image)).toBe(true);
    expect(fake.historyReads().length).toBeGreaterThan(1);
    expect(fake.prompts.get(promptIds()[0]!)?.state).toBe("success");
    expect(progress[0]).toBeCloseTo(1 / 6);
    expect(progress.at(-1)).toBe(1);
  });

  it("polls /history from the start when the WebSocket cannot connect", async () => {
    fake.script({ refuseSocket: true, stepDelayMs: 10 });
    const result = await provider().render(renderRequest());
    expect(result.image.equals(fake.image)).toBe(true);
    expect(fake.upgrades).toEqual([expect.objectContaining({ accepted: false })]);
    expect(fake.historyReads().length).toBeGreaterThanOrEqual(1);
  });

  it("speaks the plain routes (not /api/…), in order: upload, prompt, history, view", async () => {
    await provider().render(renderRequest());
    const calls = fake.requests.map((request) => `${request.method} ${request.path}`);
    // History may be read twice: ComfyUI stores it just after sending execution_success.
    expect(calls.filter((call, index) => call !== calls[index - 1])).toEqual([
      "POST /upload/image",
      "POST /prompt",
      `GET /history/${promptIds()[0]}`,
      "GET /view",
    ]);
    expect(fake.upgrades.map((upgrade) => upgrade.path)).toEqual(["/ws"]);
  });

  it("cancel: takes the prompt out of the queue and interrupts it, and rejects at once", async () => {
    // 50 steps of 200 ms: the render would go on for 10 s; the cancel ends it at once.
    fake.script({ steps: 50, stepDelayMs: 200 });
    const controller = new AbortController();
    let abortedAt = 0;
    const rendering = provider().render(
      renderRequest({
        signal: controller.signal,
        onProgress: () => {
          abortedAt = Date.now();
          controller.abort();
        },
      }),
    );
    const error = await rejection(rendering);
    expect(error.name).toBe("AbortError");
    expect(Date.now() - abortedAt).toBeLessThan(5000);
    const [promptId] = promptIds();
    expect(fake.queueDeletes().map((request) => request.json)).toEqual([{ delete: [promptId] }]);
    expect(fake.interrupts().map((request) => request.json)).toEqual([{ prompt_id: promptId }]);
    expect(fake.prompts.get(promptId!)?.state).toBe("interrupted");
  });

  it("cancel while the prompt still waits behind another: only takes it out of the queue, interrupting nobody", async () => {
    fake.script({ queueDelayMs: 60_000 });
    const controller = new AbortController();
    const watch = watchingQueue();
    const rendering = rejection(provider({ fetch: watch.fetch }).render(renderRequest({ signal: controller.signal })));
    // Aborted once the adapter has the prompt's id (POST /prompt answered), not a moment after the box got it.
    await waitUntil(() => fake.prompts.size === 1 && watch.queued() === 1, { message: "the prompt to be queued", intervalMs: 5 });
    controller.abort();
    expect((await rendering).name).toBe("AbortError");
    expect(fake.queueDeletes()).toHaveLength(1);
    expect(fake.interrupts()).toHaveLength(0);
    expect(fake.prompts.get(promptIds()[0]!)?.state).toBe("deleted");
  });

  it("a box slower than the deadline: rejects when the signal aborts, following the WebSocket or polling, and stops the prompt", async () => {
    for (const refuseSocket of [false, true]) {
      fake.script({ outcome: "hang", stepDelayMs: 5, refuseSocket });
      // The deadline passes while the box runs the prompt and the adapter follows it (its progress on
      // the socket, or /history read without one): the signal aborts as AbortSignal.timeout's does,
      // then, not at a fixed 400 ms that a busy machine may reach before the prompt is queued.
      const deadline = new AbortController();
      const historyReads = fake.historyReads().length;
      let progressed = false;
      const rendering = rejection(provider().render(renderRequest({ signal: deadline.signal, onProgress: () => (progressed = true) })));
      await waitUntil(() => progressed || fake.historyReads().length > historyReads, {
        message: `the running prompt to be followed (refuseSocket: ${refuseSocket})`,
        intervalMs: 5,
      });
      const abortedAt = Date.now();
      deadline.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
      const error = await rendering;
      expect(error.name, `refuseSocket: ${refuseSocket}`).toBe("TimeoutError");
      expect(Date.now() - abortedAt).toBeLessThan(2000);
    }
    const ids = promptIds();
    expect(fake.interrupts().map((request) => request.json)).toEqual(ids.map((id) => ({ prompt_id: id })));
    expect(fake.queueDeletes().map((request) => request.json)).toEqual(ids.map((id) => ({ delete: [id] })));
    expect(ids.map((id) => fake.prompts.get(id)?.state)).toEqual(["interrupted", "interrupted"]);
  });

  it("fails for good when someone interrupts the prompt at the box", async () => {
    fake.script({ outcome: "hang" });
    const rendering = rejection(provider().render(renderRequest()));
    await waitUntil(() => fake.prompts.get(promptIds()[0] ?? "")?.state, {
      until: (state) => state === "running",
      message: "the prompt to run",
      timeoutMs: 5000,
      intervalMs: 5,
    });
    await fetch(`${fake.url}/interrupt`, { method: "POST" });
    const error = await rendering;
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(error.message).toBe("The render was canceled on the ComfyUI server");
  });

  it("answers 429 and 5xx on upload and prompt, and network trouble, with a retryable error; retries /history and /view hiccups itself", async () => {
    fake.script({ uploadReplies: [{ status: 503 }] });
    const unavailable = await rejection(provider().render(renderRequest()));
    expect(unavailable).toBeInstanceOf(TransientRenderError);
    expect(unavailable.message).toBe("ComfyUI is unavailable (HTTP 503)");

    fake.script({ promptReplies: [{ status: 429, headers: { "retry-after": "3" } }] });
    const busy = await rejection(provider().render(renderRequest()));
    expect(busy).toBeInstanceOf(RetryableRenderError);
    expect((busy as TransientRenderError).retryAfterMs).toBe(3000);
    expect(fake.prompts.size).toBe(0);

    const port = await closedPort();
    const unreachable = await rejection(provider({ baseUrl: `http://127.0.0.1:${port}` }).render(renderRequest()));
    expect(unreachable).toBeInstanceOf(TransientRenderError);
    expect(unreachable.message).toBe("ComfyUI could not be reached");

    // Once queued, a hiccup is retried here: queuing again would render twice.
    fake.script({ refuseSocket: true, historyReplies: [{ status: 502 }, { status: 503 }], viewReplies: [{ status: 500 }] });
    const result = await provider({ pollIntervalMs: 5 }).render(renderRequest());
    expect(result.image.equals(fake.image)).toBe(true);
    expect(fake.prompts.size).toBe(1);
  });

  it("fails for good on answers that make no sense", async () => {
    fake.script({ uploadReplies: [{ status: 200, body: "<html>proxy login</html>" }] });
    expect((await rejection(provider().render(renderRequest()))).message).toBe("ComfyUI returned an unexpected answer to the upload");

    fake.script({ promptReplies: [{ status: 200, body: JSON.stringify({ number: 3 }) }] });
    expect((await rejection(provider().render(renderRequest()))).message).toBe("ComfyUI returned an unexpected answer to the workflow");

    fake.script({ output: "none" });
    const none = await rejection(provider().render(renderRequest()));
    expect(none).toBeInstanceOf(PermanentRenderError);
    expect(none.message).toBe("ComfyUI finished without an image from the output node 14 (SaveImage)");

    fake.script({ output: "not-an-image" });
    expect((await rejection(provider().render(renderRequest()))).message).toBe("ComfyUI's output is not a picture");

    const notAPicture = await rejection(provider().render(renderRequest({ image: Buffer.from("not a jpeg") })));
    expect(notAPicture).toBeInstanceOf(PermanentRenderError);
    expect(fake.interrupts()).toHaveLength(0);
  });

  it("inpaints: uploads the photo and the mask, queues inpaint.json with the inpainting checkpoint and denoise 1", async () => {
    const comfy = provider();
    const request = renderRequest({ seed: 7 });
    const result = await comfy.inpaint({ image: request.image, mask, prompt: "a green velvet sofa", seed: 7, signal: request.signal });
    expect(result.prompt).toMatch(/^a green velvet sofa, photorealistic/);
    expect(result.image.equals(fake.image)).toBe(true);
    expect(result).toMatchObject({ model: INPAINT_CHECKPOINT, seed: 7, parameters: { template: "inpaint", denoise: 1 } });
    const [photo, maskUpload] = fake.uploadsReceived;
    expect(photo!.bytes.equals(room)).toBe(true);
    expect(maskUpload!.bytes.equals(mask)).toBe(true);
    expect(maskUpload!.mime).toBe("image/png");
    const graph = queuedGraph();
    expect(graph["1"]!.inputs.ckpt_name).toBe(INPAINT_CHECKPOINT);
    expect(graph["2"]!.inputs.image).toBe(`roomcanvas/${photo!.name}`);
    expect(graph["3"]).toMatchObject({ class_type: "LoadImageMask", inputs: { image: `roomcanvas/${maskUpload!.name}`, channel: "red" } });
    expect(graph["7"]!.inputs).toMatchObject({ seed: 7, denoise: 1 });
    expect(graph["4"]!.inputs.text).toBe(result.prompt);
  });

  it("asks for a top view of a floor plan, the picture its ControlNets can make from one (decision 067)", async () => {
    await provider().render(renderRequest({ mode: "floor-plan" }));
    const graph = queuedGraph();
    expect(graph["3"]!.inputs.text).toMatch(/^A photorealistic top-down 3D render of this floor plan of a living room/);
    expect(graph["4"]!.inputs.text).toBe(buildNegativePrompt("floor-plan", "redesign", "top-down"));
    expect(graph["4"]!.inputs.text).not.toContain("top-down view");
  });

  it("capabilities and label: AI, every mode (three for rooms, three for exteriors), seeds, percent progress, structure strength, 1024 px, masks (the inpaint template), no upscale", () => {
    const comfy = provider();
    expect(comfy.id).toBe("comfyui");
    expect(comfy.label).toBe(`ComfyUI (${CHECKPOINT})`);
    expect(comfy.capabilities).toEqual(COMFYUI_CAPABILITIES);
    expect(COMFYUI_CAPABILITIES).toEqual({
      isAi: true,
      modes: ["redesign", "stage", "declutter", "sky", "twilight", "garden"],
      maxOutputLongEdge: 1024,
      seeds: true,
      percentProgress: true,
      masks: true,
      upscale: false,
      structureStrength: true,
      floorPlan: "top-down",
    });
    expect(comfy.upscale).toBeUndefined();
  });
});

describe("ComfyUI behind an authenticating proxy", () => {
  let guarded: FakeComfyUi;
  beforeEach(async () => {
    guarded = await startFakeComfyUi({ token: "studio-secret" });
  });
  afterEach(async () => {
    await guarded.close();
  });

  it("sends the bearer token on every HTTP request, the WebSocket upgrade and the cancel calls", async () => {
    const comfy = provider({ baseUrl: guarded.url, token: "studio-secret" });
    const progress: number[] = [];
    await comfy.render(renderRequest({ onProgress: (fraction) => progress.push(fraction) }));
    // Progress arrived over the socket: the upgrade was let in with the token.
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    expect(guarded.upgrades).toEqual([
      expect.objectContaining({ accepted: true, headers: expect.objectContaining({ authorization: "Bearer studio-secret" }) }),
    ]);

    guarded.script({ outcome: "hang" });
    // The deadline passes once the prompt runs (its first progress), not at a fixed 300 ms a busy
    // machine may reach before the prompt is queued (then there would be nothing to cancel).
    const deadline = new AbortController();
    const timedOut = () => deadline.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    await rejection(comfy.render(renderRequest({ signal: deadline.signal, onProgress: timedOut })));
    expect(guarded.interrupts()).toHaveLength(1);
    expect(guarded.queueDeletes()).toHaveLength(1);
    expect(guarded.requests.length).toBeGreaterThan(6);
    expect(guarded.requests.every((request) => request.headers.authorization === "Bearer studio-secret")).toBe(true);
  });

  it("fails for good saying the token was refused (401), or that one is needed", async () => {
    const refused = await rejection(provider({ baseUrl: guarded.url, token: "wrong" }).render(renderRequest()));
    expect(refused).toBeInstanceOf(PermanentRenderError);
    expect(refused.message).toBe("ComfyUI refused the token (HTTP 401): check COMFYUI_TOKEN");
    const missing = await rejection(provider({ baseUrl: guarded.url, token: undefined }).render(renderRequest()));
    expect(missing.message).toBe("ComfyUI asked for a token (HTTP 401): set COMFYUI_TOKEN");
    expect(guarded.prompts.size).toBe(0);
  });
});

describe("ComfyUI workflow templates", () => {
  const shipped = (name: string) => JSON.parse(fs.readFileSync(path.join(SHIPPED_WORKFLOW_DIR, `${name}.json`), "utf8")) as ApiGraph;

  it("the shipped templates load and validate: every placeholder present, every link to an existing node's output, one output node", () => {
    const workflows = loadWorkflows();
    const outputs: Record<string, number> = {
      CheckpointLoaderSimple: 3,
      LoadImage: 2,
      LoadImageMask: 1,
      CLIPTextEncode: 1,
      DepthAnythingPreprocessor: 1,
      "M-LSDPreprocessor": 1,
      ControlNetLoader: 1,
      ControlNetApplyAdvanced: 2,
      VAEEncode: 1,
      VAEEncodeForInpaint: 1,
      KSampler: 1,
      VAEDecode: 1,
      ImageCompositeMasked: 1,
      UpscaleModelLoader: 1,
      ImageUpscaleWithModel: 1,
      ImageScale: 1,
      VAEEncodeTiled: 1,
      VAEDecodeTiled: 1,
      SaveImage: 0,
    };
    for (const name of TEMPLATE_NAMES) {
      // Read independently of the loader, so the check does not only trust it.
      const graph = shipped(name);
      const used = new Set<string>();
      for (const [id, node] of Object.entries(graph)) {
        expect(Object.keys(outputs), `${name} node ${id}`).toContain(node.class_type);
        for (const [input, value] of Object.entries(node.inputs)) {
          if (typeof value === "string" && value.startsWith("{{")) used.add(value.slice(2, -2));
          if (Array.isArray(value)) {
            const [target, index] = value as [string, number];
            expect(graph[target], `${name} node ${id}.${input} → ${target}`).toBeDefined();
            expect(index, `${name} node ${id}.${input} → ${target}[${index}]`).toBeLessThan(outputs[graph[target]!.class_type]!);
          }
        }
      }
      expect([...used].sort(), name).toEqual([...REQUIRED_PLACEHOLDERS[name]].sort());
      expect(Object.keys(PLACEHOLDERS)).toEqual(expect.arrayContaining([...used]));
      expect(workflows[name].file).toBe(path.join(SHIPPED_WORKFLOW_DIR, `${name}.json`));
      expect(graph[workflows[name].outputNode]).toMatchObject({ class_type: "SaveImage", _meta: { title: "{{output}}" } });
      // The plain upscale has no sampler: every progress bar in it (the upscale model's tiles) counts.
      expect(workflows[name].samplerNodes.map((id) => graph[id]!.class_type)).toEqual(name === "upscale" ? [] : ["KSampler"]);
    }
    // Both ControlNets hold the restyle and stage renders: a depth map and straight lines.
    for (const name of ["restyle", "stage"] as const) {
      const classes = Object.values(shipped(name)).map((node) => node.class_type);
      expect(
        classes.filter((type) => type === "ControlNetApplyAdvanced"),
        name,
      ).toHaveLength(2);
      expect(classes, name).toEqual(expect.arrayContaining(["DepthAnythingPreprocessor", "M-LSDPreprocessor", "VAEEncode", "KSampler"]));
    }
    expect(Object.values(shipped("inpaint")).map((node) => node.class_type)).toEqual(
      expect.arrayContaining(["LoadImageMask", "VAEEncodeForInpaint", "ImageCompositeMasked"]),
    );
  });

  function workflowDir(files: Record<string, unknown>): string {
    const dir = makeTempDir("comfyui-workflows-");
    for (const [name, content] of Object.entries(files)) {
      fs.writeFileSync(path.join(dir, name), typeof content === "string" ? content : JSON.stringify(content, null, 2));
    }
    return dir;
  }

  it("refuses at creation a workflow lacking a placeholder, naming the file and the placeholder; boot takes the same path", () => {
    const restyle = shipped("restyle");
    restyle["12"]!.inputs.seed = 42;
    const dir = workflowDir({ "restyle.json": restyle });
    const file = path.join(dir, "restyle.json");
    expect(() => provider({ workflowDir: dir })).toThrow(WorkflowError);
    expect(() => provider({ workflowDir: dir })).toThrow(`ComfyUI workflow ${file}: lacks the placeholder {{seed}}`);

    // What boot does with RENDER_PROVIDER=comfyui (render/index.ts → createRenderProvider).
    const env = parseEnv({ RENDER_PROVIDER: "comfyui", COMFYUI_URL: fake.url, COMFYUI_WORKFLOW_DIR: dir, DATA_DIR: makeTempDir() });
    expect(() => createRenderProvider(env, new PredictionWaiters())).toThrow(`ComfyUI workflow ${file}: lacks the placeholder {{seed}}`);

    delete restyle["6"];
    restyle["7"]!.inputs.strength = 1;
    const two = workflowDir({ "restyle.json": restyle });
    expect(() => provider({ workflowDir: two })).toThrow(
      /lacks the placeholders \{\{seed\}\}, \{\{controlnet_depth\}\}, \{\{depth_strength\}\}/,
    );
  });

  it("refuses other broken templates at creation: unknown or partial placeholders, the editor's format, dangling links, no output node, bad JSON, an empty dir", () => {
    const refused = (files: Record<string, unknown>) => {
      try {
        provider({ workflowDir: workflowDir(files) });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected the workflow to be refused");
    };
    const withInput = (node: string, input: string, value: unknown) => {
      const graph = shipped("stage");
      graph[node]!.inputs[input] = value;
      return { "stage.json": graph };
    };
    expect(refused(withInput("12", "seed", "{{sed}}"))).toMatch(/stage\.json: node 12 input seed: unknown placeholder \{\{sed\}\}/);
    expect(refused(withInput("3", "text", "{{prompt}}, masterpiece"))).toMatch(/node 3 input text: a placeholder must be the whole value/);
    expect(refused(withInput("2", "image", "{{mask}}"))).toMatch(/\{\{mask\}\} is not given to the stage workflow/);
    expect(refused(withInput("12", "model", ["99", 0]))).toMatch(/node 12 input model links to node 99, which is not in the workflow/);
    const noOutput = shipped("stage");
    delete noOutput["14"];
    expect(refused({ "stage.json": noOutput })).toMatch(/stage\.json: no output node/);
    expect(refused({ "stage.json": { nodes: [], links: [], version: 0.4 } })).toMatch(
      /editor's format; export the workflow with Export \(API\)/,
    );
    expect(refused({ "stage.json": "{ not json" })).toMatch(/stage\.json is not valid JSON/);
    expect(refused({ "notes.txt": "hello" })).toMatch(/holds none of restyle\.json, stage\.json, inpaint\.json/);
  });

  it("renders with an operator's own workflow: its output node titled {{output}}, its sampler settings, the shipped files for the rest", async () => {
    const own = shipped("restyle");
    own["12"]!.inputs.steps = 20;
    // A second SaveImage (say, the depth map for checking) next to the result, which is marked.
    own["14"]!._meta = { title: "Result" };
    own["15"] = { class_type: "SaveImage", inputs: { images: ["13", 0], filename_prefix: "mine/result" }, _meta: { title: "{{output}}" } };
    own["16"] = { class_type: "SaveImage", inputs: { images: ["5", 0], filename_prefix: "mine/depth" } };
    const comfy = provider({ workflowDir: workflowDir({ "restyle.json": own }) });
    expect(comfy.workflows.restyle.outputNode).toBe("15");
    expect(comfy.workflows.stage.file).toBe(path.join(SHIPPED_WORKFLOW_DIR, "stage.json"));
    const result = await comfy.render(renderRequest());
    expect(result.image.equals(fake.image)).toBe(true);
    expect(result.parameters).toMatchObject({ workflow: "COMFYUI_WORKFLOW_DIR", steps: 20 });
    expect(fake.views()[0]?.query).toMatchObject({ subfolder: "mine", filename: expect.stringMatching(/^result_/) });
  });

  it("takes its options from the environment", () => {
    const base = { RENDER_PROVIDER: "comfyui", COMFYUI_URL: "http://gpu-box:8188", COMFYUI_TOKEN: "t", DATA_DIR: makeTempDir() };
    const env = parseEnv(base);
    expect(comfyUiOptionsFromEnv(env)).toEqual({
      baseUrl: "http://gpu-box:8188",
      token: "t",
      workflowDir: undefined,
      checkpoint: CHECKPOINT,
      controlnetDepth: DEPTH,
      controlnetLines: LINES,
      inpaintCheckpoint: INPAINT_CHECKPOINT,
      upscaleModel: "RealESRGAN_x4plus.pth",
      upscaleRefine: false,
    });
    expect(createRenderProvider(env, new PredictionWaiters()).id).toBe("comfyui");
    const own = parseEnv({ ...base, COMFYUI_UPSCALE_MODEL: "4x-UltraSharp.pth", COMFYUI_UPSCALE_REFINE: "true" });
    expect(comfyUiOptionsFromEnv(own)).toMatchObject({ upscaleModel: "4x-UltraSharp.pth", upscaleRefine: true });
    expect(createRenderProvider(own, new PredictionWaiters()).capabilities.upscale).toBe(true);
    // "none" turns the upscaler off (an empty value means unset, so the default).
    const none = parseEnv({ ...base, COMFYUI_UPSCALE_MODEL: "none" });
    expect(comfyUiOptionsFromEnv(none).upscaleModel).toBeUndefined();
    expect(createRenderProvider(none, new PredictionWaiters()).capabilities.upscale).toBe(false);
    expect(createRenderProvider(none, new PredictionWaiters()).upscale).toBeUndefined();
    expect(comfyUiOptionsFromEnv(parseEnv({ ...base, COMFYUI_UPSCALE_MODEL: "" })).upscaleModel).toBe("RealESRGAN_x4plus.pth");
    expect(() => parseEnv({ ...base, COMFYUI_UPSCALE_REFINE: "maybe" })).toThrow(/COMFYUI_UPSCALE_REFINE: expected true or false/);
  });
});

describe("the self-test's render-provider check for ComfyUI", () => {
  it("reports the GPU and free VRAM from /system_stats, a refused or missing token, and an unreachable box", async () => {
    const guarded = await startFakeComfyUi({ token: "studio-secret" });
    const env = parseEnv({ DATA_DIR: makeTempDir() });
    try {
      const base = { ...env, RENDER_PROVIDER: "comfyui", COMFYUI_URL: guarded.url, COMFYUI_TOKEN: "studio-secret" } as const;
      expect(await checkRenderProvider(base)).toMatchObject({
        ok: true,
        detail:
          "ComfyUI reachable (cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync, 22 GiB VRAM free); upscale model RealESRGAN_x4plus.pth installed",
      });
      expect(await checkRenderProvider({ ...base, COMFYUI_UPSCALE_MODEL: "none" })).toMatchObject({
        ok: true,
        detail: "ComfyUI reachable (cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync, 22 GiB VRAM free)",
      });
      expect(guarded.requests.at(-1)).toMatchObject({ path: "/system_stats", headers: { authorization: "Bearer studio-secret" } });
      expect(guarded.objectInfoReads()[0]).toMatchObject({
        path: "/object_info/UpscaleModelLoader",
        headers: { authorization: "Bearer studio-secret" },
      });
      expect(await checkRenderProvider({ ...base, COMFYUI_TOKEN: "wrong" })).toMatchObject({
        ok: false,
        detail: "ComfyUI refused the token (HTTP 401)",
      });
      expect(await checkRenderProvider({ ...base, COMFYUI_TOKEN: undefined })).toMatchObject({
        ok: false,
        detail: "ComfyUI asked for a token (HTTP 401); set COMFYUI_TOKEN",
      });
    } finally {
      await guarded.close();
    }
    const port = await closedPort();
    const unreachable = await checkRenderProvider({ ...env, RENDER_PROVIDER: "comfyui", COMFYUI_URL: `http://127.0.0.1:${port}` });
    expect(unreachable.ok).toBe(false);
    expect(unreachable.detail).toMatch(/^ComfyUI could not be reached: fetch failed \(connect ECONNREFUSED/);
    expect(await checkRenderProvider({ ...env, RENDER_PROVIDER: "comfyui" })).toMatchObject({
      ok: false,
      detail: "COMFYUI_URL is not set",
    });
  });
});

describe("a render through the real server with RENDER_PROVIDER=comfyui", () => {
  let server: TestServer;
  let box: FakeComfyUi;
  beforeAll(async () => {
    box = await startFakeComfyUi({ token: "studio-secret" });
    server = await startTestServer({ RENDER_PROVIDER: "comfyui", COMFYUI_URL: box.url, COMFYUI_TOKEN: "studio-secret" });
  });
  afterAll(async () => {
    await server?.stop();
    await box?.close();
  });

  it("succeeds with live percent events, stores the image ComfyUI made, and records the engine on the job", async () => {
    // Slow enough steps for the worker's progress events (at most one per 250 ms) to show several.
    box.script({ steps: 5, stepDelayMs: 300 });
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1600, 1200));
    expect(uploaded.status).toBe(201);
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    const jobId = jobs[0]!.id;
    const events = await collectEvents(user, { jobId }, (seen) => seen.some((event) => isFinal(event.event)));

    expect(events.at(-1)!.event.type).toBe("succeeded");
    const percents = events.flatMap((event) =>
      event.event.type === "rendering" && event.event.percent !== null ? [event.event.percent] : [],
    );
    expect(percents.length).toBeGreaterThanOrEqual(2);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.every((percent) => percent > 0 && percent < 100)).toBe(true);

    const row = await server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "succeeded", provider: "comfyui", model: CHECKPOINT });
    const stored = await server.deps.storage.get(UPLOAD_BUCKET, row.result_key!);
    expect(stored?.data.equals(box.image)).toBe(true);

    // What ComfyUI was given: the worker's prepared photo (1024 px long edge) and a Japandi prompt.
    const photo = await sharp(box.uploadsReceived[0]!.bytes).metadata();
    expect(Math.max(photo.width!, photo.height!)).toBe(RENDER.providerInputLongEdge);
    expect((box.queued()[0]?.json as { prompt: ApiGraph }).prompt["3"]!.inputs.text).toContain("Japandi");
    expect(box.upgrades[0]).toMatchObject({ accepted: true });
  });
});
