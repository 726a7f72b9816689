/**
 * Never charge for what the engine cannot do (issue 27, item 1; decision 067). A floor plan on the
 * Preview engine (the default install) used to cost a credit and come back as the same drawing,
 * tinted, with "Walls and windows kept: 100 %". Now each engine declares what it makes of a plan
 * (capabilities.floorPlan): on one that makes nothing of it, a plan is refused before anything is
 * charged (a user's credit, a visitor's one demo), through tRPC as through the page; a plan queued
 * on another engine before the operator switched fails with its credit back; a plan gets one render
 * mode; and no structure figure is recorded or shown for a render of a plan.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import type { EngineCapabilities } from "../../src/shared/render";
import { ledgerBalance } from "../../src/server/services/credits";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { createStudioClient, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { failure } from "../helpers/failure";
import { waitUntil } from "../helpers/wait";

/** A floor plan as people upload them: black walls on white, a door gap and a window. */
export async function floorPlan(width = 1200, height = 900): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#fff"/>
    <g stroke="#111" stroke-width="14" fill="none">
      <rect x="80" y="80" width="${width - 160}" height="${height - 160}"/>
      <line x1="${width / 2}" y1="80" x2="${width / 2}" y2="${height / 2 - 60}"/>
      <line x1="${width / 2}" y1="${height / 2 + 60}" x2="${width / 2}" y2="${height - 80}"/>
      <line x1="80" y1="${height / 2}" x2="${width / 2}" y2="${height / 2}"/>
    </g>
    <line x1="${width - 80}" y1="200" x2="${width - 80}" y2="360" stroke="#6af" stroke-width="10"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe("floor plans on the Preview engine (the default install)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the engine says it makes nothing of a plan", async () => {
    const visitor = createStudioClient(server.url);
    const { engine } = await visitor.client.render.allowance.query();
    expect(engine).toMatchObject({ id: "local", isAi: false, capabilities: { floorPlan: "none" } });
  });

  it("a signed-in user's floor plan is refused with its own message, charging nothing and queuing nothing", async () => {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await floorPlan(), { mode: "floor-plan", roomType: "bedroom" }, "image/png");
    expect(uploaded.status).toBe(201);
    const { projectId, imageId } = uploaded.body;
    const before = await ledgerBalance(server.deps.db, user.userId);

    for (const request of [
      { projectId, imageId, style: "modern" as const },
      { projectId, imageId, style: ["modern" as const, "coastal" as const], variations: 2 },
      { projectId, imageId, style: "japandi" as const, renderMode: "stage" as const },
    ]) {
      expect(await user.client.render.create.mutate(request).then(() => "charged", failure)).toMatchObject({
        message: MESSAGES.floorPlanUnsupported,
        data: { code: "BAD_REQUEST" },
      });
    }
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(before);
    expect(await server.deps.db.selectFrom("render_jobs").select("id").where("upload_id", "=", imageId).execute()).toEqual([]);

    // A room photo on the same engine still renders and costs its credit.
    const photo = await upload(server.url, user.jar, await roomPhoto(), { mode: "room-photo", projectId });
    const { jobs } = await user.client.render.create.mutate({ projectId, imageId: photo.body.imageId, style: "modern" });
    await waitForRenders(user, [jobs[0]!.id]);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(before - 1);
  });

  it("a visitor's floor plan is refused without using their one free demo", async () => {
    const visitor = createStudioClient(server.url);
    const uploaded = await upload(server.url, visitor.jar, await floorPlan(), { mode: "floor-plan" }, "image/png");
    expect(uploaded.status).toBe(201);
    const refused = await visitor.client.render.create
      .mutate({ projectId: "demo", imageId: uploaded.body.imageId, style: "modern" })
      .then(() => "rendered", failure);
    expect(refused).toMatchObject({ message: MESSAGES.floorPlanUnsupported });
    expect(await visitor.client.render.allowance.query()).toMatchObject({ demoAvailable: true });
  });
});

