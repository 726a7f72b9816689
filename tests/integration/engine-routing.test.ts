/**
 * Engines chosen per task, with fallback (issue 30, decision 088), on the real app against the fake
 * OpenAI and ComfyUI servers: each task goes to its own engine (seen by which fake received the
 * call); an engine that refuses connections or does not answer is skipped for the next one of its
 * task, the picture's provenance says why, and it is charged once; with none left the render fails
 * with the message and its credit comes back; /admin lists each engine's state and failures.
 */
import net from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port";
import { MESSAGES, readMessage } from "../../src/shared/messages";
import { startFakeComfyUi, type FakeComfyUi } from "../helpers/fake-comfyui";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { startFakeReplicate, type FakeReplicate } from "../helpers/fake-replicate";
import { confirmAddress, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { failure } from "../helpers/failure";
import { waitUntil } from "../helpers/wait";

const OPENAI_KEY = "sk-test-engine-routing-1234";
type Studio = Awaited<ReturnType<typeof signedInClient>>;

const BOX = { left: 200, top: 150, width: 300, height: 220 };
function maskDataUrl(width: number, height: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#000"/><rect x="${BOX.left}" y="${BOX.top}" width="${BOX.width}" height="${BOX.height}" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg))
    .png()
    .toBuffer()
    .then((png) => `data:image/png;base64,${png.toString("base64")}`);
}

/** A server that accepts connections and never answers: an engine that does not answer in time. */
async function silentServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => count,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function makeAdmin(server: TestServer): Promise<Studio> {
  const admin = await signedInClient(server.url);
  await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  return admin;
}

/** A confirmed user (OpenAI bills each render: free credits need a confirmed address) with a photo uploaded. */
async function userWithPhoto(server: TestServer) {
  const user = await signedInClient(server.url);
  await confirmAddress(server.url, server.deps.db, user.email);
  const uploaded = await upload(server.url, user.jar, await roomPhoto(1200, 900));
  return { user, projectId: uploaded.body.projectId, imageId: uploaded.body.imageId };
}

/** The renders OpenAI was asked for (its health checks are not). */
const openAiRenders = (openai: FakeOpenAi) => openai.requests.filter((request) => request.image !== undefined).length;

/** Waits until the job has ended, however it ended. */
async function ended(user: Studio, jobId: string) {
  return waitUntil(() => user.client.render.job.query({ id: jobId }), {
    message: "the render to end",
    until: (job) => ["succeeded", "failed", "canceled"].includes(job.status),
    timeoutMs: 20_000,
    intervalMs: 50,
  });
}

/** The job's entries in the credit ledger, as kinds. */
async function ledgerKinds(server: TestServer, jobId: string): Promise<string[]> {
  const rows = await server.deps.db
    .selectFrom("credit_ledger")
    .select(["kind", "amount"])
    .where("job_id", "=", jobId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => `${row.kind}:${row.amount}`);
}

describe("each task goes to its own engine", () => {
  let openai: FakeOpenAi;
  let comfy: FakeComfyUi;
  let replicate: FakeReplicate;
  let server: TestServer;

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: OPENAI_KEY });
    comfy = await startFakeComfyUi();
    comfy.script({ steps: 2, stepDelayMs: 0 });
    replicate = await startFakeReplicate({ token: "r8_engine_routing" });
    replicate.script({ processingPolls: 0 });
    server = await startTestServer({
      REPLICATE_API_TOKEN: "r8_engine_routing",
      REPLICATE_API_URL: replicate.url,
      ENGINES_UPSCALE: "replicate",
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_API_URL: openai.url,
      COMFYUI_URL: comfy.url,
      ENGINES_RENDER: "openai",
      ENGINES_STAGE: "comfyui,openai",
      ENGINES_EDIT: "comfyui",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([openai?.close(), comfy?.close(), replicate?.close()]);
  });

  it("offers what the chosen engines can do together, and names the one that renders", async () => {
    const { user, projectId, imageId } = await userWithPhoto(server);
    const { engine } = await user.client.render.allowance.query();
    expect(engine).toMatchObject({ id: "openai", isAi: true, billedPerRender: true });
    // Declutter is left to RENDER_PROVIDER (the Preview engine), which cannot: not offered.
    expect(engine.capabilities.modes).toEqual(["redesign", "stage"]);
    expect(engine.capabilities).toMatchObject({ masks: true, upscale: true });
    expect(engine.tasks).toEqual({
      render: ["openai"],
      stage: ["comfyui", "openai"],
      declutter: [],
      // Exteriors too are left to the Preview engine, which has none of their modes.
      exterior: [],
      edit: ["comfyui"],
      upscale: ["replicate"],
    });
    const refused = failure(
      await user.client.render.create
        .mutate({ projectId, imageId, style: "modern", renderMode: "declutter" })
        .catch((error: unknown) => error),
    );
    expect(refused.data?.code).toBe("BAD_REQUEST");
  });

  it("renders on OpenAI, stages and edits on ComfyUI, each recorded with the engine that made it", async () => {
    const { user, projectId, imageId } = await userWithPhoto(server);
    const openaiBefore = openAiRenders(openai);
    const comfyBefore = comfy.queued().length;

    const render = (await user.client.render.create.mutate({ projectId, imageId, style: "modern" })).jobs[0]!;
    await waitForRenders(user, [render.id]);
    expect(openAiRenders(openai)).toBe(openaiBefore + 1);
    expect(comfy.queued().length).toBe(comfyBefore);
    const rendered = await user.client.render.job.query({ id: render.id });
    expect(rendered).toMatchObject({ status: "succeeded", engine: { id: "openai" }, fallbackReason: null });

    const staged = (await user.client.render.create.mutate({ projectId, imageId, style: "modern", renderMode: "stage" })).jobs[0]!;
    await waitForRenders(user, [staged.id]);
    expect(comfy.queued().length).toBe(comfyBefore + 1);
    expect(openAiRenders(openai)).toBe(openaiBefore + 1);
    expect(await user.client.render.job.query({ id: staged.id })).toMatchObject({ status: "succeeded", engine: { id: "comfyui" } });

    // The mask has the studio picture's size (the render fitted to 1024 px).
    const node = (await user.client.render.versions.query({ id: render.id })).nodes.find((entry) => entry.id === render.id)!;
    const { jobId: editId } = await user.client.render.edit.mutate({
      sourceJobId: render.id,
      mask: await maskDataUrl(node.width!, node.height!),
      instruction: "a green sofa",
    });
    await waitForRenders(user, [editId]);
    expect(comfy.queued().length).toBe(comfyBefore + 2);
    expect(openAiRenders(openai)).toBe(openaiBefore + 1);
    expect(await user.client.render.job.query({ id: editId })).toMatchObject({ status: "succeeded", engine: { id: "comfyui" } });
  });

  it("upscales on Replicate a render OpenAI made, and records which engine upscaled it", async () => {
    const user = await signedInClient(server.url);
    await confirmAddress(server.url, server.deps.db, user.email);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(2400, 1600));
    const job = (
      await user.client.render.create.mutate({ projectId: uploaded.body.projectId, imageId: uploaded.body.imageId, style: "modern" })
    ).jobs[0]!;
    await waitForRenders(user, [job.id]);
    const createsBefore = replicate.creates().length;
    const size = await user.client.render.upscale.mutate({ id: job.id });
    expect(size.width).toBeGreaterThanOrEqual(2400);
    expect(replicate.creates().length).toBe(createsBefore + 1);
    expect(await user.client.render.job.query({ id: job.id })).toMatchObject({
      engine: { id: "openai" },
      upscaleEngine: { id: "replicate", fallbackReason: null },
    });
  });
});

