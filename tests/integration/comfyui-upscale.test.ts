/**
 * AI upscaling on the ComfyUI engine (decision 087) against the fake ComfyUI, which reads the graph
 * it is given, checks node types, inputs and the types its links carry, lists its model files in
 * /object_info and saves a picture of the size the graph makes: upscale.json (UpscaleModelLoader →
 * ImageUpscaleWithModel → ImageScale to the photo's size), the optional refine pass, a model the
 * box lacks, cancelling, the self-test's finding, and the whole path through the real server.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { MESSAGES, readMessage } from "../../src/shared/messages";
import { parseEnv } from "../../src/server/env";
import {
  COMFYUI_REFINE_DENOISE,
  createComfyUiProvider,
  listedUpscaleModels,
  type ComfyUiProviderOptions,
} from "../../src/server/render/engines/comfyui";
import { SHIPPED_WORKFLOW_DIR, type ApiGraph, type ApiNode } from "../../src/server/render/engines/comfyui-workflow";
import { PermanentRenderError, type UpscaleRequest } from "../../src/server/render/engines/provider";
import { buildNegativePrompt, buildRefinePrompt } from "../../src/server/render/engines/prompt";
import { checkRenderProvider } from "../../src/server/services/system-checks";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTempDir } from "../helpers/test-env";
import { noisyRoomPhoto } from "../helpers/engine-request";

let fake: FakeComfyUi;
let render: Buffer;

beforeAll(async () => {
  // A finished render as the engines make one for a 3:2 photo: 1024 × 683.
  render = await noisyRoomPhoto(1024, 683);
});
beforeEach(async () => {
  fake = await startFakeComfyUi();
});
afterEach(async () => {
  await fake.close();
});

function provider(overrides: Partial<ComfyUiProviderOptions> = {}) {
  return createComfyUiProvider({
    baseUrl: fake.url,
    checkpoint: "sd_xl_base_1.0.safetensors",
    controlnetDepth: "controlnet-depth-sdxl-1.0.safetensors",
    controlnetLines: "controlnet-mlsd-sdxl-1.0.safetensors",
    inpaintCheckpoint: "sd_xl_base_1.0_inpainting_0.1.safetensors",
    upscaleModel: "RealESRGAN_x4plus.pth",
    pollIntervalMs: 20,
    ...overrides,
  });
}

function upscaleRequest(overrides: Partial<UpscaleRequest> = {}): UpscaleRequest {
  return {
    image: render,
    width: 1024,
    height: 683,
    targetWidth: 3000,
    targetHeight: 2000,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

const queuedGraph = (index = 0) => (fake.queued()[index]?.json as { prompt: ApiGraph }).prompt;
/** The graph's only node of a class, with its id. */
function only(graph: ApiGraph, classType: string): [string, ApiNode] {
  const found = Object.entries(graph).filter(([, node]) => node.class_type === classType);
  expect(found, classType).toHaveLength(1);
  return found[0]!;
}
const size = async (bytes: Buffer) => {
  const { width, height, format } = await sharp(bytes).metadata();
  return { width, height, format };
};