describe("floor plans on engines that render them", () => {
  let server: TestServer;
  let hold: Promise<void> | null = null;
  /** The Preview engine dressed as an AI engine that makes an eye-level room of a plan; its capabilities can be switched. */
  const engine: RenderProvider & { capabilities: EngineCapabilities } = {
    ...localProvider,
    id: "openai",
    label: "Plan test engine",
    capabilities: {
      ...PREVIEW_CAPABILITIES,
      isAi: true,
      photoSize: false,
      modes: ["redesign", "stage", "declutter"],
      floorPlan: "eye-level",
    },
    async render(request) {
      if (hold) await hold;
      return localProvider.render(request);
    },
  };

  beforeAll(async () => {
    server = await startTestServer({ RENDER_CONCURRENCY: "1" }, { renderProvider: engine });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("renders a plan in one mode, and records no structure figure for it", async () => {
    const user = await signedInClient(server.url);
    const uploaded = await upload(server.url, user.jar, await floorPlan(), { mode: "floor-plan" }, "image/png");
    const { projectId, imageId } = uploaded.body;
    const before = await ledgerBalance(server.deps.db, user.userId);
    // Staging or decluttering a drawing means nothing: not charged.
    for (const renderMode of ["stage", "declutter"] as const) {
      expect(
        await user.client.render.create.mutate({ projectId, imageId, style: "modern", renderMode }).then(() => "charged", failure),
      ).toMatchObject({ message: MESSAGES.engineCannot });
    }
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(before);

    const { jobs } = await user.client.render.create.mutate({ projectId, imageId, style: "modern" });
    const jobId = jobs[0]!.id;
    await waitForRenders(user, [jobId]);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(before - 1);
    // A room photo rendered after it is scored: once its score is in, the plan's check would have run too.
    const photo = await upload(server.url, user.jar, await roomPhoto(), { mode: "room-photo", projectId });
    const second = await user.client.render.create.mutate({ projectId, imageId: photo.body.imageId, style: "modern" });
    await waitForRenders(user, [second.jobs[0]!.id]);
    await waitUntil(() => user.client.render.job.query({ id: second.jobs[0]!.id }), {
      message: "the photo's structure score",
      until: (job) => job.structureScore !== null,
    });
    const stored = await server.deps.db
      .selectFrom("render_jobs")
      .select("structure_score")
      .where("id", "=", jobId)
      .executeTakeFirstOrThrow();
    expect(stored.structure_score).toBeNull();
    expect(await user.client.render.job.query({ id: jobId })).toMatchObject({
      mode: "floor-plan",
      structureScore: null,
      structureFlagged: false,
    });

    // A score stored before the fix (the Preview engine's "100 %" for a tinted plan) is not shown.
    await server.deps.db.updateTable("render_jobs").set({ structure_score: 1 }).where("id", "=", jobId).execute();
    expect(await user.client.render.job.query({ id: jobId })).toMatchObject({ structureScore: null });
  });

  it("a plan queued before the operator switched to an engine that cannot render it fails with its credit back", async () => {
    const user = await signedInClient(server.url);
    const photo = await upload(server.url, user.jar, await roomPhoto());
    const plan = await upload(
      server.url,
      user.jar,
      await floorPlan(),
      { mode: "floor-plan", projectId: photo.body.projectId },
      "image/png",
    );
    const projectId = photo.body.projectId;
    const before = await ledgerBalance(server.deps.db, user.userId);
    let release!: () => void;
    hold = new Promise((resolve) => (release = resolve));
    try {
      // The photo holds the only slot; the plan waits in the queue, charged.
      const first = await user.client.render.create.mutate({ projectId, imageId: photo.body.imageId, style: "modern" });
      const queued = await user.client.render.create.mutate({ projectId, imageId: plan.body.imageId, style: "modern" });
      expect(await ledgerBalance(server.deps.db, user.userId)).toBe(before - 2);
      engine.capabilities = { ...engine.capabilities, floorPlan: "none" };
      release();
      await waitForRenders(user, [first.jobs[0]!.id]);
      const failed = await waitUntil(() => user.client.render.job.query({ id: queued.jobs[0]!.id }), {
        message: "the queued plan to end",
        until: (job) => job.status === "failed",
      });
      expect(failed.error).toBe(MESSAGES.floorPlanUnsupported);
      expect(await ledgerBalance(server.deps.db, user.userId)).toBe(before - 1);
    } finally {
      hold = null;
      engine.capabilities = { ...engine.capabilities, floorPlan: "eye-level" };
    }
  });
});
