/**
 * The Replicate model presets, each against the fake Replicate API (which checks every create
 * against the model's input schema and answers in the model's output shape): what each preset
 * sends, how its answer is read, the provenance of the result, the upscaler, the inpainting model,
 * and the refusal of a model without a preset at start.
 */
import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { startApp } from "../../src/server/boot";
import { PermanentRenderError, type RenderRequest } from "../../src/server/render/engines/provider";
import { buildInpaintPrompt, buildNegativePrompt } from "../../src/server/render/engines/prompt";
import { createReplicateProvider, type ReplicateProviderOptions } from "../../src/server/render/engines/replicate";
import {
  findReplicatePreset,
  REPLICATE_PRESETS,
  REPLICATE_RENDER_MODELS,
  UnknownReplicateModelError,
  upscaleFactor,
} from "../../src/server/render/engines/replicate-presets";
import { checkRenderProvider } from "../../src/server/services/system-checks";
import { startFakeReplicate, type FakeReplicate, type RecordedRequest } from "../helpers/fake-replicate";
import { makeTestEnv } from "../helpers/test-env";
import { engineRequest, noisyRoomPhoto } from "../helpers/engine-request";
import { waitUntil } from "../helpers/wait";

/** Latest versions of the community models, as GET /v1/models/{owner}/{name} names them. */
const VERSIONS = {
  "adirik/interior-design": "76604baddc85b1b4616e1c6475eca080da339c8875bd4996705440484a6eac38",
  "jagilley/controlnet-hough": "854e8727697a057c525cdb45ab037f64ecca770a1769cc52287c2e56472a247b",
  "nightmareai/real-esrgan": "42fed1c4974146d4d2414e2be2c5277c7fcf05fcc3a73abf41610695738c1d7b",
};

let room: Buffer;
let fake: FakeReplicate;

beforeAll(async () => {
  room = await noisyRoomPhoto();
});

beforeEach(async () => {
  fake = await startFakeReplicate({ communityModels: VERSIONS });
  fake.script({ processingPolls: 1 });
});

afterEach(async () => {
  await fake.close();
});

function renderRequest(overrides: Partial<RenderRequest> = {}): RenderRequest {
  return engineRequest(room, overrides);
}

function provider(model: string, overrides: Partial<ReplicateProviderOptions> = {}) {
  return createReplicateProvider({ token: fake.token, model, baseUrl: fake.url, pollIntervalMs: 5, ...overrides });
}

/** The last create the fake accepted (a 404 by name comes first for community models). */
function lastCreate(): { request: RecordedRequest; body: { version?: string; input: Record<string, unknown>; webhook?: string } } {
  const request = fake.creates().at(-1);
  if (!request) throw new Error("no create request");
  return { request, body: request.json as { version?: string; input: Record<string, unknown>; webhook?: string } };
}

/**
 * Aborts once the adapter polls a prediction it created (the fake recorded one more poll), not
 * after a fixed delay: on a busy machine the create (for a community model: a refusal by name, the
 * version look-up, then the create) can take longer than any delay, and an abort before the
 * prediction exists leaves nothing to cancel.
 */
async function abortOncePolled(controller: AbortController, model: string): Promise<void> {
  const polled = fake.polls().length;
  await waitUntil(() => fake.polls().length, { until: (polls) => polls > polled, message: `${model}'s prediction to be polled` });
  controller.abort();
}

const dataUriOf = (bytes: Buffer, mime: string) => `data:${mime};base64,${bytes.toString("base64")}`;

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