describe("ComfyUI upscale", () => {
  it("queues upscale.json: the render uploaded, UpscaleModelLoader with the configured file, ImageUpscaleWithModel, ImageScale to the photo's size; returns that size, the model's name and the parameters", async () => {
    const comfy = provider({ upscaleModel: "4x-UltraSharp.pth" });
    expect(comfy.capabilities.upscale).toBe(true);
    const progress: number[] = [];
    const result = await comfy.upscale!(upscaleRequest({ onProgress: (fraction) => progress.push(fraction) }));

    expect(await size(result.image)).toEqual({ width: 3000, height: 2000, format: "png" });
    expect(result.mime).toBe("image/png");
    expect(result.model).toBe("4x-UltraSharp.pth");
    expect(result.parameters).toEqual({
      template: "upscale",
      workflow: "shipped",
      from: { width: 1024, height: 683 },
      width: 3000,
      height: 2000,
      scale: 2.93,
      refine: false,
    });
    expect(result.seed).toBeUndefined();

    // The model list was read before anything was sent; then the render went up as it is.
    expect(fake.requests.map((request) => `${request.method} ${request.path}`).slice(0, 3)).toEqual([
      "GET /object_info/UpscaleModelLoader",
      "POST /upload/image",
      "POST /prompt",
    ]);
    expect(fake.uploadsReceived[0]!.bytes.equals(render)).toBe(true);

    const graph = queuedGraph();
    const [loaderId, loader] = only(graph, "UpscaleModelLoader");
    const [upscaleId, upscale] = only(graph, "ImageUpscaleWithModel");
    const [scaleId, scale] = only(graph, "ImageScale");
    const [loadId, load] = only(graph, "LoadImage");
    const [, save] = only(graph, "SaveImage");
    expect(loader.inputs).toEqual({ model_name: "4x-UltraSharp.pth" });
    expect(upscale.inputs).toEqual({ upscale_model: [loaderId, 0], image: [loadId, 0] });
    expect(load.inputs.image).toBe(`roomcanvas/${fake.uploadsReceived[0]!.name}`);
    expect(scale.inputs).toMatchObject({ image: [upscaleId, 0], width: 3000, height: 2000 });
    expect(save.inputs.images).toEqual([scaleId, 0]);
    expect(Object.values(graph).some((node) => node.class_type === "KSampler")).toBe(false);

    // The upscale model's tiles are the progress (3 × 2 tiles of 480 px for 1024 × 683), forward only, ending at 1.
    expect(progress).toEqual([1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1]);
  });

  it("ends at the photo's exact size whatever the model's factor and the shape: ×2 and ×4 models, portrait, sizes not multiples of 8 or of the factor", async () => {
    const cases = [
      { model: "RealESRGAN_x2plus.pth", width: 683, height: 1024, targetWidth: 2001, targetHeight: 3001 },
      { model: "RealESRGAN_x4plus.pth", width: 1024, height: 768, targetWidth: 2048, targetHeight: 1536 },
      { model: "4x-UltraSharp.pth", width: 1024, height: 576, targetWidth: 1919, targetHeight: 1079 },
    ];
    for (const [index, wanted] of cases.entries()) {
      const image = await noisyRoomPhoto(wanted.width, wanted.height);
      const result = await provider({ upscaleModel: wanted.model }).upscale!(upscaleRequest({ ...wanted, image }));
      expect(await size(result.image), wanted.model).toEqual({ width: wanted.targetWidth, height: wanted.targetHeight, format: "png" });
      expect(only(queuedGraph(index), "UpscaleModelLoader")[1].inputs.model_name).toBe(wanted.model);
    }
  });

  it("refines when turned on: upscale-refine.json adds VAEEncodeTiled → KSampler at a low denoise with the checkpoint and a refine prompt → VAEDecodeTiled, then scales back to the exact size", async () => {
    fake.script({ steps: 5 });
    const progress: number[] = [];
    // 3001 × 1999: the VAE works in multiples of 8 px, so only the last ImageScale makes it exact.
    const result = await provider({ upscaleRefine: true }).upscale!(
      upscaleRequest({ targetWidth: 3001, targetHeight: 1999, onProgress: (fraction) => progress.push(fraction) }),
    );
    expect(await size(result.image)).toEqual({ width: 3001, height: 1999, format: "png" });
    expect(result.model).toBe("RealESRGAN_x4plus.pth");
    expect(result.prompt).toBe(buildRefinePrompt());
    expect(result.seed).toEqual(expect.any(Number));
    expect(result.parameters).toMatchObject({
      template: "upscale-refine",
      refine: true,
      refineCheckpoint: "sd_xl_base_1.0.safetensors",
      denoise: COMFYUI_REFINE_DENOISE,
      steps: 20,
      width: 3001,
      height: 1999,
      negativePrompt: buildNegativePrompt("room-photo"),
    });
    expect(COMFYUI_REFINE_DENOISE).toBeLessThanOrEqual(0.3);

    const graph = queuedGraph();
    const [upscaleId] = only(graph, "ImageUpscaleWithModel");
    const scales = Object.entries(graph).filter(([, node]) => node.class_type === "ImageScale");
    expect(scales).toHaveLength(2);
    const [firstScaleId] = scales.find(([, node]) => JSON.stringify(node.inputs.image) === JSON.stringify([upscaleId, 0]))!;
    const [checkpointId, checkpoint] = only(graph, "CheckpointLoaderSimple");
    const [encodeId, encode] = only(graph, "VAEEncodeTiled");
    const [samplerId, sampler] = only(graph, "KSampler");
    const [decodeId, decode] = only(graph, "VAEDecodeTiled");
    const [lastScaleId, lastScale] = scales.find(([id]) => id !== firstScaleId)!;
    expect(checkpoint.inputs.ckpt_name).toBe("sd_xl_base_1.0.safetensors");
    expect(encode.inputs).toMatchObject({ pixels: [firstScaleId, 0], vae: [checkpointId, 2] });
    expect(sampler.inputs).toMatchObject({ latent_image: [encodeId, 0], denoise: COMFYUI_REFINE_DENOISE, seed: result.seed });
    expect(decode.inputs).toMatchObject({ samples: [samplerId, 0], vae: [checkpointId, 2] });
    expect(lastScale.inputs).toMatchObject({ image: [decodeId, 0], width: 3001, height: 1999 });
    expect(only(graph, "SaveImage")[1].inputs.images).toEqual([lastScaleId, 0]);
    const positive = graph[(sampler.inputs.positive as [string, number])[0]]!;
    expect(positive.inputs.text).toBe(buildRefinePrompt());
    // The sampler's steps are the progress (the only sampler in the workflow).
    expect(progress).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
  });

  it("a model file the box lacks: fails before anything is sent, naming the file and those it has", async () => {
    fake.models.upscale_models = ["4x-UltraSharp.pth", "RealESRGAN_x2plus.pth"];
    const error = await rejection(provider().upscale!(upscaleRequest()));
    expect(error).toBeInstanceOf(PermanentRenderError);
    expect(error.message).toBe(
      "The upscale model RealESRGAN_x4plus.pth is not installed on the ComfyUI server (it has 4x-UltraSharp.pth, RealESRGAN_x2plus.pth): put the file in ComfyUI's models/upscale_models folder, or choose one it has in COMFYUI_UPSCALE_MODEL or /admin → Studio",
    );
    expect(fake.uploads()).toHaveLength(0);
    expect(fake.queued()).toHaveLength(0);

    // A box that does not list its models (an older one, a proxy): ComfyUI's own validation names the file.
    fake.script({ objectInfoReplies: [{ status: 404 }] });
    const refused = await rejection(provider().upscale!(upscaleRequest()));
    expect(refused).toBeInstanceOf(PermanentRenderError);
    expect(refused.message).toMatch(
      /^ComfyUI refused the upscale workflow: Prompt outputs failed validation — node 2 \(UpscaleModelLoader\): Value not in list: model_name: 'RealESRGAN_x4plus.pth' not in \["4x-UltraSharp.pth","RealESRGAN_x2plus.pth"\]$/,
    );
    expect(fake.prompts.size).toBe(0);
  });

  it("takes an operator's own upscale.json from COMFYUI_WORKFLOW_DIR; one whose links carry the wrong types is refused by ComfyUI, naming the input", async () => {
    const dir = makeTempDir("comfyui-workflows-");
    const own = JSON.parse(fs.readFileSync(path.join(SHIPPED_WORKFLOW_DIR, "upscale.json"), "utf8")) as ApiGraph;
    own["4"]!.inputs.upscale_method = "bicubic";
    fs.writeFileSync(path.join(dir, "upscale.json"), JSON.stringify(own));
    const result = await provider({ workflowDir: dir }).upscale!(upscaleRequest());
    expect(result.parameters).toMatchObject({ workflow: "COMFYUI_WORKFLOW_DIR" });
    expect(only(queuedGraph(), "ImageScale")[1].inputs.upscale_method).toBe("bicubic");
    expect(await size(result.image)).toMatchObject({ width: 3000, height: 2000 });

    // The model where the picture goes, and the picture where the model goes.
    own["3"]!.inputs = { upscale_model: ["1", 0], image: ["2", 0] };
    fs.writeFileSync(path.join(dir, "upscale.json"), JSON.stringify(own));
    const refused = await rejection(provider({ workflowDir: dir }).upscale!(upscaleRequest()));
    expect(refused).toBeInstanceOf(PermanentRenderError);
    expect(refused.message).toBe(
      "ComfyUI refused the upscale workflow: Prompt outputs failed validation — node 3 (ImageUpscaleWithModel): Return type mismatch between linked nodes: upscale_model, received_type(IMAGE) mismatch input_type(UPSCALE_MODEL); Return type mismatch between linked nodes: image, received_type(UPSCALE_MODEL) mismatch input_type(IMAGE)",
    );
  });

  it("reads both ways ComfyUI lists a loader's files in /object_info", () => {
    const info = (modelName: unknown) => ({ UpscaleModelLoader: { input: { required: { model_name: modelName } } } });
    expect(listedUpscaleModels(info([["a.pth", "b.safetensors"]]))).toEqual(["a.pth", "b.safetensors"]);
    expect(listedUpscaleModels(info(["COMBO", { options: ["c.pth"], tooltip: "x" }]))).toEqual(["c.pth"]);
    expect(listedUpscaleModels(info(["COMBO", {}]))).toBeNull();
    expect(listedUpscaleModels({})).toBeNull();
    expect(listedUpscaleModels("<html>")).toBeNull();
  });

  it("cancel: aborting mid-upscale takes the prompt out and interrupts it at the box", async () => {
    fake.script({ stepDelayMs: 200 });
    const controller = new AbortController();
    const upscaling = provider().upscale!(upscaleRequest({ signal: controller.signal, onProgress: () => controller.abort() }));
    expect((await rejection(upscaling)).name).toBe("AbortError");
    const [promptId] = [...fake.prompts.keys()];
    expect(fake.interrupts().map((request) => request.json)).toEqual([{ prompt_id: promptId }]);
    expect(fake.prompts.get(promptId!)?.state).toBe("interrupted");
  });

  it("no upscale model: no upscale capability and no upscale method", () => {
    const comfy = provider({ upscaleModel: undefined });
    expect(comfy.capabilities.upscale).toBe(false);
    expect(comfy.upscale).toBeUndefined();
  });

  it("the self-test warns when the box lacks the upscale model, and says it is there when it is", async () => {
    const env = { ...parseEnv({ DATA_DIR: makeTempDir() }), RENDER_PROVIDER: "comfyui", COMFYUI_URL: fake.url } as const;
    expect(await checkRenderProvider({ ...env, COMFYUI_UPSCALE_MODEL: "4x-UltraSharp.pth" })).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/; upscale model 4x-UltraSharp.pth installed$/),
    });
    fake.models.upscale_models = [];
    const missing = await checkRenderProvider({ ...env, COMFYUI_UPSCALE_MODEL: "4x-UltraSharp.pth" });
    expect(missing).toMatchObject({ ok: true, warning: true });
    expect(missing.detail).toMatch(/; the upscale model 4x-UltraSharp.pth is not in ComfyUI's models\/upscale_models: upscales fail/);
  });
});

