/**
 * What a render request can ask for, and what a render records: variations charged one credit each
 * (failed ones refunded), render modes and seeds only where the engine has them (the server refuses
 * the rest), provenance (seed, prompt, parameters, model version, phase durations), re-render with a
 * new or the same seed or a stronger structure setting, the optional AI upscale, and the AI marks in
 * downloaded files. The engine is an in-process test engine with every capability.
 */
import { unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIGITAL_SOURCE_TYPE_EDITED_WITH_AI } from "../../src/server/images/provenance";
import type { RenderProvider, RenderRequest, UpscaleRequest } from "../../src/server/render/engines/provider";
import { ledgerBalance } from "../../src/server/services/credits";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import type { EngineCapabilities } from "../../src/shared/render";
import { collectEvents, createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { waitUntil } from "../helpers/wait";
import { failure } from "../helpers/failure";

const CAPABILITIES: EngineCapabilities = {
  isAi: true,
  modes: ["redesign", "stage", "declutter"],
  maxOutputLongEdge: 1024,
  seeds: true,
  percentProgress: true,
  masks: false,
  upscale: true,
  structureStrength: true,
  floorPlan: "eye-level",
};

/** An AI-like engine for the test: returns its input tinted, reports the seed it used, and records every request. */
function recordingEngine() {
  const requests: RenderRequest[] = [];
  const upscales: UpscaleRequest[] = [];
  let nextSeed = 1000;
  let failNext = 0;
  const provider: RenderProvider = {
    id: "openai",
    label: "Test AI engine",
    capabilities: CAPABILITIES,
    async render(request) {
      requests.push(request);
      if (failNext > 0) {
        failNext--;
        throw new Error("engine exploded");
      }
      const seed = request.seed ?? nextSeed++;
      const image = await sharp(request.image).modulate({ brightness: 1.1 }).jpeg().toBuffer();
      return {
        image,
        mime: "image/jpeg",
        model: "test/interior",
        modelVersion: "v7",
        seed,
        prompt: `prompt for ${request.style} ${request.renderMode ?? "redesign"}${request.prompt ? ` with ${request.prompt}` : ""}`,
        parameters: { denoise: request.structure === "strong" ? 0.45 : 0.6 },
      };
    },
    async upscale(request) {
      upscales.push(request);
      const image = await sharp(request.image).resize(request.targetWidth, request.targetHeight).jpeg().toBuffer();
      return { image, mime: "image/jpeg", model: "test/upscaler" };
    },
  };
  return { provider, requests, upscales, failNextRenders: (count: number) => (failNext = count) };
}

let server: TestServer;
const engine = recordingEngine();

beforeAll(async () => {
  server = await startTestServer({}, { renderProvider: engine.provider, worker: { retryBaseMs: 10, retryMaxMs: 20 } });
});
afterAll(async () => {
  await server.stop();
});

/** The job once its structure score has arrived (it follows the success by a moment). */
function scoredView(user: Awaited<ReturnType<typeof signedInClient>>, id: string) {
  return waitUntil(() => user.client.render.job.query({ id }), {
    message: `the structure score of ${id}`,
    until: (view) => view.structureScore !== null,
  });
}

async function userWithPhoto(width = 1600, height = 1200) {
  const user = await signedInClient(server.url);
  const uploaded = await upload(server.url, user.jar, await roomPhoto(width, height));
  return { user, projectId: uploaded.body.projectId, imageId: uploaded.body.imageId };
}

describe("variations", () => {
  it("renders 1 to 4 variations of each style, one credit each, with neighbouring seeds when a seed is given", async () => {
    const { user, projectId, imageId } = await userWithPhoto();
    const created = await user.client.render.create.mutate({ projectId, imageId, style: ["modern", "coastal"], variations: 3, seed: 40 });
    expect(created.jobs.map((job) => [job.style, job.variation])).toEqual([
      ["modern", 1],
      ["modern", 2],
      ["modern", 3],
      ["coastal", 1],
      ["coastal", 2],
      ["coastal", 3],
    ]);
    expect(created.credits).toBe(4);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(4);
    await waitForRenders(
      user,
      created.jobs.map((job) => job.id),
    );
    const views = await Promise.all(created.jobs.map((job) => user.client.render.job.query({ id: job.id })));
    expect(views.map((view) => view.seed)).toEqual([40, 41, 42, 40, 41, 42]);
    // Each job knows which variation of its request it is, so its card can say "Variation 2 of 3".
    expect(views.map((view) => view.variation)).toEqual([1, 2, 3, 1, 2, 3].map((number) => ({ number, of: 3 })));
    // A re-render is one picture: it is no variation of anything.
    const again = await user.client.render.rerender.mutate({ id: created.jobs[1]!.id, seed: "same" });
    expect((await user.client.render.job.query({ id: again.jobs[0]!.id })).variation).toBeNull();
  });

  it("refunds the variations that fail", async () => {
    const { user, projectId, imageId } = await userWithPhoto();
    engine.failNextRenders(1);
    const created = await user.client.render.create.mutate({ projectId, imageId, style: "modern", variations: 2 });
    const statuses = await waitUntil(
      () => Promise.all(created.jobs.map(async (job) => (await user.client.render.job.query({ id: job.id })).status)),
      {
        message: "both variations to end",
        until: (all) => all.every((status) => status === "succeeded" || status === "failed"),
      },
    );
    expect(statuses.sort()).toEqual(["failed", "succeeded"]);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(9);
  });

  it("refuses more than 4 variations, and variations in a visitor's free demo", async () => {
    const { user, projectId, imageId } = await userWithPhoto();
    const tooMany = await user.client.render.create.mutate({ projectId, imageId, style: "modern", variations: 5 }).catch(failure);
    expect(tooMany).toMatchObject({ data: { code: "BAD_REQUEST" } });
    const visitor = createStudioClient(server.url);
    const visitorUpload = await upload(server.url, visitor.jar, await roomPhoto());
    const refused = await visitor.client.render.create
      .mutate({ projectId: "demo", imageId: visitorUpload.body.imageId, style: "modern", variations: 2 })
      .catch(failure);
    expect(refused).toMatchObject({ message: MESSAGES.demoOneVariation, data: { code: "FORBIDDEN" } });
    expect(await visitor.client.render.allowance.query()).toMatchObject({ demoAvailable: true });
  });
});

describe("render modes, the note and provenance", () => {
  it("hands the mode, the note, the seed and the structure setting to the engine and records what it reports", async () => {
    const { user, projectId, imageId } = await userWithPhoto();
    const { jobs } = await user.client.render.create.mutate({
      projectId,
      imageId,
      style: "japandi",
      renderMode: "stage",
      note: "a green velvet sofa",
      structure: "strong",
    });
    await waitForRenders(user, [jobs[0]!.id]);
    await scoredView(user, jobs[0]!.id);
    const request = engine.requests.at(-1)!;
    expect(request).toMatchObject({ style: "japandi", renderMode: "stage", prompt: "a green velvet sofa", structure: "strong" });
    expect(request.seed).toBeUndefined();
    const view = await user.client.render.job.query({ id: jobs[0]!.id });
    expect(view).toMatchObject({
      renderMode: "stage",
      structure: "strong",
      engine: { id: "openai", isAi: true },
      model: "test/interior",
      modelVersion: "v7",
      prompt: "prompt for japandi stage with a green velvet sofa",
      parameters: { denoise: 0.45 },
    });
    expect(view.seed).toBeGreaterThanOrEqual(1000);
    // The engine brightened the photo: every line stayed where it was.
    expect(view.structureScore).toBeGreaterThan(0.9);
    expect(view.structureFlagged).toBe(false);
    for (const phase of ["queuedMs", "preprocessingMs", "engineMs", "savingMs"] as const) {
      expect(view.durations[phase], phase).toEqual(expect.any(Number));
      expect(view.durations[phase]!, phase).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("re-render", () => {
  it("re-rolls with a new seed, repeats the same seed, or holds the structure harder; one credit each", async () => {
    const { user, projectId, imageId } = await userWithPhoto();
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "modern", note: "oak floor" });
    await waitForRenders(user, [jobs[0]!.id]);
    const first = await user.client.render.job.query({ id: jobs[0]!.id });

    const same = await user.client.render.rerender.mutate({ id: first.id, seed: "same" });
    const fresh = await user.client.render.rerender.mutate({ id: first.id, seed: "new" });
    const stronger = await user.client.render.rerender.mutate({ id: first.id, seed: "new", structure: "strong" });
    const ids = [same, fresh, stronger].map((created) => created.jobs[0]!.id);
    await waitForRenders(user, ids);
    const [sameView, freshView, strongerView] = await Promise.all(ids.map((id) => user.client.render.job.query({ id })));
    expect(sameView!.seed).toBe(first.seed);
    expect(freshView!.seed).not.toBe(first.seed);
    expect(strongerView).toMatchObject({ structure: "strong", style: "modern", note: "oak floor", uploadId: imageId });
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(6);
  });

  it("refuses a re-render of someone else's render", async () => {
    const { user, projectId, imageId } = await userWithPhoto();
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "modern" });
    const other = await signedInClient(server.url);
    await waitForRenders(user, [jobs[0]!.id]);
    expect(await other.client.render.rerender.mutate({ id: jobs[0]!.id }).catch(failure)).toMatchObject({ message: MESSAGES.notFound });
  });
});

describe("downloads and the AI upscale", () => {
  it("labels each download with its true size, upscales once on request, and marks AI files with DigitalSourceType", async () => {
    const { user, projectId, imageId } = await userWithPhoto(1600, 1200);
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "luxury" });
    await waitForRenders(user, [jobs[0]!.id]);
    const id = jobs[0]!.id;
    expect((await user.client.render.job.query({ id })).downloads).toEqual([
      { kind: "rendered", url: `/files/renders/${id}/download/rendered`, width: 1024, height: 768 },
    ]);

    const rendered = Buffer.from(await (await user.jar.fetch(`${server.url}/files/renders/${id}/download/rendered`)).arrayBuffer());
    const renderedMeta = await sharp(rendered).metadata();
    expect([renderedMeta.width, renderedMeta.height]).toEqual([1024, 768]);
    const xmp = renderedMeta.xmp?.toString("utf8") ?? "";
    expect(xmp).toContain(DIGITAL_SOURCE_TYPE_EDITED_WITH_AI);
    expect(xmp).toContain("by the openai engine, model test/interior (v7)");

    expect(await user.client.render.upscale.mutate({ id })).toEqual({ width: 1600, height: 1200 });
    expect(await user.client.render.upscale.mutate({ id })).toEqual({ width: 1600, height: 1200 });
    expect(engine.upscales.filter((request) => request.targetWidth === 1600)).toHaveLength(1);
    const view = await user.client.render.job.query({ id });
    expect(view.downloads.map((download) => [download.kind, download.width, download.height, download.upscaledWith])).toEqual([
      ["rendered", 1024, 768, undefined],
      ["upscaled", 1600, 1200, { model: "test/upscaler", engine: "OpenAI" }],
    ]);
    const upscaled = Buffer.from(await (await user.jar.fetch(`${server.url}/files/renders/${id}/download/high`)).arrayBuffer());
    const upscaledMeta = await sharp(upscaled).metadata();
    expect([upscaledMeta.width, upscaledMeta.height]).toEqual([1600, 1200]);
    expect(upscaledMeta.xmp?.toString("utf8")).toContain("; AI-upscaled with test/upscaler on the openai engine.");
    // The file as rendered says nothing of an upscale it is not.
    const renderedAgain = await sharp(
      Buffer.from(await (await user.jar.fetch(`${server.url}/files/renders/${id}/download/rendered`)).arrayBuffer()),
    ).metadata();
    expect(renderedAgain.xmp?.toString("utf8")).not.toMatch(/upscaled/i);

    // Everything that takes "the largest picture there is" takes the upscale: the studio's version
    // download, the listing picture (the room above its band), and the project's zip.
    const version = await sharp(
      Buffer.from(await (await user.jar.fetch(`${server.url}/files/renders/${id}/download/high`)).arrayBuffer()),
    ).metadata();
    expect([version.width, version.height]).toEqual([1600, 1200]);
    const listing = await user.client.listing.create.mutate({ jobId: id, language: "en" });
    const listingPicture = await sharp(
      Buffer.from(await (await user.jar.fetch(`${server.url}${listing.downloadUrl}`)).arrayBuffer()),
    ).metadata();
    expect(listingPicture.width).toBe(1600);
    expect(listingPicture.height).toBeGreaterThan(1200);
    expect(listingPicture.xmp?.toString("utf8")).toContain("; AI-upscaled with test/upscaler on Test AI engine.");
    const zip = unzipSync(
      new Uint8Array(await (await user.jar.fetch(`${server.url}/files/listing/projects/${projectId}/zip`)).arrayBuffer()),
    );
    const pictures = Object.keys(zip).filter((name) => name.endsWith(".jpg") && !name.startsWith("originals/"));
    expect(pictures).toHaveLength(1);
    expect((await sharp(Buffer.from(zip[pictures[0]!]!)).metadata()).width).toBe(1600);

    // The upscale counts in the owner's storage, and goes with the render.
    const row = await server.deps.db
      .selectFrom("render_jobs")
      .select(["upscaled_key", "stored_bytes"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const upscaledFile = await server.deps.storage.get(UPLOAD_BUCKET, row.upscaled_key!);
    expect(row.stored_bytes).toBeGreaterThan(upscaledFile!.data.length);
    await user.client.render.delete.mutate({ id });
    expect(await server.deps.storage.get(UPLOAD_BUCKET, row.upscaled_key!)).toBeNull();
  });

  it("refuses an upscale a render does not need", async () => {
    const { user, projectId, imageId } = await userWithPhoto(800, 600);
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "luxury" });
    await waitForRenders(user, [jobs[0]!.id]);
    expect(await user.client.render.upscale.mutate({ id: jobs[0]!.id }).catch(failure)).toMatchObject({
      message: MESSAGES.upscaleNotNeeded,
      data: { code: "CONFLICT" },
    });
  });
});