describe("fallback to the next engine of the task", () => {
  let openai: FakeOpenAi;
  let comfy: FakeComfyUi;
  let silent: Awaited<ReturnType<typeof silentServer>>;
  let closedUrl: string;
  let server: TestServer;
  let admin: Studio;
  /** The shares of time given to engines followed by another, and the signal that ends the current one. */
  const shares: number[] = [];
  let outOfTime = new AbortController();

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: OPENAI_KEY });
    comfy = await startFakeComfyUi();
    comfy.script({ steps: 2, stepDelayMs: 0 });
    silent = await silentServer();
    // A port nothing listens on: connections are refused.
    closedUrl = `http://127.0.0.1:${await freePort()}`;
    server = await startTestServer(
      // ComfyUI's address is set in /admin → Studio by each test.
      { OPENAI_API_KEY: OPENAI_KEY, OPENAI_API_URL: openai.url },
      // A short health check, and an engine found down is asked again at once (each test sets its own scene);
      // an engine's share of the time ends when a test says so.
      {
        worker: {
          engineCheckTimeoutMs: 400,
          engineRecheckMs: 0,
          engineFinishWithin: (ms) => {
            shares.push(ms);
            return outOfTime.signal;
          },
        },
      },
    );
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([openai?.close(), comfy?.close(), silent?.close()]);
  });

  /** Points the studio's ComfyUI at `url` and lists the render task's engines, through /admin → Studio. */
  async function configure(comfyUrl: string, render: Array<"comfyui" | "openai" | "local">) {
    const current = await admin.client.admin.studioSettings.query();
    await admin.client.admin.updateEngine.mutate({
      engine: "local",
      replicateModel: current.engine.replicateModel,
      openaiModel: current.engine.openaiModel,
      comfyuiUrl: comfyUrl,
      keys: {},
    });
    await admin.client.admin.updateEngineRoutes.mutate({ render, stage: [], declutter: [], exterior: [], edit: [], upscale: [] });
  }

  it("/admin offers per task only the engines set up and able, and refuses one that is not", async () => {
    expect((await admin.client.admin.studioSettings.query()).engineOffer.render).toEqual(["local", "openai"]);
    await configure(closedUrl, ["comfyui", "openai"]);
    const settings = await admin.client.admin.studioSettings.query();
    expect(settings.engineOffer).toEqual({
      render: ["local", "comfyui", "openai"],
      stage: ["comfyui", "openai"],
      declutter: ["comfyui", "openai"],
      exterior: ["comfyui", "openai"],
      edit: ["local", "comfyui", "openai"],
      // ComfyUI upscales with its default upscale model (decision 087).
      upscale: ["comfyui"],
    });
    const refused = failure(
      await admin.client.admin.updateEngineRoutes
        .mutate({ render: ["replicate"], stage: [], declutter: [], exterior: [], edit: [], upscale: [] })
        .catch((error: unknown) => error),
    );
    expect(readMessage(refused.message)).toEqual({ key: "engineRouteUnable", params: { engine: "replicate", task: "render" } });
    const unable = failure(
      await admin.client.admin.updateEngineRoutes
        .mutate({ render: [], stage: ["local"], declutter: [], exterior: [], edit: [], upscale: [] })
        .catch((error: unknown) => error),
    );
    expect(readMessage(unable.message)?.key).toBe("engineRouteUnable");
  });

  it("skips an engine that refuses connections: OpenAI makes the picture, its provenance says why, one charge", async () => {
    await configure(closedUrl, ["comfyui", "openai"]);
    const { user, projectId, imageId } = await userWithPhoto(server);
    const credits = (await user.client.account.profile.query()).credits;
    const openaiBefore = openAiRenders(openai);
    const job = (await user.client.render.create.mutate({ projectId, imageId, style: "modern" })).jobs[0]!;
    await waitForRenders(user, [job.id]);
    const view = await user.client.render.job.query({ id: job.id });
    expect(view).toMatchObject({ status: "succeeded", engine: { id: "openai" } });
    expect(openAiRenders(openai)).toBe(openaiBefore + 1);
    const reason = readMessage(view.fallbackReason ?? "");
    expect(reason?.key).toBe("engineFallback");
    expect(reason?.params).toMatchObject({ engine: "OpenAI (gpt-image-1)" });
    expect(String(reason?.params.skipped)).toContain("ComfyUI");
    expect((await user.client.account.profile.query()).credits).toBe(credits - 1);
    expect(await ledgerKinds(server, job.id)).toEqual(["charge:-1"]);

    const statuses = await admin.client.admin.engineStatuses.query();
    const comfyui = statuses.find((engine) => engine.id === "comfyui")!;
    expect(comfyui).toMatchObject({ state: "down", tasks: ["render"] });
    expect(comfyui.failures[0]).toMatchObject({ task: "check" });
    expect(comfyui.failures[0]!.message).toMatch(/ComfyUI/);
    expect(statuses.find((engine) => engine.id === "openai")).toMatchObject({ state: "up", failures: [] });
  });

  it("skips an engine that does not answer in time, without sending it the render", async () => {
    await configure(silent.url, ["comfyui", "openai"]);
    const { user, projectId, imageId } = await userWithPhoto(server);
    const job = (await user.client.render.create.mutate({ projectId, imageId, style: "coastal" })).jobs[0]!;
    await waitForRenders(user, [job.id]);
    const view = await user.client.render.job.query({ id: job.id });
    expect(view).toMatchObject({ status: "succeeded", engine: { id: "openai" } });
    expect(readMessage(view.fallbackReason ?? "")?.params.detail).toMatch(/did not answer|no answer|answer/i);
    expect(silent.connections()).toBeGreaterThan(0);
    expect(await ledgerKinds(server, job.id)).toEqual(["charge:-1"]);
  });

  it("stops an engine that accepted the render and then hangs once its share of the time is up, and the next makes the picture", async () => {
    await configure(comfy.url, ["comfyui", "openai"]);
    comfy.script({ steps: 4, stepDelayMs: 0, outcome: "hang" });
    try {
      const { user, projectId, imageId } = await userWithPhoto(server);
      const openAiBefore = openAiRenders(openai);
      const job = (await user.client.render.create.mutate({ projectId, imageId, style: "japandi" })).jobs[0]!;
      // ComfyUI took the prompt and stopped half-way; with OpenAI after it, it has half of the render's deadline.
      await waitUntil(() => [...comfy.prompts.values()].filter((prompt) => prompt.state === "running").length, {
        message: "ComfyUI to hang on the prompt",
        until: (running) => running > 0,
      });
      // And the adapter has seen it run (its progress is recorded): only a prompt seen running is
      // interrupted; one the socket has not yet reported is only taken out of the queue.
      await waitUntil(
        async () =>
          (await server.deps.db.selectFrom("render_events").select("payload").where("job_id", "=", job.id).execute()).some(
            (row) => (JSON.parse(row.payload) as { percent?: number }).percent! > 0,
          ),
        { message: "the render's progress from ComfyUI", until: (seen) => seen },
      );
      expect(shares.at(-1)).toBeGreaterThan(55_000);
      expect(shares.at(-1)).toBeLessThanOrEqual(60_000);
      expect(openAiRenders(openai)).toBe(openAiBefore);
      outOfTime.abort();
      await waitForRenders(user, [job.id]);
      const view = await user.client.render.job.query({ id: job.id });
      expect(view).toMatchObject({ status: "succeeded", engine: { id: "openai" } });
      expect(readMessage(view.fallbackReason ?? "")?.params.detail).toBe("did not finish within 60 s");
      // Its prompt is taken off the GPU (the adapter's interrupt may reach the box after OpenAI's picture); one charge.
      await waitUntil(() => comfy.interrupts().length, { message: "ComfyUI to be told to interrupt", until: (count) => count > 0 });
      expect(await ledgerKinds(server, job.id)).toEqual(["charge:-1"]);
    } finally {
      outOfTime.abort();
      // The next tests' engines have all the time they want.
      outOfTime = new AbortController();
      comfy.script({ steps: 2, stepDelayMs: 0, outcome: "success" });
    }
  });

  it("moves on when the engine fails the render itself (503), and the first engine is used again once up", async () => {
    await configure(comfy.url, ["comfyui", "openai"]);
    comfy.script({ promptReplies: [{ status: 503, body: "busy" }] });
    const { user, projectId, imageId } = await userWithPhoto(server);
    const queuedBefore = comfy.requests.filter((request) => request.method === "POST" && request.path === "/prompt").length;
    const job = (await user.client.render.create.mutate({ projectId, imageId, style: "modern" })).jobs[0]!;
    await waitForRenders(user, [job.id]);
    expect(comfy.requests.filter((request) => request.method === "POST" && request.path === "/prompt").length).toBe(queuedBefore + 1);
    const view = await user.client.render.job.query({ id: job.id });
    expect(view).toMatchObject({ status: "succeeded", engine: { id: "openai" }, attempts: 2 });
    expect(readMessage(view.fallbackReason ?? "")?.key).toBe("engineFallback");
    expect(await ledgerKinds(server, job.id)).toEqual(["charge:-1"]);
    const comfyui = (await admin.client.admin.engineStatuses.query()).find((engine) => engine.id === "comfyui")!;
    expect(comfyui.failures[0]).toMatchObject({ task: "render" });

    // ComfyUI answers again: after its health check passes, it makes the next render itself.
    const next = (await user.client.render.create.mutate({ projectId, imageId, style: "modern" })).jobs[0]!;
    await waitForRenders(user, [next.id]);
    expect(await user.client.render.job.query({ id: next.id })).toMatchObject({
      status: "succeeded",
      engine: { id: "comfyui" },
      fallbackReason: null,
    });
  });

  it("with none left, the render fails with the message and its credit comes back", async () => {
    await configure(closedUrl, ["comfyui", "openai"]);
    openai.script({ replies: [{ status: 503, body: JSON.stringify({ error: { message: "overloaded" } }) }] });
    const { user, projectId, imageId } = await userWithPhoto(server);
    const credits = (await user.client.account.profile.query()).credits;
    const job = (await user.client.render.create.mutate({ projectId, imageId, style: "modern" })).jobs[0]!;
    const view = await ended(user, job.id);
    expect(view.status).toBe("failed");
    const message = readMessage(view.error ?? "");
    expect(message?.key).toBe("engineNoneAvailable");
    expect(String(message?.params.detail)).toMatch(/ComfyUI.*OpenAI/);
    expect(MESSAGES.engineNoneAvailable).toContain("credit was returned");
    expect((await user.client.account.profile.query()).credits).toBe(credits);
    expect(await ledgerKinds(server, job.id)).toEqual(["charge:-1", "refund:1"]);
    const statuses = await admin.client.admin.engineStatuses.query();
    expect(statuses.find((engine) => engine.id === "openai")).toMatchObject({ state: "down" });
    expect(statuses.find((engine) => engine.id === "openai")!.failures[0]).toMatchObject({ task: "render" });
  });
});