describe("the preset table", () => {
  it("has one render preset per model, each with the source of its schema; instruction editors take every mode, exteriors included", () => {
    expect(REPLICATE_RENDER_MODELS).toEqual([
      "adirik/interior-design",
      "black-forest-labs/flux-kontext-pro",
      "google/nano-banana",
      "google/nano-banana-2",
      "jagilley/controlnet-hough",
    ]);
    expect(REPLICATE_PRESETS.map((preset) => `${preset.role} ${preset.model}`)).toContain("inpaint black-forest-labs/flux-fill-pro");
    expect(REPLICATE_PRESETS.map((preset) => `${preset.role} ${preset.model}`)).toContain("upscale nightmareai/real-esrgan");
    for (const preset of REPLICATE_PRESETS) {
      expect(preset.schemaSource, preset.model).toMatch(/^https:\/\//);
      expect(preset.goodFor.length, preset.model).toBeGreaterThan(20);
    }
    const modes = (model: string) => {
      const preset = findReplicatePreset(model);
      return preset?.role === "render" ? preset.capabilities.modes : [];
    };
    for (const editor of ["black-forest-labs/flux-kontext-pro", "google/nano-banana", "google/nano-banana-2"]) {
      expect(modes(editor), editor).toEqual(["redesign", "stage", "declutter", "sky", "twilight", "garden"]);
    }
    // Diffusion repaints: decluttering (remove the mess, keep the furniture) is not theirs to offer.
    expect(modes("adirik/interior-design")).toEqual(["redesign", "stage"]);
    expect(modes("jagilley/controlnet-hough")).toEqual(["redesign", "stage"]);
  });
});

describe("a model without a preset", () => {
  it("is refused when the provider is made, naming REPLICATE_MODEL and listing the known presets, before any request", () => {
    for (const model of ["acme/mystery-model", `acme/mystery-model:${VERSIONS["adirik/interior-design"]}`]) {
      let error: unknown;
      try {
        provider(model);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, model).toBeInstanceOf(UnknownReplicateModelError);
      const message = (error as Error).message;
      expect(message).toContain(`REPLICATE_MODEL=${model} has no preset`);
      for (const known of REPLICATE_RENDER_MODELS) expect(message).toContain(known);
    }
    // The inpainting and upscale presets are not render models.
    expect(() => provider("black-forest-labs/flux-fill-pro")).toThrow(
      "REPLICATE_MODEL=black-forest-labs/flux-fill-pro is the inpaint preset, not a render one",
    );
    expect(() => provider("nightmareai/real-esrgan")).toThrow(/is the upscale preset, not a render one\. Known render presets: adirik/);
    expect(fake.requests).toHaveLength(0);
  });

  it("fails the boot with that message", async () => {
    const env = makeTestEnv({
      RENDER_PROVIDER: "replicate",
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.url,
      REPLICATE_MODEL: "acme/mystery-model",
    });
    await expect(startApp(env, { clientDir: inject("clientDir"), startWorker: false })).rejects.toThrow(
      /^REPLICATE_MODEL=acme\/mystery-model has no preset .*Known render presets: adirik\/interior-design, black-forest-labs\/flux-kontext-pro, google\/nano-banana, google\/nano-banana-2, jagilley\/controlnet-hough\.$/,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it("fails the system check with that message; a preset's check names its model and pinned version", async () => {
    const env = {
      RENDER_PROVIDER: "replicate" as const,
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.url,
      OPENAI_API_KEY: undefined,
      OPENAI_API_URL: "https://api.openai.com",
      OPENAI_MODEL: "gpt-image-1",
    };
    const unknown = await checkRenderProvider({ ...env, REPLICATE_MODEL: "acme/mystery-model" });
    expect(unknown.ok).toBe(false);
    expect(unknown.detail).toMatch(/^REPLICATE_MODEL=acme\/mystery-model has no preset .*Known render presets: adirik\/interior-design/);
    expect(
      await checkRenderProvider({ ...env, REPLICATE_MODEL: `adirik/interior-design:${VERSIONS["adirik/interior-design"]}` }),
    ).toMatchObject({
      ok: true,
      detail: "Replicate reachable (account fake), model adirik/interior-design (version 76604baddc85)",
    });
    expect(await checkRenderProvider({ ...env, REPLICATE_MODEL: "black-forest-labs/flux-kontext-pro" })).toMatchObject({
      ok: true,
      detail: "Replicate reachable (account fake), model black-forest-labs/flux-kontext-pro",
    });
  });
});

describe("adirik/interior-design (community; the default)", () => {
  it("runs by its latest version after Replicate refuses it by name, and remembers the version", async () => {
    const progress: number[] = [];
    fake.script({ processingPolls: 3 });
    const replicate = provider("adirik/interior-design");
    const result = await replicate.render(
      renderRequest({ renderMode: "stage", seed: 1234, structure: "strong", onProgress: (fraction) => progress.push(fraction) }),
    );

    const [byName, byVersion] = fake.creates();
    expect(byName?.path).toBe("/v1/models/adirik/interior-design/predictions");
    expect(fake.modelLookups().map((request) => request.path)).toEqual(["/v1/models/adirik/interior-design"]);
    expect(byVersion?.path).toBe("/v1/predictions");
    const { body } = lastCreate();
    expect(body.version).toBe(VERSIONS["adirik/interior-design"]);
    expect(Object.keys(body.input).sort()).toEqual(
      ["image", "prompt", "negative_prompt", "guidance_scale", "prompt_strength", "num_inference_steps", "seed"].sort(),
    );
    expect(body.input.image).toBe(dataUriOf(room, "image/jpeg"));
    const prompt = String(body.input.prompt);
    expect(prompt).toContain("light wood"); // the style
    expect(prompt).toContain("virtually staged"); // the render mode
    expect(prompt).toMatch(/The client also asks: Please add a reading nook by the window$/);
    expect(body.input).toMatchObject({
      negative_prompt: buildNegativePrompt("room-photo", "stage"),
      guidance_scale: 15,
      // structure "strong": less of the photo repainted.
      prompt_strength: 0.6,
      num_inference_steps: 50,
      seed: 1234,
    });

    expect(result.image.equals(fake.image)).toBe(true);
    expect(result).toMatchObject({
      mime: "image/jpeg",
      model: "adirik/interior-design",
      modelVersion: VERSIONS["adirik/interior-design"],
      seed: 1234,
      prompt,
    });
    expect(result.parameters).toEqual({
      negative_prompt: buildNegativePrompt("room-photo", "stage"),
      guidance_scale: 15,
      prompt_strength: 0.6,
      num_inference_steps: 50,
    });
    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    expect(replicate.capabilities).toMatchObject({ seeds: true, percentProgress: true, structureStrength: true, maxOutputLongEdge: 768 });

    // The next render goes straight to the version, and "normal" structure repaints 0.8 of the photo.
    await replicate.render(renderRequest());
    expect(fake.creates()).toHaveLength(3);
    expect(fake.modelLookups()).toHaveLength(1);
    expect(lastCreate().request.path).toBe("/v1/predictions");
    expect(lastCreate().body.input.prompt_strength).toBe(0.8);
    expect(lastCreate().body.input.seed).toBeUndefined();
  });

  it("refuses a render mode it does not offer, before asking Replicate", async () => {
    const error = await rejection(provider("adirik/interior-design").render(renderRequest({ renderMode: "declutter" })));
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(error.message).toBe("This render engine cannot declutter a room (adirik/interior-design: redesign, stage)");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("jagilley/controlnet-hough (community)", () => {
  it("sends the line-control inputs and takes the render, not the control map, from [control map, render]", async () => {
    fake.script({ processingPolls: 1, output: "url-list" });
    const result = await provider("jagilley/controlnet-hough").render(renderRequest({ style: "industrial", seed: 42 }));
    const { body } = lastCreate();
    expect(body.version).toBe(VERSIONS["jagilley/controlnet-hough"]);
    expect(body.input.image).toBe(dataUriOf(room, "image/jpeg"));
    expect(String(body.input.prompt)).toContain("exposed brick");
    expect(String(body.input.prompt)).toContain("redesigned in");
    expect(String(body.input.prompt)).toContain("Please add a reading nook by the window");
    expect(body.input).toMatchObject({
      n_prompt: buildNegativePrompt("room-photo"),
      ddim_steps: 20,
      image_resolution: "512",
      scale: 9,
      seed: 42,
    });
    expect(body.input.a_prompt).toBeUndefined();

    expect(result.image.equals(fake.image)).toBe(true);
    expect(result.image.equals(fake.controlMap)).toBe(false);
    expect(result).toMatchObject({ mime: "image/jpeg", model: "jagilley/controlnet-hough", seed: 42, prompt: body.input.prompt });
    expect(result.parameters).toEqual({ n_prompt: buildNegativePrompt("room-photo"), ddim_steps: 20, image_resolution: "512", scale: 9 });

    // One URL is not this model's answer: it could be the control map.
    fake.script({ processingPolls: 0, output: "url" });
    const error = await rejection(provider("jagilley/controlnet-hough").render(renderRequest()));
    expect(error.message).toBe("The render engine returned an unexpected answer");
  });
});

describe("black-forest-labs/flux-kontext-pro (official)", () => {
  it("runs by name with the instruction prompt (what to avoid folded in), the photo as a data URI and a PNG back", async () => {
    fake.script({ processingPolls: 3 });
    const progress: number[] = [];
    const replicate = provider("black-forest-labs/flux-kontext-pro");
    const result = await replicate.render(
      renderRequest({ style: "japandi", renderMode: "stage", seed: 7, onProgress: (fraction) => progress.push(fraction) }),
    );

    expect(fake.creates()).toHaveLength(1);
    const { request, body } = lastCreate();
    expect(request.path).toBe("/v1/models/black-forest-labs/flux-kontext-pro/predictions");
    expect(body.version).toBeUndefined();
    expect(Object.keys(body.input).sort()).toEqual(
      ["prompt", "input_image", "aspect_ratio", "output_format", "safety_tolerance", "prompt_upsampling", "seed"].sort(),
    );
    expect(body.input.input_image).toBe(dataUriOf(room, "image/jpeg"));
    const prompt = String(body.input.prompt);
    expect(prompt).toContain("Japandi");
    expect(prompt).toContain("virtually staged");
    expect(prompt).toContain("The client also asks: Please add a reading nook by the window");
    expect(prompt.endsWith(` Avoid: ${buildNegativePrompt("room-photo", "stage")}.`)).toBe(true);
    expect(body.input).toMatchObject({ aspect_ratio: "match_input_image", output_format: "png", prompt_upsampling: false, seed: 7 });
    expect(body.input.safety_tolerance).toBeLessThanOrEqual(2);

    expect(result.image.equals(fake.imagePng)).toBe(true);
    expect(result).toMatchObject({ mime: "image/png", model: "black-forest-labs/flux-kontext-pro", seed: 7, prompt });
    expect(result.modelVersion).toBeUndefined();
    expect(result.parameters).toEqual({
      aspect_ratio: "match_input_image",
      output_format: "png",
      safety_tolerance: 2,
      prompt_upsampling: false,
    });
    // Its logs carry no progress this adapter trusts: phases only, whatever the fake printed.
    expect(progress).toEqual([1]);
    expect(replicate.label).toBe("Replicate AI (black-forest-labs/flux-kontext-pro)");
    expect(replicate.capabilities).toMatchObject({
      seeds: true,
      percentProgress: false,
      structureStrength: false,
      masks: true,
      upscale: true,
    });
  });
});

describe("the Gemini image editors (official)", () => {
  it("google/nano-banana: the photo in image_input, no seed (it has none), a one-item list read as the image", async () => {
    fake.script({ processingPolls: 1, output: "one-item-list", seed: 31337 });
    const replicate = provider("google/nano-banana");
    const result = await replicate.render(renderRequest({ renderMode: "declutter", seed: 99 }));

    const { request, body } = lastCreate();
    expect(request.path).toBe("/v1/models/google/nano-banana/predictions");
    expect(Object.keys(body.input).sort()).toEqual(["image_input", "output_format", "prompt"]);
    expect(body.input.image_input).toEqual([dataUriOf(room, "image/jpeg")]);
    const prompt = String(body.input.prompt);
    expect(prompt).toContain("clutter removed");
    expect(prompt).toContain("The client also asks: Please add a reading nook by the window");
    expect(prompt.endsWith(` Avoid: ${buildNegativePrompt("room-photo", "declutter")}.`)).toBe(true);

    expect(result.image.equals(fake.image)).toBe(true);
    expect(result).toMatchObject({ mime: "image/jpeg", model: "google/nano-banana", prompt });
    // No seed was sent, and a number in its logs is not one.
    expect(result.seed).toBeUndefined();
    expect(result.parameters).toEqual({ output_format: "jpg" });
    expect(replicate.capabilities).toMatchObject({ seeds: false, percentProgress: false, maxOutputLongEdge: 1024 });
  });

  it("google/nano-banana-2: the same, keeping the photo's aspect ratio", async () => {
    const result = await provider("google/nano-banana-2").render(renderRequest({ style: "mid-century-modern" }));
    const { request, body } = lastCreate();
    expect(request.path).toBe("/v1/models/google/nano-banana-2/predictions");
    expect(Object.keys(body.input).sort()).toEqual(["aspect_ratio", "image_input", "output_format", "prompt"]);
    expect(body.input).toMatchObject({
      image_input: [dataUriOf(room, "image/jpeg")],
      aspect_ratio: "match_input_image",
      output_format: "jpg",
    });
    expect(String(body.input.prompt)).toContain("walnut and teak");
    expect(String(body.input.prompt)).toContain("redesigned in");
    expect(result.image.equals(fake.image)).toBe(true);
    expect(result).toMatchObject({ model: "google/nano-banana-2", prompt: body.input.prompt });
    expect(result.parameters).toEqual({ aspect_ratio: "match_input_image", output_format: "jpg" });
  });
});

describe("a set's reference picture (Apply to the whole project)", () => {
  it("goes second in image_input on the Gemini editors, with the prompt saying what it is; other presets are not given one", async () => {
    const reference = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#7a5c3e" } })
      .jpeg()
      .toBuffer();
    for (const model of ["google/nano-banana", "google/nano-banana-2"]) {
      const replicate = provider(model);
      expect(replicate.capabilities.referencePicture, model).toBe(true);
      await replicate.render(renderRequest({ reference }));
      const { body } = lastCreate();
      expect(body.input.image_input, model).toEqual([dataUriOf(room, "image/jpeg"), dataUriOf(reference, "image/jpeg")]);
      expect(String(body.input.prompt), model).toContain("The second picture shows another room of the same home");
    }
    // Without a reference, one picture and no word of a second.
    await provider("google/nano-banana").render(renderRequest());
    expect(lastCreate().body.input.image_input).toEqual([dataUriOf(room, "image/jpeg")]);
    expect(String(lastCreate().body.input.prompt)).not.toContain("second picture");
    // A preset that takes one picture neither offers references nor sends one.
    const single = provider("black-forest-labs/flux-kontext-pro");
    expect(single.capabilities.referencePicture ?? false).toBe(false);
    await single.render(renderRequest({ reference }));
    expect(JSON.stringify(lastCreate().body.input)).not.toContain(dataUriOf(reference, "image/jpeg"));
  });
});

describe("every render preset", () => {
  it("keeps the adapter's machinery: webhook asked for, 429 while polling retried, the bytes downloaded", async () => {
    for (const model of REPLICATE_RENDER_MODELS) {
      fake.script({
        processingPolls: 1,
        output: model === "jagilley/controlnet-hough" ? "url-list" : "url",
        pollReplies: [{ status: 429, headers: { "retry-after": "0" } }],
      });
      const before = fake.polls().length;
      const result = await provider(model, { webhookUrl: "http://127.0.0.1:9/webhooks/replicate" }).render(renderRequest());
      expect(lastCreate().body.webhook, model).toBe("http://127.0.0.1:9/webhooks/replicate");
      expect(fake.polls().length - before, model).toBe(3);
      expect(result.model, model).toBe(model);
      expect(await sharp(result.image).metadata(), model).toMatchObject({ width: 96, height: 64 });
    }
  });

  it("cancels the prediction when the render is aborted", async () => {
    fake.script({ final: "never" });
    for (const model of ["black-forest-labs/flux-kontext-pro", "google/nano-banana-2"]) {
      const controller = new AbortController();
      const rendering = rejection(provider(model).render(renderRequest({ signal: controller.signal })));
      await abortOncePolled(controller, model);
      const error = await rendering;
      expect(error.name, model).toBe("AbortError");
    }
    expect(fake.cancels()).toHaveLength(2);
  });
});

describe("the upscaler (nightmareai/real-esrgan)", () => {
  it("picks the whole factor that reaches the target on both edges, 2 to 10", () => {
    expect(upscaleFactor({ width: 96, height: 64, targetWidth: 300, targetHeight: 200 })).toBe(4);
    expect(upscaleFactor({ width: 1024, height: 683, targetWidth: 2048, targetHeight: 1366 })).toBe(2);
    expect(upscaleFactor({ width: 1248, height: 832, targetWidth: 4000, targetHeight: 2667 })).toBe(4);
    expect(upscaleFactor({ width: 1024, height: 768, targetWidth: 1024, targetHeight: 2400 })).toBe(4);
    expect(upscaleFactor({ width: 1000, height: 1000, targetWidth: 1200, targetHeight: 1200 })).toBe(2);
    expect(upscaleFactor({ width: 100, height: 100, targetWidth: 5000, targetHeight: 5000 })).toBe(10);
    expect(() => upscaleFactor({ width: 0, height: 100, targetWidth: 200, targetHeight: 200 })).toThrow(RangeError);
  });

  it("asks for that scale, without face enhancement, and returns the upscaled bytes with their provenance", async () => {
    const render = await sharp({ create: { width: 96, height: 64, channels: 3, background: "#c9b79c" } })
      .jpeg()
      .toBuffer();
    const replicate = provider("black-forest-labs/flux-kontext-pro");
    expect(replicate.capabilities.upscale).toBe(true);
    const result = await replicate.upscale!({
      image: render,
      width: 96,
      height: 64,
      targetWidth: 300,
      targetHeight: 200,
      signal: new AbortController().signal,
    });

    // A community model: refused by name, run by its latest version.
    expect(fake.creates().map((request) => request.path)).toEqual(["/v1/models/nightmareai/real-esrgan/predictions", "/v1/predictions"]);
    const { body } = lastCreate();
    expect(body.version).toBe(VERSIONS["nightmareai/real-esrgan"]);
    expect(body.input).toEqual({ image: dataUriOf(render, "image/jpeg"), scale: 4, face_enhance: false });

    expect(await sharp(result.image).metadata()).toMatchObject({ format: "png", width: 384, height: 256 });
    expect(result).toMatchObject({
      mime: "image/png",
      model: "nightmareai/real-esrgan",
      modelVersion: VERSIONS["nightmareai/real-esrgan"],
      parameters: { scale: 4, face_enhance: false },
    });
    expect(result.prompt).toBeUndefined();
    expect(result.seed).toBeUndefined();
  });

  it("is there for every render preset, and not when switched off", () => {
    for (const model of REPLICATE_RENDER_MODELS) {
      const replicate = provider(model);
      expect(replicate.capabilities.upscale, model).toBe(true);
      expect(typeof replicate.upscale, model).toBe("function");
    }
    const without = provider("adirik/interior-design", { upscaleModel: null });
    expect(without.capabilities.upscale).toBe(false);
    expect(without.upscale).toBeUndefined();
    expect(() => provider("adirik/interior-design", { upscaleModel: "acme/zoom" })).toThrow(
      /acme\/zoom has no preset.*nightmareai\/real-esrgan/,
    );
  });

  it("cancels its prediction when aborted", async () => {
    fake.script({ final: "never" });
    const controller = new AbortController();
    const upscaling = rejection(
      provider("adirik/interior-design").upscale!({
        image: room,
        width: 120,
        height: 80,
        targetWidth: 480,
        targetHeight: 320,
        signal: controller.signal,
      }),
    );
    await abortOncePolled(controller, "nightmareai/real-esrgan");
    const error = await upscaling;
    expect(error.name).toBe("AbortError");
    expect(fake.cancels()).toHaveLength(1);
  });
});

describe("inpainting (black-forest-labs/flux-fill-pro)", () => {
  let mask: Buffer;

  beforeAll(async () => {
    // White on the left half: change there, keep the rest.
    mask = await sharp({ create: { width: 120, height: 80, channels: 3, background: "#000" } })
      .composite([{ input: { create: { width: 60, height: 80, channels: 3, background: "#fff" } }, left: 0, top: 0 }])
      .png()
      .toBuffer();
  });

  it("sends the photo, the mask and the wish as data URIs and prompt, and returns the edit with its provenance", async () => {
    const progress: number[] = [];
    const replicate = provider("adirik/interior-design");
    expect(replicate.capabilities.masks).toBe(true);
    const result = await replicate.inpaint!({
      image: room,
      mask,
      prompt: " a green velvet sofa\n",
      seed: 5,
      signal: new AbortController().signal,
      onProgress: (fraction) => progress.push(fraction),
    });

    const { request, body } = lastCreate();
    expect(request.path).toBe("/v1/models/black-forest-labs/flux-fill-pro/predictions");
    expect(body.input).toEqual({
      image: dataUriOf(room, "image/jpeg"),
      mask: dataUriOf(mask, "image/png"),
      prompt: buildInpaintPrompt(" a green velvet sofa\n"),
      steps: 50,
      guidance: 3,
      safety_tolerance: 2,
      prompt_upsampling: false,
      output_format: "jpg",
      seed: 5,
    });
    expect(String(body.input.prompt)).toMatch(/^a green velvet sofa, photorealistic/);

    expect(result.image.equals(fake.image)).toBe(true);
    expect(result).toMatchObject({ mime: "image/jpeg", model: "black-forest-labs/flux-fill-pro", seed: 5, prompt: body.input.prompt });
    expect(result.parameters).toEqual({ steps: 50, guidance: 3, safety_tolerance: 2, prompt_upsampling: false, output_format: "jpg" });
    expect(progress).toEqual([1]);
  });

  it("fills the region in naturally without a wish; refuses a mask of another size before asking Replicate", async () => {
    await provider("google/nano-banana").inpaint!({ image: room, mask, prompt: "   ", signal: new AbortController().signal });
    expect(String(lastCreate().body.input.prompt)).toMatch(/^The same room with this area filled in naturally/);
    expect(lastCreate().body.input.seed).toBeUndefined();

    const small = await sharp(mask).resize(60, 40).png().toBuffer();
    const error = await rejection(
      provider("google/nano-banana").inpaint!({ image: room, mask: small, prompt: "a lamp", signal: new AbortController().signal }),
    );
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(error.message).toBe("The mask (60×40) must be the same size as the picture (120×80)");
    expect(fake.creates()).toHaveLength(1);
  });

  it("is not offered when switched off", () => {
    const without = provider("adirik/interior-design", { inpaintModel: null });
    expect(without.capabilities.masks).toBe(false);
    expect(without.inpaint).toBeUndefined();
  });
});