describe("render, then upscale, through the real server with RENDER_PROVIDER=comfyui", () => {
  let server: TestServer;
  let box: FakeComfyUi;
  beforeAll(async () => {
    box = await startFakeComfyUi();
    server = await startTestServer({ RENDER_PROVIDER: "comfyui", COMFYUI_URL: box.url, COMFYUI_UPSCALE_MODEL: "4x-UltraSharp.pth" });
  });
  afterAll(async () => {
    await server?.stop();
    await box?.close();
  });

  async function renderedJob(user: Awaited<ReturnType<typeof signedInClient>>): Promise<string> {
    const uploaded = await upload(server.url, user.jar, await roomPhoto(3000, 2000));
    expect(uploaded.status).toBe(201);
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "japandi",
    });
    await waitForRenders(user, [jobs[0]!.id]);
    return jobs[0]!.id;
  }
  const row = (id: string) => server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("a 3000 × 2000 photo's render is upscaled to 3000 × 2000, recorded with the model's file name, and downloads at that size", async () => {
    const user = await signedInClient(server.url);
    const id = await renderedJob(user);
    expect(await row(id)).toMatchObject({ status: "succeeded", provider: "comfyui", upscaled_key: null });
    const credits = (await user.client.render.allowance.query()).credits;

    expect(await user.client.render.upscale.mutate({ id })).toEqual({ width: 3000, height: 2000 });
    expect(await row(id)).toMatchObject({ upscaled_width: 3000, upscaled_height: 2000, upscale_model: "4x-UltraSharp.pth" });
    const graph = (box.queued().at(-1)!.json as { prompt: ApiGraph }).prompt;
    expect(only(graph, "UpscaleModelLoader")[1].inputs.model_name).toBe("4x-UltraSharp.pth");
    expect(only(graph, "ImageScale")[1].inputs).toMatchObject({ width: 3000, height: 2000 });
    const stored = await server.deps.storage.get(UPLOAD_BUCKET, (await row(id)).upscaled_key!);
    expect(await size(stored!.data)).toMatchObject({ width: 3000, height: 2000 });

    const view = await user.client.render.job.query({ id });
    expect(view.downloads.map((download) => [download.kind, download.width, download.height])).toContainEqual(["upscaled", 3000, 2000]);
    const response = await user.jar.fetch(`${server.url}/files/renders/${id}/download/high`);
    expect(response.status).toBe(200);
    expect(await size(Buffer.from(await response.arrayBuffer()))).toMatchObject({ width: 3000, height: 2000 });
    expect((await user.client.render.allowance.query()).credits).toBe(credits);
  });

  it("a model file the box lacks: the upscale fails with the engine's words naming the file, nothing is recorded and no credit moves", async () => {
    const user = await signedInClient(server.url);
    const id = await renderedJob(user);
    const credits = (await user.client.render.allowance.query()).credits;
    const queued = box.queued().length;
    const had = box.models.upscale_models;
    box.models.upscale_models = ["RealESRGAN_x4plus.pth"];
    try {
      const error = (await user.client.render.upscale.mutate({ id }).catch((caught: unknown) => caught)) as {
        message: string;
        data?: { code?: string };
      };
      expect(readMessage(error.message)).toEqual({
        key: "upscaleEngineStopped",
        params: { detail: expect.stringMatching(/^The upscale model 4x-UltraSharp.pth is not installed on the ComfyUI server/) },
      });
      expect(MESSAGES.upscaleEngineStopped).toContain("{{detail}}");
    } finally {
      box.models.upscale_models = had;
    }
    expect(box.queued()).toHaveLength(queued);
    expect(await row(id)).toMatchObject({ upscaled_key: null, upscaled_width: null, upscale_model: null });
    expect((await user.client.render.allowance.query()).credits).toBe(credits);
  });
});