describe("fallback for upscales", () => {
  let openai: FakeOpenAi;
  let replicate: FakeReplicate;
  let server: TestServer;

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: OPENAI_KEY });
    replicate = await startFakeReplicate({ token: "r8_engine_routing" });
    replicate.script({ processingPolls: 0 });
    server = await startTestServer(
      {
        OPENAI_API_KEY: OPENAI_KEY,
        OPENAI_API_URL: openai.url,
        REPLICATE_API_TOKEN: "r8_engine_routing",
        REPLICATE_API_URL: replicate.url,
        // ComfyUI (with its default upscale model) at an address nothing listens on.
        COMFYUI_URL: `http://127.0.0.1:${await freePort()}`,
        ENGINES_RENDER: "openai",
        ENGINES_UPSCALE: "comfyui,replicate",
      },
      { worker: { engineCheckTimeoutMs: 400 } },
    );
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([openai?.close(), replicate?.close()]);
  });

  it("skips a down ComfyUI for Replicate, and records which engine upscaled and why", async () => {
    const user = await signedInClient(server.url);
    await confirmAddress(server.url, server.deps.db, user.email);
    const uploaded = await upload(server.url, user.jar, await roomPhoto(2400, 1600));
    const job = (
      await user.client.render.create.mutate({ projectId: uploaded.body.projectId, imageId: uploaded.body.imageId, style: "modern" })
    ).jobs[0]!;
    await waitForRenders(user, [job.id]);
    const createsBefore = replicate.creates().length;
    await user.client.render.upscale.mutate({ id: job.id });
    expect(replicate.creates().length).toBe(createsBefore + 1);
    const view = await user.client.render.job.query({ id: job.id });
    expect(view.upscaleEngine?.id).toBe("replicate");
    const reason = readMessage(view.upscaleEngine?.fallbackReason ?? "");
    expect(reason?.key).toBe("engineFallback");
    expect(String(reason?.params.skipped)).toContain("ComfyUI");
    // The download says the engine that really upscaled it.
    expect(view.downloads.find((download) => download.kind === "upscaled")?.upscaledWith?.engine).toMatch(/Replicate/);
  });
});