describe("on the Preview engine", () => {
  let preview: TestServer;
  beforeAll(async () => {
    preview = await startTestServer();
  });
  afterAll(async () => {
    await preview.stop();
  });

  it("refuses what it cannot do: other modes, seeds, a stronger structure setting, an upscale", async () => {
    const user = await signedInClient(preview.url);
    const uploaded = await upload(preview.url, user.jar, await roomPhoto());
    const base = { projectId: uploaded.body.projectId, imageId: uploaded.body.imageId, style: "modern" as const };
    for (const extra of [{ renderMode: "stage" as const }, { seed: 7 }, { structure: "strong" as const }]) {
      expect(await user.client.render.create.mutate({ ...base, ...extra }).catch(failure), JSON.stringify(extra)).toMatchObject({
        message: MESSAGES.engineCannot,
        data: { code: "BAD_REQUEST" },
      });
    }
    expect(await ledgerBalance(preview.deps.db, user.userId)).toBe(10);
    const { jobs } = await user.client.render.create.mutate(base);
    await waitForRenders(user, [jobs[0]!.id]);
    expect(await user.client.render.upscale.mutate({ id: jobs[0]!.id }).catch(failure)).toMatchObject({ message: MESSAGES.engineCannot });
    expect(await user.client.render.rerender.mutate({ id: jobs[0]!.id, seed: "same" }).catch(failure)).toMatchObject({
      message: MESSAGES.engineCannot,
    });
  });
});