describe("the upscale model and the refine pass in /admin → Studio", () => {
  let server: TestServer;
  let box: FakeComfyUi;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  const comfyEngine = () => ({
    engine: "comfyui" as const,
    replicateModel: "adirik/interior-design",
    openaiModel: "gpt-image-1",
    comfyuiUrl: box.url,
    keys: {},
  });
  const failure = (error: unknown) => error as { message: string; data?: { code?: string } };

  beforeAll(async () => {
    box = await startFakeComfyUi();
    // Nothing held by the environment here; the last test starts a server where it holds both.
    server = await startTestServer({});
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
    await box?.close();
  });

  it("an operator sets the model file and turns the refine on; upscales use them at once, and an empty model turns upscaling off", async () => {
    expect((await admin.client.admin.studioSettings.query()).engine).toMatchObject({
      comfyuiUpscaleModel: "RealESRGAN_x4plus.pth",
      comfyuiUpscaleRefine: false,
      setByEnvironment: { comfyuiUpscaleModel: false, comfyuiUpscaleRefine: false },
    });
    // The form's check: a path is not a file name.
    const refused = failure(
      await admin.client.admin.updateEngine
        .mutate({ ...comfyEngine(), comfyuiUpscaleModel: "/etc/passwd" })
        .catch((caught: unknown) => caught),
    );
    expect(refused.message).toContain(MESSAGES.engineUpscaleModelInvalid);

    await admin.client.admin.updateEngine.mutate({
      ...comfyEngine(),
      comfyuiUpscaleModel: "RealESRGAN_x2plus.pth",
      comfyuiUpscaleRefine: true,
    });
    expect((await admin.client.admin.studioSettings.query()).engine).toMatchObject({
      engine: "comfyui",
      comfyuiUpscaleModel: "RealESRGAN_x2plus.pth",
      comfyuiUpscaleRefine: true,
    });
    const audit = await server.deps.db.selectFrom("admin_audit").select("details").where("action", "=", "settings.engine").execute();
    expect(JSON.parse(audit.at(-1)!.details!)).toMatchObject({
      changed: {
        comfyuiUpscaleModel: { from: "RealESRGAN_x4plus.pth", to: "RealESRGAN_x2plus.pth" },
        comfyuiUpscaleRefine: { from: false, to: true },
      },
    });

    const user = await signedInClient(server.url);
    expect((await user.client.render.allowance.query()).engine.capabilities.upscale).toBe(true);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(1600, 1200));
    const { jobs } = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    await waitForRenders(user, [jobs[0]!.id]);
    expect(await user.client.render.upscale.mutate({ id: jobs[0]!.id })).toEqual({ width: 1600, height: 1200 });
    const graph = (box.queued().at(-1)!.json as { prompt: ApiGraph }).prompt;
    expect(only(graph, "UpscaleModelLoader")[1].inputs.model_name).toBe("RealESRGAN_x2plus.pth");
    expect(only(graph, "KSampler")[1].inputs.denoise).toBe(COMFYUI_REFINE_DENOISE);

    // A form that leaves the upscale fields out (an older client) keeps them.
    await admin.client.admin.updateEngine.mutate(comfyEngine());
    expect((await admin.client.admin.studioSettings.query()).engine).toMatchObject({
      comfyuiUpscaleModel: "RealESRGAN_x2plus.pth",
      comfyuiUpscaleRefine: true,
    });

    await admin.client.admin.updateEngine.mutate({ ...comfyEngine(), comfyuiUpscaleModel: "" });
    expect((await user.client.render.allowance.query()).engine.capabilities.upscale).toBe(false);
    const second = await user.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    await waitForRenders(user, [second.jobs[0]!.id]);
    expect(failure(await user.client.render.upscale.mutate({ id: second.jobs[0]!.id }).catch((caught: unknown) => caught)).message).toBe(
      MESSAGES.engineCannot,
    );
  });

  it("the environment wins: shown as set by it, used, and not changed here", async () => {
    await server.stop();
    server = await startTestServer({ COMFYUI_UPSCALE_MODEL: "none", COMFYUI_UPSCALE_REFINE: "false" }, { fresh: true });
    admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
    await admin.client.admin.updateEngine.mutate(comfyEngine());
    expect((await admin.client.admin.studioSettings.query()).engine).toMatchObject({
      comfyuiUpscaleModel: "",
      comfyuiUpscaleRefine: false,
      setByEnvironment: { comfyuiUpscaleModel: true, comfyuiUpscaleRefine: true },
    });
    expect(server.services.render.engine.capabilities.upscale).toBe(false);
    // The form sends back what it shows: accepted; another value: refused.
    await admin.client.admin.updateEngine.mutate({ ...comfyEngine(), comfyuiUpscaleModel: "", comfyuiUpscaleRefine: false });
    const refused = failure(
      await admin.client.admin.updateEngine
        .mutate({ ...comfyEngine(), comfyuiUpscaleModel: "4x-UltraSharp.pth" })
        .catch((caught: unknown) => caught),
    );
    expect(refused.message).toBe(MESSAGES.setByEnvironment);
    expect(server.services.render.engine.capabilities.upscale).toBe(false);
  });
});
