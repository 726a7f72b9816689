/**
 * The Replicate adapter against a fake Replicate API on loopback that speaks the documented
 * protocol, and the webhook route on a real express app.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PermanentRenderError, RetryableRenderError, type RenderRequest } from "../../src/server/render/engines/provider";
import { buildNegativePrompt, buildPrompt, cleanUserNote, MAX_NOTE_LENGTH } from "../../src/server/render/engines/prompt";
import { STYLE_DESCRIPTIONS } from "../../src/server/render/engines/styles";
import {
  abortableSleep,
  createReplicateProvider,
  progressFromLogs,
  TransientRenderError,
  type ReplicateProviderOptions,
} from "../../src/server/render/engines/replicate";
import { PredictionWaiters, replicateWebhookHandler, verifyReplicateSignature } from "../../src/server/render/engines/replicate-webhook";
import { DESIGN_STYLES } from "../../src/shared/styles";
import { postSignedWebhook, signReplicateWebhook, startFakeReplicate, type FakeReplicate } from "../helpers/fake-replicate";
import { engineRequest, noisyRoomPhoto } from "../helpers/engine-request";
import { waitUntil } from "../helpers/wait";

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const VERSION = "76604baddc85b1b4616e1c6475eca080da339c8875bd4996705440484a6eac38";

let room: Buffer;
let fake: FakeReplicate;

beforeAll(async () => {
  room = await noisyRoomPhoto();
});

beforeEach(async () => {
  fake = await startFakeReplicate({ webhookSecret: WEBHOOK_SECRET });
});

afterEach(async () => {
  await fake.close();
});

function renderRequest(overrides: Partial<RenderRequest> = {}): RenderRequest {
  return engineRequest(room, overrides);
}

function provider(overrides: Partial<ReplicateProviderOptions> = {}) {
  return createReplicateProvider({
    token: fake.token,
    model: "adirik/interior-design",
    baseUrl: fake.url,
    pollIntervalMs: 5,
    ...overrides,
  });
}

/** A sleep that records what the adapter asked for and waits 1 ms instead. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: (ms: number, signal: AbortSignal) => (waits.push(ms), abortableSleep(1, signal)) };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the prompt", () => {
  it("describes every style in words and keeps the structure in place", () => {
    for (const style of DESIGN_STYLES) expect(STYLE_DESCRIPTIONS[style].length).toBeGreaterThan(40);
    const prompt = buildPrompt({ style: "scandinavian", roomType: "kids-room", mode: "room-photo" });
    expect(prompt).toContain("light wood");
    expect(prompt).toContain("children's room");
    expect(prompt).toMatch(/keep the walls, windows, doors and room layout/i);
  });

  it("asks for a photorealistic room from a floor plan, and not for a drawing", () => {
    const prompt = buildPrompt({ style: "industrial", roomType: "kitchen", mode: "floor-plan" });
    expect(prompt).toMatch(/photorealistic .*kitchen described by this floor plan/);
    expect(buildNegativePrompt("floor-plan")).toContain("blueprint");
    expect(buildNegativePrompt("room-photo")).not.toContain("blueprint");
  });

  it("appends the user's note on one line, trimmed, at most 500 characters", () => {
    expect(cleanUserNote(undefined)).toBe("");
    expect(cleanUserNote("   ")).toBe("");
    expect(cleanUserNote("  green sofa,\n\nno rug \u0007 ")).toBe("green sofa, no rug");
    const long = cleanUserNote(`${"a".repeat(499)}😀😀😀`);
    expect(Array.from(long)).toHaveLength(MAX_NOTE_LENGTH);
    expect(long.endsWith("😀")).toBe(true);
    expect(buildPrompt({ style: "modern", roomType: "bedroom", mode: "room-photo", note: " a green sofa " })).toMatch(/a green sofa$/);
  });
});

describe("progress from Replicate logs", () => {
  it("reads the last percentage, else the last step count", () => {
    expect(progressFromLogs("Using seed: 1\n 10%|█         | 5/50\n 45%|████▌     | 23/50 [00:02<00:03]")).toBe(0.45);
    expect(progressFromLogs("step 3/20\nstep 7/20")).toBe(0.35);
    expect(progressFromLogs("loading weights")).toBeUndefined();
    expect(progressFromLogs(undefined)).toBeUndefined();
  });
});

describe("the Replicate adapter", () => {
  it("creates by model path as documented, reports progress from the logs and returns the image", async () => {
    fake.script({ processingPolls: 3, seed: 4242 });
    const progress: number[] = [];
    const replicate = provider();
    const result = await replicate.render(renderRequest({ onProgress: (fraction) => progress.push(fraction) }));

    expect(replicate.id).toBe("replicate");
    expect(replicate.label).toBe("Replicate AI (adirik/interior-design)");
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    expect(result).toMatchObject({ mime: "image/jpeg", model: "adirik/interior-design", seed: 4242 });
    expect(result.image.equals(fake.image)).toBe(true);
    const metadata = await sharp(result.image).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({ format: "jpeg", width: 96, height: 64 });

    const [create, ...others] = fake.creates();
    expect(others).toHaveLength(0);
    expect(create?.path).toBe("/v1/models/adirik/interior-design/predictions");
    expect(create?.headers).toMatchObject({ authorization: `Bearer ${fake.token}`, prefer: "wait=5", "content-type": "application/json" });
    const body = create?.json as { version?: string; input: Record<string, unknown>; webhook?: string };
    expect(body.version).toBeUndefined();
    expect(body.webhook).toBeUndefined();
    const image = String(body.input.image);
    expect(image.startsWith("data:image/jpeg;base64,")).toBe(true);
    expect(Buffer.from(image.slice("data:image/jpeg;base64,".length), "base64").equals(room)).toBe(true);
    expect(body.input.prompt).toEqual(expect.stringContaining("light wood"));
    expect(body.input.prompt).toEqual(expect.stringContaining("living room"));
    expect(body.input.prompt).toEqual(expect.stringMatching(/Please add a reading nook by the window$/));
    expect(body.input).toMatchObject({
      negative_prompt: buildNegativePrompt("room-photo"),
      guidance_scale: 15,
      prompt_strength: 0.8,
      num_inference_steps: 50,
    });

    expect(fake.polls()).toHaveLength(4);
    expect(fake.cancels()).toHaveLength(0);
    // Provenance: the prompt exactly as sent, the other inputs without the image.
    expect(result.prompt).toBe(body.input.prompt);
    expect(result.parameters).toEqual({
      negative_prompt: buildNegativePrompt("room-photo"),
      guidance_scale: 15,
      prompt_strength: 0.8,
      num_inference_steps: 50,
    });
  });

  it("reports the prediction it made, follows one started before instead of making another, and starts anew when that one is gone or failed", async () => {
    const accepted: string[] = [];
    const work = (resume?: string) => ({ ...(resume ? { resume } : {}), onAccepted: async (id: string) => void accepted.push(id) });
    await provider().render(renderRequest({ work: work() }));
    expect(fake.creates()).toHaveLength(1);
    expect(accepted).toHaveLength(1);
    const first = accepted[0]!;

    // A takeover hands the id back: the prediction is asked about, not made again, and not reported again.
    await provider().render(renderRequest({ work: work(first) }));
    expect(fake.creates()).toHaveLength(1);
    expect(accepted).toHaveLength(1);
    expect(fake.requests.some((request) => request.method === "GET" && request.path === `/v1/predictions/${first}`)).toBe(true);

    // Unknown to Replicate (404), or failed: a new prediction, reported.
    await provider().render(renderRequest({ work: work("nosuchprediction") }));
    expect(fake.creates()).toHaveLength(2);
    fake.script({ final: "failed", error: "CUDA out of memory" });
    await expect(provider().render(renderRequest({ work: work() }))).rejects.toThrow(/CUDA out of memory/);
    const failed = accepted.at(-1)!;
    fake.script({ final: "succeeded" });
    await provider().render(renderRequest({ work: work(failed) }));
    expect(fake.creates()).toHaveLength(4);
    expect(accepted).toHaveLength(4);
  });

  it("creates by version for owner/name:version, with a floor-plan prompt", async () => {
    fake.script({ processingPolls: 0 });
    const result = await provider({ model: `adirik/interior-design:${VERSION}` }).render(
      renderRequest({ mode: "floor-plan", style: "japandi" }),
    );
    // Provenance: the model as owner/name, the version it ran as its own field.
    expect(result).toMatchObject({ model: "adirik/interior-design", modelVersion: VERSION });
    const create = fake.creates()[0];
    expect(create?.path).toBe("/v1/predictions");
    const body = create?.json as { version: string; input: { prompt: string; negative_prompt: string } };
    expect(body.version).toBe(VERSION);
    // Its ControlNets hold the plan's lines: it is asked for what it can make, a top view of the plan (decision 067).
    expect(body.input.prompt).toMatch(/photorealistic top-down 3D render of this floor plan of a living room/);
    expect(body.input.prompt).toContain("Japandi");
    expect(body.input.negative_prompt).toContain("line drawing");
    expect(body.input.negative_prompt).not.toContain("top-down view");
  });

  it("takes the last image of a list output (controlnet-hough answers [control_map, render])", async () => {
    fake.script({ processingPolls: 1, output: "url-list" });
    const result = await provider({ model: "jagilley/controlnet-hough" }).render(renderRequest());
    expect(result.mime).toBe("image/jpeg");
    expect(result.image.equals(fake.image)).toBe(true);
    expect((fake.creates()[0]?.json as { input: Record<string, unknown> }).input).toMatchObject({
      ddim_steps: 20,
      image_resolution: "512",
    });
  });

  it("fails for good with the engine's own words when the prediction fails", async () => {
    fake.script({ processingPolls: 1, final: "failed", error: "CUDA out of memory" });
    const error = await rejection(provider().render(renderRequest()));
    expect(error.message).toBe("The render engine failed: CUDA out of memory");
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(fake.cancels()).toHaveLength(0);
  });

  it("treats canceled as final and stops polling", async () => {
    fake.script({ processingPolls: 1, final: "canceled" });
    const error = await rejection(provider().render(renderRequest()));
    expect(error.message).toBe("The render was canceled by the render engine");
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(fake.polls()).toHaveLength(2);
    await delay(100);
    expect(fake.polls()).toHaveLength(2);
  });

  it("answers a 429 on create with a retryable error carrying Retry-After, and the retry succeeds", async () => {
    fake.script({ processingPolls: 1, createReplies: [{ status: 429, headers: { "retry-after": "7" } }] });
    const replicate = provider();
    const error = await rejection(replicate.render(renderRequest()));
    expect(error).toBeInstanceOf(RetryableRenderError);
    expect(error).toBeInstanceOf(TransientRenderError);
    expect((error as TransientRenderError).retryAfterMs).toBe(7000);
    expect(fake.polls()).toHaveLength(0);

    // What the worker does next: try again after the wait.
    const result = await replicate.render(renderRequest());
    expect(result.mime).toBe("image/jpeg");
    expect(fake.creates()).toHaveLength(2);
  });

  it("retries 429 and 5xx while polling inside the adapter, never creating a second prediction", async () => {
    const { waits, sleep } = recordingSleep();
    fake.script({
      processingPolls: 1,
      pollReplies: [{ status: 429, headers: { "retry-after": "3" } }, { status: 502 }, { status: 503 }],
    });
    const result = await provider({ sleep, pollIntervalMs: 1000 }).render(renderRequest());
    expect(result.image.equals(fake.image)).toBe(true);
    expect(fake.creates()).toHaveLength(1);
    expect(fake.polls()).toHaveLength(5);
    // The poll interval, then Retry-After, then backoff doubling from the interval, then the interval again.
    expect(waits).toEqual([1000, 3000, 4000, 8000, 1000]);
  });

  it("answers 5xx and network failures on create with a retryable error", async () => {
    fake.script({ createReplies: [{ status: 503 }] });
    const unavailable = await rejection(provider().render(renderRequest()));
    expect(unavailable).toBeInstanceOf(TransientRenderError);
    expect(unavailable.message).toMatch(/unavailable \(HTTP 503\)/);
    expect((unavailable as TransientRenderError).retryAfterMs).toBeUndefined();

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await rejection(provider({ baseUrl: `http://127.0.0.1:${port}` }).render(renderRequest()));
    expect(unreachable).toBeInstanceOf(TransientRenderError);
    expect(unreachable.message).toBe("The render engine could not be reached");
  });

  it("stops a slow render when the signal aborts, and cancels the prediction", async () => {
    fake.script({ final: "never" });
    const controller = new AbortController();
    const rendering = rejection(provider({ pollIntervalMs: 20 }).render(renderRequest({ signal: controller.signal })));
    // Aborted while it follows the prediction (a few polls in), however long the create took.
    await waitUntil(() => fake.polls().length, { until: (polls) => polls >= 2, message: "the prediction to be polled twice" });
    const abortedAt = Date.now();
    controller.abort();
    const error = await rendering;
    expect(error.name).toBe("AbortError");
    expect(Date.now() - abortedAt).toBeLessThan(2000);
    expect(fake.polls().length).toBeGreaterThan(1);
    expect(fake.cancels()).toHaveLength(1);
    expect(fake.cancels()[0]?.headers.authorization).toBe(`Bearer ${fake.token}`);
  });

  it("aborts a poll that hangs, cancelling the prediction; and a create that hangs", async () => {
    // Each aborted once the fake holds the hanging request, not after a delay a busy machine may outlast.
    fake.script({ pollReplies: ["hang"] });
    const polling = new AbortController();
    const pollHangs = rejection(provider().render(renderRequest({ signal: polling.signal })));
    await waitUntil(() => fake.polls().length, { until: (polls) => polls === 1, message: "the hanging poll" });
    polling.abort();
    expect((await pollHangs).name).toBe("AbortError");
    expect(fake.cancels()).toHaveLength(1);

    fake.script({ createReplies: ["hang"] });
    const creating = new AbortController();
    const createHangs = rejection(provider().render(renderRequest({ signal: creating.signal })));
    await waitUntil(() => fake.creates().length, { until: (creates) => creates === 2, message: "the hanging create" });
    creating.abort();
    expect((await createHangs).name).toBe("AbortError");
    expect(fake.creates()).toHaveLength(2);
  });

  it("fails for good on a malformed answer, cancelling a prediction it stops following", async () => {
    fake.script({ createReplies: [{ status: 201, body: '{"id": "abc", "status": "star' }] });
    const onCreate = await rejection(provider().render(renderRequest()));
    expect(onCreate.message).toBe("The render engine returned an unexpected answer");
    expect(onCreate).toBeInstanceOf(PermanentRenderError);

    fake.script({ pollReplies: [{ status: 200, body: "<html>gateway</html>", headers: { "content-type": "text/html" } }] });
    const onPoll = await rejection(provider().render(renderRequest()));
    expect(onPoll.message).toBe("The render engine returned an unexpected answer");
    expect(fake.cancels()).toHaveLength(1);

    for (const output of ["not-a-url", "missing", "not-an-image"] as const) {
      fake.script({ processingPolls: 0, output });
      const error = await rejection(provider().render(renderRequest()));
      expect(error.message, output).toBe("The render engine returned an unexpected answer");
      expect(error).toBeInstanceOf(PermanentRenderError);
    }
  });

  it("says the token was refused on 401, and passes on the engine's reason for other refusals", async () => {
    const refused = await rejection(provider({ token: "r8_wrong" }).render(renderRequest()));
    expect(refused.message).toBe("The render engine refused the API token");
    expect(refused).toBeInstanceOf(PermanentRenderError);

    fake.script({
      createReplies: [
        { status: 422, body: JSON.stringify({ title: "Input validation failed", detail: "input.prompt: String too long", status: 422 }) },
      ],
    });
    const invalid = await rejection(provider().render(renderRequest()));
    expect(invalid.message).toBe("The render engine refused the request: input.prompt: String too long");
    expect(invalid).toBeInstanceOf(PermanentRenderError);
  });
});

describe("Replicate webhook signatures", () => {
  const body = JSON.stringify({ id: "p1", status: "succeeded", output: "https://replicate.delivery/x.jpg" });
  const nowMs = Date.parse("2026-03-01T12:00:00Z");
  const timestamp = String(nowMs / 1000);
  const check = (overrides: Partial<Parameters<typeof verifyReplicateSignature>[0]> = {}) =>
    verifyReplicateSignature({
      id: "msg_1",
      timestamp,
      signatureHeader: signReplicateWebhook({ secret: WEBHOOK_SECRET, id: "msg_1", timestamp, body }),
      rawBody: Buffer.from(body),
      secret: WEBHOOK_SECRET,
      nowMs,
      ...overrides,
    });

  it("accepts a correct signature, also among others", () => {
    expect(check()).toBe(true);
    expect(check({ rawBody: body })).toBe(true);
    const good = signReplicateWebhook({ secret: WEBHOOK_SECRET, id: "msg_1", timestamp, body });
    expect(check({ signatureHeader: `v1,${Buffer.alloc(32).toString("base64")} ${good}` })).toBe(true);
    expect(check({ nowMs: nowMs + 4 * 60 * 1000 })).toBe(true);
  });

  it("refuses a wrong secret, a tampered body, a stale or future timestamp, missing headers", () => {
    const otherSecret = `whsec_${randomBytes(24).toString("base64")}`;
    expect(check({ secret: otherSecret })).toBe(false);
    expect(check({ rawBody: Buffer.from(body.replace("succeeded", "failed")) })).toBe(false);
    expect(check({ id: "msg_2" })).toBe(false);
    expect(check({ nowMs: nowMs + 6 * 60 * 1000 })).toBe(false);
    expect(check({ nowMs: nowMs - 6 * 60 * 1000 })).toBe(false);
    expect(check({ id: undefined })).toBe(false);
    expect(check({ timestamp: undefined })).toBe(false);
    expect(check({ signatureHeader: undefined })).toBe(false);
    expect(check({ signatureHeader: "v1" })).toBe(false);
    expect(check({ signatureHeader: "garbage" })).toBe(false);
    expect(check({ timestamp: "not-a-number" })).toBe(false);
  });
});

describe("the Replicate webhook route", () => {
  let app: { url: string; waiters: PredictionWaiters; close(): Promise<void> };

  beforeEach(async () => {
    const waiters = new PredictionWaiters();
    // The server keeps receipts in its database (tests/integration/replicate-webhook-route.test.ts); here, in memory.
    const receipts = new Set<string>();
    const firstReceipt = (id: string) => Promise.resolve(receipts.size < receipts.add(id).size);
    const server = express();
    server.post(
      "/webhooks/replicate",
      express.raw({ type: "*/*", limit: "5mb" }),
      replicateWebhookHandler({ secret: WEBHOOK_SECRET, waiters, now: Date.now, firstReceipt }),
    );
    const listening = await new Promise<http.Server>((resolve) => {
      const instance = server.listen(0, "127.0.0.1", () => resolve(instance));
    });
    app = {
      url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/webhooks/replicate`,
      waiters,
      close() {
        listening.closeAllConnections();
        return new Promise<void>((resolve) => listening.close(() => resolve()));
      },
    };
  });

  afterEach(async () => {
    await app.close();
  });

  it("hands a signed prediction to the render waiting for it", async () => {
    const waiting = app.waiters.wait("p1", new AbortController().signal);
    expect(
      await postSignedWebhook(app.url, JSON.stringify({ id: "p1", status: "succeeded", output: "https://x/y.jpg" }), WEBHOOK_SECRET),
    ).toBe(200);
    expect(await waiting).toMatchObject({ id: "p1", status: "succeeded", output: "https://x/y.jpg" });
    expect(app.waiters.size).toEqual({ waiting: 0, unclaimed: 0 });
  });

  it("acts on a webhook-id once: a replay of the same signed delivery is acknowledged and changes nothing", async () => {
    const body = JSON.stringify({ id: "p1", status: "succeeded", output: "https://x/y.jpg" });
    const timestamp = Math.floor(Date.now() / 1000);
    expect(await postSignedWebhook(app.url, body, WEBHOOK_SECRET, timestamp, "msg_once")).toBe(200);
    expect(await app.waiters.wait("p1", new AbortController().signal)).toMatchObject({ status: "succeeded" });
    // The same bytes, headers and signature again (a replay, or a retry of ours): 2xx, not delivered.
    expect(await postSignedWebhook(app.url, body, WEBHOOK_SECRET, timestamp, "msg_once")).toBe(200);
    expect(app.waiters.size).toEqual({ waiting: 0, unclaimed: 0 });
    // A new delivery (its own id) is handed over as before.
    expect(await postSignedWebhook(app.url, body, WEBHOOK_SECRET, timestamp, "msg_next")).toBe(200);
    expect(app.waiters.size).toEqual({ waiting: 0, unclaimed: 1 });
  });

  it("refuses bad, stale and missing signatures with 401 and malformed JSON with 400", async () => {
    const otherSecret = `whsec_${randomBytes(24).toString("base64")}`;
    expect(await postSignedWebhook(app.url, '{"id":"p1","status":"succeeded"}', otherSecret)).toBe(401);
    expect(await postSignedWebhook(app.url, '{"id":"p1","status":"succeeded"}', WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600)).toBe(
      401,
    );
    const unsigned = await fetch(app.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"id":"p1","status":"succeeded"}',
    });
    expect(unsigned.status).toBe(401);
    expect(await postSignedWebhook(app.url, '{"id": "p1", "stat', WEBHOOK_SECRET)).toBe(400);
    expect(await postSignedWebhook(app.url, '{"hello": "world"}', WEBHOOK_SECRET)).toBe(400);
    expect(app.waiters.size).toEqual({ waiting: 0, unclaimed: 0 });
  });

  it("ends a render as soon as the webhook arrives, without waiting for the next poll", async () => {
    fake.script({ completeAfterMs: 150 });
    const started = Date.now();
    const result = await provider({ webhookUrl: app.url, waiters: app.waiters, pollIntervalMs: 60_000 }).render(renderRequest());
    // Well before the poll a minute away (a margin a busy machine cannot eat).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.image.equals(fake.image)).toBe(true);
    expect(fake.polls()).toHaveLength(0);
    await expect.poll(() => fake.webhookDeliveries).toEqual([{ url: app.url, status: 200 }]);
    expect(fake.creates()[0]?.json).toMatchObject({ webhook: app.url, webhook_events_filter: ["completed"] });
  });

  it("keeps a prediction that arrives while nobody waits for the next wait, once", async () => {
    app.waiters.deliver({ id: "early", status: "succeeded" });
    expect(await app.waiters.wait("early", new AbortController().signal)).toMatchObject({ status: "succeeded" });
    const controller = new AbortController();
    const waiting = app.waiters.wait("early", controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    expect(app.waiters.size).toEqual({ waiting: 0, unclaimed: 0 });
  });
});