describe("the structure check", () => {
  it("scores a render that moved the room low, flags it, and the admin sees the average by engine and model", async () => {
    const { user, projectId, imageId } = await userWithPhoto();
    const mirror = engine.provider.render.bind(engine.provider);
    // This time the engine answers with the photo upside down: the floor line and furniture are elsewhere.
    engine.provider.render = async (request) => ({
      ...(await mirror(request)),
      image: await sharp(request.image).flip().jpeg().toBuffer(),
    });
    try {
      const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "modern" });
      await waitForRenders(user, [jobs[0]!.id]);
      const view = await scoredView(user, jobs[0]!.id);
      expect(view.structureScore).toBeLessThan(0.6);
      // The score followed the success as its own event, on the owner's live stream.
      const events = await collectEvents(user, { jobId: jobs[0]!.id }, (seen) => seen.some((e) => e.event.type === "scored"));
      expect(events.map((e) => e.event.type).slice(-2)).toEqual(["succeeded", "scored"]);
      expect(events.at(-1)!.event).toMatchObject({ type: "scored", structureScore: view.structureScore, flagged: true });
      expect(view.structureFlagged).toBe(true);
    } finally {
      engine.provider.render = mirror;
    }
    const scored = await server.deps.db
      .selectFrom("render_jobs")
      .select((eb) => [eb.fn.avg<number>("structure_score").as("average"), eb.fn.countAll<number>().as("count")])
      .where("status", "=", "succeeded")
      .where("structure_score", "is not", null)
      .executeTakeFirstOrThrow();
    const admin = await signedInClient(server.url);
    await server.services.roles.grant(admin.userId, "admin");
    const summary = await admin.client.admin.analyticsSummary.query({ days: 30 });
    expect(summary.structureByEngine).toEqual([
      { provider: "openai", model: "test/interior", count: Number(scored.count), averageScore: expect.closeTo(Number(scored.average), 6) },
    ]);
  });
});
