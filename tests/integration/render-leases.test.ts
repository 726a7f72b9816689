/**
 * Several processes on one database (ROLE, decision 077): web instances never render, workers
 * serve nothing but /healthz; workers claim jobs with a lease, renew it while they render, and take
 * over a dead worker's job only once its lease has run out. Every job is rendered and charged once,
 * and a worker whose claim was taken over cannot write its late result.
 *
 * Each instance is a startApp of its own on the same environment (the same SQLite file, or the same
 * PostgreSQL database), each with its own engine and, where time matters, its own clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { StartedApp } from "../../src/server/boot";
import { UPLOAD_BUCKET } from "../../src/shared/constants";
import { ledgerBalance } from "../../src/server/services/credits";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider, RenderRequest } from "../../src/server/render/engines/provider";
import type { DesignStyle } from "../../src/shared/styles";
import { collectEvents, roomPhoto, signedInClient, untilAllFinal, upload, waitForRenders } from "../helpers/render";
import { databaseLane, makeTestEnv } from "../helpers/test-env";
import { TestClock } from "../helpers/test-clock";
import { startInstance, stopInstances } from "../helpers/instances";
import { waitUntil } from "../helpers/wait";
import { startFakeReplicate } from "../helpers/fake-replicate";
import { createReplicateProvider } from "../../src/server/render/engines/replicate";

const LEASE_MS = 60_000;

/**
 * An engine that answers when the test releases it. `honoursAbort: false` is a worker that hangs
 * (a frozen process, a lost network): told to stop, it does not notice.
 */
function heldEngine(name: string, options: { honoursAbort: boolean; release?: "held" | "free" }) {
  const started: RenderRequest[] = [];
  const waiting: Array<() => void> = [];
  let free = options.release === "free";
  const provider: RenderProvider = {
    ...localProvider,
    id: name,
    label: `Engine of ${name}`,
    capabilities: PREVIEW_CAPABILITIES,
    async render(request) {
      started.push(request);
      if (!free) {
        await new Promise<void>((resolve, reject) => {
          waiting.push(resolve);
          if (options.honoursAbort) request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
        });
      }
      return localProvider.render(request);
    },
  };
  return {
    provider,
    started,
    /** Lets every render waiting now, and every later one, answer. */
    releaseAll() {
      free = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

afterEach(stopInstances);

async function createJobs(baseUrl: string, styles: DesignStyle[], user?: Awaited<ReturnType<typeof signedInClient>>) {
  const studio = user ?? (await signedInClient(baseUrl));
  const uploaded = await upload(baseUrl, studio.jar, await roomPhoto(400, 300));
  const { jobs } = await studio.client.render.create.mutate({
    projectId: uploaded.body.projectId,
    imageId: uploaded.body.imageId,
    style: styles,
  });
  return { studio, jobIds: jobs.map((job) => job.id) };
}

const jobRow = (app: StartedApp, id: string) =>
  app.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function ledgerKinds(app: StartedApp, userId: string) {
  const rows = await app.deps.db.selectFrom("credit_ledger").select(["kind", "job_id"]).where("user_id", "=", userId).execute();
  return rows.filter((row) => row.kind === "charge" || row.kind === "refund");
}

describe("roles", () => {
  it("ROLE=worker serves /healthz and nothing of the app", async () => {
    const worker = await startInstance(makeTestEnv(), "worker");
    const health = await fetch(`${worker.http.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, db: "ok", role: "worker", activeRenders: 0 });
    for (const [method, route] of [
      ["GET", "/"],
      ["GET", "/admin"],
      ["GET", "/trpc/auth.session"],
      ["GET", "/readyz"],
      ["POST", "/api/uploads"],
    ] as const) {
      const response = await fetch(`${worker.http.url}${route}`, { method });
      expect(response.status, `${method} ${route}`).toBe(404);
      expect(await response.text()).toContain("ROLE=worker");
    }
  });
});

describe("render workers on one database", () => {
  it("two workers render every job exactly once and charge it once; the web instance claims none", async () => {
    const env = makeTestEnv({ RENDER_CONCURRENCY: "1" });
    const web = await startInstance(env, "web");
    const user = await signedInClient(web.http.url);
    const styles: DesignStyle[] = ["modern", "scandinavian", "industrial", "bohemian"];
    const first = await createJobs(web.http.url, styles, user);
    const second = await createJobs(web.http.url, styles, user);
    const jobIds = [...first.jobIds, ...second.jobIds];

    // Each worker's first render waits until both have one, so that both take part.
    const engines = [heldEngine("worker-1", { honoursAbort: true }), heldEngine("worker-2", { honoursAbort: true })];
    const workers = [];
    for (const engine of engines)
      workers.push(await startInstance(env, "worker", { renderProvider: engine.provider, worker: { idlePollMs: 50 } }));
    await waitUntil(() => engines.every((engine) => engine.started.length > 0), { message: "each worker to start a render" });
    for (const engine of engines) engine.releaseAll();
    await waitForRenders(user, jobIds, { timeoutMs: 30_000 });

    expect(engines[0]!.started.length + engines[1]!.started.length).toBe(jobIds.length);
    const rows = await Promise.all(jobIds.map((id) => jobRow(web, id)));
    const workerIds = workers.map((worker) => worker.services.render.instanceId);
    expect(new Set(workerIds).size).toBe(2);
    expect(workerIds).not.toContain(web.services.render.instanceId);
    for (const row of rows) expect(row).toMatchObject({ status: "succeeded", claims: 1, recoveries: 0 });
    expect(new Set(rows.map((row) => row.claimed_by))).toEqual(new Set(workerIds));
    expect(web.services.render.activeRenders()).toBe(0);

    // Every job ends once, as its events tell any client; charged once each, nothing refunded.
    const events = await collectEvents(user, {}, untilAllFinal(jobIds));
    for (const id of jobIds) {
      expect(
        events.filter((e) => e.event.jobId === id && e.event.type === "succeeded"),
        id,
      ).toHaveLength(1);
    }
    const ledger = await ledgerKinds(web, user.userId);
    expect(
      ledger
        .filter((row) => row.kind === "charge")
        .map((row) => row.job_id)
        .sort(),
    ).toEqual([...jobIds].sort());
    expect(ledger.filter((row) => row.kind === "refund")).toEqual([]);
    expect(await ledgerBalance(web.deps.db, user.userId)).toBe(10 - jobIds.length);
  });

  it("a worker that dies mid-render leaves its job to another once its lease has run out; its late result is refused", async () => {
    const env = makeTestEnv({ RENDER_CONCURRENCY: "1", RENDER_LEASE_MS: String(LEASE_MS) });
    const clock = new TestClock();
    const web = await startInstance(env, "web", { clock });
    // The worker that dies: its clock stops with it, and it renews nothing.
    const dying = heldEngine("dying", { honoursAbort: false });
    const deadWorker = await startInstance(env, "worker", {
      clock: new TestClock(clock.now()),
      renderProvider: dying.provider,
      worker: { idlePollMs: 50, renewEveryMs: 3_600_000 },
    });
    const { studio, jobIds } = await createJobs(web.http.url, ["modern"]);
    const jobId = jobIds[0]!;
    const claimedBy = async (app: StartedApp) => {
      const row = await jobRow(app, jobId);
      return { status: row.status, claimed_by: row.claimed_by, claims: row.claims };
    };
    expect(
      await waitUntil(() => claimedBy(web), {
        message: "the first worker to render the job",
        until: (row) => row.status === "rendering",
      }),
    ).toEqual({ status: "rendering", claimed_by: deadWorker.services.render.instanceId, claims: 1 });
    const firstInput = (await jobRow(web, jobId)).input_key!;

    // A second worker starts while the lease is still valid: it leaves the job alone.
    const taking = heldEngine("taking-over", { honoursAbort: true });
    const other = await startInstance(env, "worker", { clock, renderProvider: taking.provider, worker: { idlePollMs: 20 } });
    expect(await claimedBy(other)).toEqual({ status: "rendering", claimed_by: deadWorker.services.render.instanceId, claims: 1 });

    // The lease runs out: the other worker puts the job back in the queue (one recovery) and renders it.
    clock.advance(LEASE_MS + 1);
    expect(
      await waitUntil(() => claimedBy(web), {
        message: "the second worker to take the job over",
        until: (row) => row.claimed_by === other.services.render.instanceId && row.status === "rendering",
      }),
    ).toEqual({ status: "rendering", claimed_by: other.services.render.instanceId, claims: 2 });
    expect((await jobRow(web, jobId)).recoveries).toBe(1);
    await waitUntil(() => taking.started.length, { message: "the second worker's engine to be called" });

    // The dead worker comes back with its result: nothing of it is written, and it removes none of the other's files.
    dying.releaseAll();
    await waitUntil(() => deadWorker.services.render.activeRenders(), { message: "the first worker to give up", until: (n) => n === 0 });
    const taken = await jobRow(web, jobId);
    expect(taken).toMatchObject({ status: "rendering", claimed_by: other.services.render.instanceId, claims: 2, result_key: null });
    expect(taken.input_key).not.toBe(firstInput);
    expect(await web.deps.storage.get(UPLOAD_BUCKET, taken.input_key!)).not.toBeNull();
    expect(await web.deps.storage.get(UPLOAD_BUCKET, firstInput)).toBeNull();

    taking.releaseAll();
    await waitForRenders(studio, [jobId]);
    const done = await jobRow(web, jobId);
    expect(done).toMatchObject({ status: "succeeded", claimed_by: other.services.render.instanceId, claims: 2 });
    expect(done.result_key!.startsWith(`renders/${jobId}/c2-`)).toBe(true);
    expect([dying.started.length, taking.started.length]).toEqual([1, 1]);
    const events = await collectEvents(studio, { jobId }, untilAllFinal([jobId]));
    expect(events.map((e) => e.event.type).filter((type) => type !== "rendering" && type !== "positions")).toEqual([
      "queued",
      "preprocessing",
      "queued",
      "preprocessing",
      "saving",
      "succeeded",
    ]);
    expect(events.some((e) => e.event.type === "queued" && e.event.resumed)).toBe(true);
    expect(await ledgerKinds(web, studio.userId)).toEqual([{ kind: "charge", job_id: jobId }]);
    expect(await ledgerBalance(web.deps.db, studio.userId)).toBe(9);
  });

  it("a worker taking over the job of one that died follows its Replicate prediction instead of paying for a second", async () => {
    const replicate = await startFakeReplicate();
    try {
      replicate.script({ final: "never" });
      const engine = () =>
        createReplicateProvider({ token: replicate.token, model: "adirik/interior-design", baseUrl: replicate.url, pollIntervalMs: 5 });
      const env = makeTestEnv({ RENDER_CONCURRENCY: "1", RENDER_LEASE_MS: String(LEASE_MS) });
      const clock = new TestClock();
      const web = await startInstance(env, "web", { clock });
      // The worker that dies mid-prediction: its clock stops with it, and it renews nothing.
      const deadWorker = await startInstance(env, "worker", {
        clock: new TestClock(clock.now()),
        renderProvider: engine(),
        worker: { idlePollMs: 50, renewEveryMs: 3_600_000 },
      });
      const { studio, jobIds } = await createJobs(web.http.url, ["modern"]);
      const jobId = jobIds[0]!;
      const workId = await waitUntil(async () => (await jobRow(web, jobId)).engine_work_id, {
        message: "the prediction's id recorded on the job",
      });
      expect(replicate.creates()).toHaveLength(1);
      expect(workId).toMatch(/^replicate:[\w-]+$/);

      const other = await startInstance(env, "worker", { clock, renderProvider: engine(), worker: { idlePollMs: 20 } });
      clock.advance(LEASE_MS + 1);
      await waitUntil(() => jobRow(web, jobId), {
        message: "the second worker to take the job over",
        until: (row) => row.claimed_by === other.services.render.instanceId && row.status === "rendering",
      });
      // The second worker asks Replicate about the prediction already running, and makes none.
      const predictionPath = `/v1/predictions/${workId!.slice("replicate:".length)}`;
      const pollsBefore = replicate.polls().length;
      await waitUntil(() => replicate.polls().length, { message: "the prediction followed again", until: (n) => n > pollsBefore + 2 });
      expect(replicate.polls().every((request) => request.path === predictionPath)).toBe(true);
      replicate.script({ final: "succeeded" });
      await waitForRenders(studio, [jobId]);
      const done = await jobRow(web, jobId);
      expect(done).toMatchObject({ status: "succeeded", claimed_by: other.services.render.instanceId, claims: 2, provider: "replicate" });
      expect(replicate.creates()).toHaveLength(1);
      expect(replicate.cancels()).toHaveLength(0);
      expect(await ledgerKinds(web, studio.userId)).toEqual([{ kind: "charge", job_id: jobId }]);
      expect(deadWorker.services.render.instanceId).not.toBe(other.services.render.instanceId);
    } finally {
      // The workers first: the dead one still follows the prediction.
      await stopInstances();
      await replicate.close();
    }
  });

  it("a worker renews its lease while it renders; workers (re)starting meanwhile leave its job alone; a cancel elsewhere stops it", async () => {
    const env = makeTestEnv({ RENDER_CONCURRENCY: "1", RENDER_LEASE_MS: String(LEASE_MS) });
    const clock = new TestClock();
    const web = await startInstance(env, "web", { clock });
    const engine = heldEngine("renewing", { honoursAbort: true });
    const worker = await startInstance(env, "worker", {
      clock,
      renderProvider: engine.provider,
      worker: { idlePollMs: 50, renewEveryMs: 20 },
    });
    const { studio, jobIds } = await createJobs(web.http.url, ["modern"]);
    const jobId = jobIds[0]!;
    await waitUntil(() => jobRow(web, jobId), { message: "the job to be rendering", until: (row) => row.status === "rendering" });
    const claimedAt = clock.now();
    expect((await jobRow(web, jobId)).lease_until).toBe(claimedAt + LEASE_MS);

    // Three quarters of the lease later, it has been renewed from the new now.
    clock.advance((LEASE_MS * 3) / 4);
    await waitUntil(async () => (await jobRow(web, jobId)).lease_until, {
      message: "the lease to be renewed",
      until: (until) => until === clock.now() + LEASE_MS,
    });
    // Past the first lease's end: still held, so a worker starting now (and again after a restart) does not take it.
    clock.advance((LEASE_MS * 3) / 4);
    for (let start = 0; start < 2; start++) {
      const restarting = await startInstance(env, "worker", { clock, renderProvider: localProvider, worker: { idlePollMs: 20 } });
      try {
        expect(await restarting.services.render.recoverExpiredLeases()).toEqual({ resumed: 0, failed: 0 });
        expect(await jobRow(web, jobId)).toMatchObject({
          status: "rendering",
          claimed_by: worker.services.render.instanceId,
          claims: 1,
          recoveries: 0,
        });
      } finally {
        await restarting.stop();
      }
    }

    // Canceled through the web instance, which runs no worker to tell: the worker's next renewal finds
    // the job no longer its own and stops the engine; the cancel's refund is the only one.
    expect(await studio.client.render.cancel.mutate({ id: jobId })).toEqual({ status: "canceled" });
    await waitUntil(() => worker.services.render.activeRenders(), { message: "the worker to stop the render", until: (n) => n === 0 });
    expect(engine.started[0]!.signal.aborted).toBe(true);
    expect(await jobRow(web, jobId)).toMatchObject({ status: "canceled", result_key: null });
    expect((await ledgerKinds(web, studio.userId)).map((row) => row.kind)).toEqual(["charge", "refund"]);
    expect(await ledgerBalance(web.deps.db, studio.userId)).toBe(10);
  });
});

describe("signals between instances (PostgreSQL: NOTIFY, decision 083)", () => {
  // On SQLite (processes on one box) a worker finds a job added elsewhere at its next look at the
  // queue, and a cancel at its next lease renewal (both tested above); PostgreSQL tells it at once.
  it.runIf(databaseLane() === "postgres")(
    "a job added through a web instance is claimed at once by a worker elsewhere, and a cancel through it stops that worker's engine at once",
    async () => {
      const env = makeTestEnv({ RENDER_CONCURRENCY: "1", RENDER_LEASE_MS: String(LEASE_MS) });
      const web = await startInstance(env, "web");
      const engine = heldEngine("told", { honoursAbort: true });
      // Neither its look at the queue nor its lease renewal comes within the test: only being told can.
      const worker = await startInstance(env, "worker", {
        renderProvider: engine.provider,
        worker: { idlePollMs: 3_600_000, renewEveryMs: 3_600_000 },
      });
      const { studio, jobIds } = await createJobs(web.http.url, ["modern"]);
      const jobId = jobIds[0]!;
      await waitUntil(() => engine.started.length, { message: "the worker to be told of the new job", until: (n) => n === 1 });
      expect((await jobRow(web, jobId)).claimed_by).toBe(worker.services.render.instanceId);

      expect(await studio.client.render.cancel.mutate({ id: jobId })).toEqual({ status: "canceled" });
      await waitUntil(() => worker.services.render.activeRenders(), {
        message: "the worker to be told of the cancel",
        until: (n) => n === 0,
      });
      expect(engine.started[0]!.signal.aborted).toBe(true);
      expect(await jobRow(web, jobId)).toMatchObject({ status: "canceled", result_key: null });
      expect((await ledgerKinds(web, studio.userId)).map((row) => row.kind)).toEqual(["charge", "refund"]);
    },
  );
});

describe("queue order", () => {
  it("jobs made in one millisecond are claimed in the order they were made, and keep their place when put back", async () => {
    const env = makeTestEnv();
    const clock = new TestClock();
    const web = await startInstance(env, "web", { clock });
    const styles: DesignStyle[] = ["modern", "scandinavian", "industrial", "bohemian", "coastal", "japandi"];
    const { jobIds } = await createJobs(web.http.url, styles);
    const rows = await Promise.all(jobIds.map((id) => jobRow(web, id)));
    expect(new Set(rows.map((row) => row.created_at)).size).toBe(1);
    const numbers = rows.map((row) => row.queue_seq);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    // The third job was claimed by a worker that died; put back, it takes its place again (not the end of the line).
    await web.deps.db
      .updateTable("render_jobs")
      .set({ status: "rendering", claimed_by: "a-dead-worker", claims: 1, lease_until: clock.now() - 1 })
      .where("id", "=", jobIds[2]!)
      .execute();
    expect(await web.services.render.recoverExpiredLeases()).toEqual({ resumed: 1, failed: 0 });
    const engine = heldEngine("in-order", { honoursAbort: true, release: "free" });
    await startInstance(env, "worker", { clock, renderProvider: engine.provider, worker: { concurrency: 1 } });
    await waitUntil(() => engine.started.length, { message: "every job to be rendered", until: (n) => n === jobIds.length });
    const claimed = await web.deps.db
      .selectFrom("render_events")
      .select(["job_id"])
      .where("job_id", "in", jobIds)
      .where("type", "=", "preprocessing")
      .orderBy("id")
      .execute();
    expect(claimed.map((row) => row.job_id)).toEqual(jobIds);
  });
});
