/**
 * The render worker's promises: transient engine failures retried inside the deadline, a deadline
 * that fails and refunds, cancel while queued or rendering, events replayed after lastEventId
 * without loss or duplicates, and jobs that survive a shutdown, a crash (SIGKILL) and a restart.
 */
import { PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import type { RenderEvent } from "../../src/shared/render";
import { openDatabase } from "../../src/server/db/client";
import { ledgerBalance } from "../../src/server/services/credits";
import { localProvider } from "../../src/server/render/engines/local";
import { RetryableRenderError, type RenderProvider, type RenderRequest } from "../../src/server/render/engines/provider";
import { startFakeReplicate, type FakeReplicate } from "../helpers/fake-replicate";
import {
  collectEvents,
  confirmAddress,
  createStudioClient,
  isFinal,
  roomPhoto,
  signedInClient,
  untilAllFinal,
  upload,
  type StudioClient,
} from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { makeTestEnv, placeOf } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";
import { failure } from "../helpers/failure";
import { applyEvent, jobsOfEvent } from "../../src/client/hooks/useRenderJobs";

/** An engine the test steers: each render waits until released, or fails as told. */
function steeredProvider() {
  const started: RenderRequest[] = [];
  let plan: Array<"transient" | "hang" | "ok"> = [];
  const provider: RenderProvider = {
    id: "steered",
    label: "Steered test engine",
    capabilities: PREVIEW_CAPABILITIES,
    async render(request) {
      started.push(request);
      const step = plan.shift() ?? "ok";
      if (step === "transient") throw Object.assign(new RetryableRenderError("busy (HTTP 429)"), { retryAfterMs: 5 });
      if (step === "hang") {
        await new Promise((_resolve, reject) =>
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }),
        );
      }
      request.onProgress?.(0.5);
      return localProvider.render(request);
    },
  };
  return { provider, started, plan: (steps: typeof plan) => (plan = steps) };
}

async function newJob(
  studio: StudioClient & { userId?: string },
  baseUrl: string,
  style: "modern" | ["modern", "scandinavian"] = "modern",
) {
  const uploaded = await upload(baseUrl, studio.jar, await roomPhoto(400, 300));
  const { jobs } = await studio.client.render.create.mutate({ projectId: uploaded.body.projectId, imageId: uploaded.body.imageId, style });
  return jobs.map((job) => job.id);
}

/** Polls a job's status (as read) until it is `status`; fails naming the job and the last status seen. */
function untilStatus(jobId: string, status: string, read: () => Promise<string>): Promise<string> {
  return waitUntil(read, { until: (seen) => seen === status, message: `job ${jobId} to be ${status}`, timeoutMs: 15_000, intervalMs: 25 });
}

describe("render worker", () => {
  let server: TestServer;
  const engine = steeredProvider();
  beforeAll(async () => {
    // The default deadline (2 minutes): a job the engine holds ("hang") stays rendering until the
    // test cancels it, however long a busy machine takes to get there. The deadline has its own
    // server below.
    server = await startTestServer(
      { RENDER_CONCURRENCY: "1" },
      { renderProvider: engine.provider, worker: { retryBaseMs: 5, retryMaxMs: 20 } },
    );
  });
  afterAll(async () => {
    await server?.stop();
  });
  const jobRow = (id: string) => server.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("retries transient engine failures (429) with backoff, then succeeds, charging once", async () => {
    const user = await signedInClient(server.url);
    engine.plan(["transient", "transient", "ok"]);
    const [jobId] = await newJob(user, server.url);
    const events = await collectEvents(user, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
    expect(events.at(-1)!.event.type).toBe("succeeded");
    expect(events.filter((e) => e.event.type === "rendering").map((e) => (e.event.type === "rendering" ? e.event.attempt : 0))).toEqual(
      expect.arrayContaining([1, 2, 3]),
    );
    expect((await jobRow(jobId!)).attempts).toBe(3);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(9);
  });

  it("cancels while rendering (the engine is stopped) and while queued, refunding each once", async () => {
    const user = await signedInClient(server.url);
    engine.plan(["hang"]);
    const [running, waiting] = await newJob(user, server.url, ["modern", "scandinavian"]);
    await untilStatus(running!, "rendering", async () => (await jobRow(running!)).status);
    expect((await jobRow(waiting!)).status).toBe("queued");
    expect(await user.client.render.job.query({ id: waiting! })).toMatchObject({ status: "queued", position: 1 });

    expect(await user.client.render.cancel.mutate({ id: waiting! })).toEqual({ status: "canceled" });
    expect(await user.client.render.cancel.mutate({ id: running! })).toEqual({ status: "canceled" });
    const events = await collectEvents(user, {}, untilAllFinal([running!, waiting!]));
    expect(events.filter((e) => isFinal(e.event)).map((e) => e.event)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ jobId: running, type: "canceled", refunded: true }),
        expect.objectContaining({ jobId: waiting, type: "canceled", refunded: true }),
      ]),
    );
    expect(engine.started.at(-1)!.signal.aborted).toBe(true);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(10);
    expect(await user.client.render.cancel.mutate({ id: running! }).catch(failure)).toMatchObject({
      message: MESSAGES.renderNotCancelable,
      data: { code: "CONFLICT" },
    });
  });

  it("a client reconnecting with its last event id misses nothing and gets nothing twice", async () => {
    const user = await signedInClient(server.url);
    engine.plan(["ok", "ok"]);
    const jobIds = await newJob(user, server.url, ["modern", "scandinavian"]);
    // The whole story, from the start.
    const all = await collectEvents(user, {}, untilAllFinal(jobIds));
    // A client that saw the first three, disconnected, and came back with the third's id.
    const firstPart = await collectEvents(user, {}, (seen) => seen.length === 3);
    const rest = await collectEvents(user, { lastEventId: firstPart.at(-1)!.id }, (seen) => seen.length === all.length - 3);
    expect([...firstPart, ...rest]).toEqual(all);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    // Ids only grow.
    expect(all.map((e) => Number(e.id))).toEqual([...all.map((e) => Number(e.id))].sort((a, b) => a - b));

    // Live: subscribed mid-render with the last id seen so far, the client gets exactly what follows.
    engine.plan(["hang"]);
    const [hanging] = await newJob(user, server.url);
    await untilStatus(hanging!, "rendering", async () => (await jobRow(hanging!)).status);
    const before = await collectEvents(user, { jobId: hanging }, (seen) => seen.some((e) => e.event.type === "rendering"));
    const after = collectEvents(user, { jobId: hanging, lastEventId: before.at(-1)!.id }, (seen) => seen.some((e) => isFinal(e.event)));
    await user.client.render.cancel.mutate({ id: hanging! });
    const afterEvents = await after;
    expect(afterEvents.map((e) => e.event.type)).toEqual(["canceled"]);
    expect(afterEvents.every((e) => Number(e.id) > Number(before.at(-1)!.id))).toBe(true);
  });

  it("folds a queue move into one positions event per owner, placing each of its waiting jobs", async () => {
    const ana = await signedInClient(server.url);
    const bob = await signedInClient(server.url);
    engine.plan(["hang", "hang", "hang", "hang"]);
    const [running, anaWaiting] = await newJob(ana, server.url, ["modern", "scandinavian"]);
    await untilStatus(running!, "rendering", async () => (await jobRow(running!)).status);
    // The worker announces the queue shortly after each start (at most twice a second). Bob queues
    // once the announcement for Ana's start has placed her second job, so the move below is the
    // first one that places his (queued a moment sooner, his jobs would be placed at 2 and 3 first).
    const placedFirst = (event: RenderEvent) =>
      event.type === "positions" && event.positions.some((place) => place.jobId === anaWaiting && place.position === 1);
    await collectEvents(ana, { jobId: anaWaiting }, (seen) => seen.some((e) => placedFirst(e.event)));
    const [bobFirst, bobSecond] = await newJob(bob, server.url, ["modern", "scandinavian"]);
    // The queue: ana's second (1), bob's two (2, 3). Ana's running job leaves it; her second starts.
    const bobSees = collectEvents(bob, {}, (seen) => seen.some((e) => e.event.type === "positions"));
    const anaSees = collectEvents(ana, { jobId: anaWaiting }, (seen) => seen.some((e) => e.event.type === "rendering"));
    await ana.client.render.cancel.mutate({ id: running! });
    const moved = (await bobSees).filter((e) => e.event.type === "positions");
    expect(moved.map((e) => e.event)).toEqual([
      expect.objectContaining({
        type: "positions",
        jobId: bobFirst,
        positions: [
          { jobId: bobFirst, position: 1 },
          { jobId: bobSecond, position: 2 },
        ],
      }),
    ]);
    // Bob's queue move is not Ana's business; the client places each of Bob's jobs from the one event.
    expect((await anaSees).every((e) => e.event.jobId === anaWaiting)).toBe(true);
    const positions = moved[0]!.event;
    expect(applyEvent(undefined, positions, bobSecond)).toEqual({ status: "queued", position: 2 });
    expect(applyEvent({ status: "queued", position: 3 }, positions, bobFirst)).toEqual({ status: "queued", position: 1 });
    expect(jobsOfEvent(positions)).toEqual([bobFirst, bobSecond]);
    // A stream of one job gets the queue moves that place it, replayed after lastEventId too.
    const bobSecondOnly = await collectEvents(bob, { jobId: bobSecond }, (seen) => seen.some((e) => e.event.type === "positions"));
    expect(bobSecondOnly.map((e) => e.event.type)).toEqual(["queued", "positions"]);

    for (const jobId of [anaWaiting, bobFirst, bobSecond])
      await (jobId === anaWaiting ? ana : bob).client.render.cancel.mutate({ id: jobId! });
    engine.plan([]);
  });

  it("another owner cannot subscribe to a job's events", async () => {
    const ana = await signedInClient(server.url);
    engine.plan(["ok"]);
    const [jobId] = await newJob(ana, server.url);
    await collectEvents(ana, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
    const bob = await signedInClient(server.url);
    await expect(collectEvents(bob, { jobId }, () => true, 5000)).rejects.toMatchObject({ message: MESSAGES.notFound });
    await expect(collectEvents(createStudioClient(server.url), { jobId }, () => true, 5000)).rejects.toMatchObject({
      message: MESSAGES.notFound,
    });
  });

  it("a job whose lease runs out a second time fails and is refunded, never stranded", async () => {
    const user = await signedInClient(server.url);
    engine.plan(["ok"]);
    const [jobId] = await newJob(user, server.url);
    await collectEvents(user, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
    // As if a worker had died holding it, after one recovery already: its lease ran out a moment ago.
    const expired = { status: "rendering" as const, recoveries: 1, claimed_by: "a-dead-worker", lease_until: server.deps.clock.now() - 1 };
    await server.deps.db.updateTable("render_jobs").set(expired).where("id", "=", jobId!).execute();
    await server.deps.db.deleteFrom("credit_ledger").where("job_id", "=", jobId!).where("kind", "=", "refund").execute();
    // The worker's own look for expired leases (every 2 s) may come first: either one fails it, once.
    const recovered = await server.services.render.recoverExpiredLeases();
    expect(recovered.resumed).toBe(0);
    expect(await jobRow(jobId!)).toMatchObject({ status: "failed", error: MESSAGES.renderInterrupted });
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(10);
  });
});

describe("render deadline", () => {
  let server: TestServer;
  const engine = steeredProvider();
  beforeAll(async () => {
    server = await startTestServer({ RENDER_DEADLINE_MS: "1000", RENDER_CONCURRENCY: "1" }, { renderProvider: engine.provider });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("fails a render that passes its deadline and refunds it", async () => {
    const user = await signedInClient(server.url);
    engine.plan(["hang"]);
    const [jobId] = await newJob(user, server.url);
    const events = await collectEvents(user, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
    expect(events.at(-1)!.event).toMatchObject({ type: "failed", message: MESSAGES.renderTimedOut, refunded: true });
    expect(engine.started.at(-1)!.signal.aborted).toBe(true);
    expect(await ledgerBalance(server.deps.db, user.userId)).toBe(10);
  });
});

describe("graceful shutdown", () => {
  it("puts the running job back in the queue; the next start renders it", async () => {
    const engine = steeredProvider();
    engine.plan(["hang"]);
    const first = await startTestServer({}, { renderProvider: engine.provider });
    const user = await signedInClient(first.url);
    const [jobId] = await newJob(user, first.url);
    await untilStatus(
      jobId!,
      "rendering",
      async () =>
        (await first.deps.db.selectFrom("render_jobs").select("status").where("id", "=", jobId!).executeTakeFirstOrThrow()).status,
    );
    await first.stop();
    const db = openDatabase(first.deps.env.DATABASE);
    expect((await db.selectFrom("render_jobs").select("status").where("id", "=", jobId!).executeTakeFirstOrThrow()).status).toBe("queued");
    await db.destroy();

    const second = await startTestServer({ ...placeOf(first.deps.env) }, { renderProvider: engine.provider, fresh: true });
    try {
      const again = createStudioClient(second.url, user.jar);
      const events = await collectEvents(again, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
      expect(events.at(-1)!.event.type).toBe("succeeded");
      expect(await ledgerBalance(second.deps.db, user.userId)).toBe(9);
    } finally {
      await second.stop();
    }
  });
});

describe("cancel answers only what is stored", () => {
  it("a crash right after the answer leaves the job canceled and refunded; the restart does not resume or charge it", async () => {
    // An engine slow to stop (a remote one is told over the network): aborted, it stops only when released.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slowToStop: RenderProvider = {
      ...localProvider,
      id: "slow-to-stop",
      async render(request) {
        await new Promise((resolve) => request.signal.addEventListener("abort", resolve, { once: true }));
        await released;
        throw request.signal.reason;
      },
    };
    const first = await startTestServer({ RENDER_CONCURRENCY: "1" }, { renderProvider: slowToStop });
    let second: TestServer | undefined;
    try {
      const user = await signedInClient(first.url);
      const [jobId] = await newJob(user, first.url);
      const row = () => first.deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobId!).executeTakeFirstOrThrow();
      await untilStatus(jobId!, "rendering", async () => (await row()).status);

      expect(await user.client.render.cancel.mutate({ id: jobId! })).toEqual({ status: "canceled" });
      // The crash: the first worker never writes again (its engine is not released). What the
      // answer said is already in the database, with the refund.
      expect((await row()).status).toBe("canceled");
      second = await startTestServer({ ...placeOf(first.deps.env) }, { renderProvider: localProvider, fresh: true });
      expect(await second.services.render.recoverExpiredLeases()).toEqual({ resumed: 0, failed: 0 });
      const ledger = await second.deps.db
        .selectFrom("credit_ledger")
        .select("kind")
        .where("job_id", "=", jobId!)
        .orderBy("created_at")
        .execute();
      expect(ledger.map((entry) => entry.kind)).toEqual(["charge", "refund"]);
      expect(
        (await second.deps.db.selectFrom("render_jobs").select("status").where("id", "=", jobId!).executeTakeFirstOrThrow()).status,
      ).toBe("canceled");
      expect(await ledgerBalance(second.deps.db, user.userId)).toBe(10);
    } finally {
      release();
      await second?.stop();
      await first.stop();
    }
  });
});

describe("crash recovery (SIGKILL)", () => {
  let fake: FakeReplicate;
  let child: ChildProcess | undefined;
  // The migrated database (a copy of the template file, or in the PostgreSQL lane a new database) and DATA_DIR.
  const env = makeTestEnv();
  const place = placeOf(env);

  beforeAll(async () => {
    fake = await startFakeReplicate();
  });
  afterEach(() => {
    child?.kill("SIGKILL");
  });
  afterAll(async () => {
    await fake?.close();
  });

  /** The real server in its own process, rendering through the fake Replicate. */
  async function startServerProcess(): Promise<string> {
    const processEnv = {
      ...process.env,
      NODE_ENV: "test",
      ...place,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      RENDER_PROVIDER: "replicate",
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.url,
      RENDER_CONCURRENCY: "1",
      // The killed server's claim is taken over once its lease runs out.
      RENDER_LEASE_MS: "2000",
    };
    const started = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      env: processEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    return new Promise((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /is running at (http:\/\/[^\s"]+)/.exec(output)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      };
      started.stdout!.on("data", read);
      started.stderr!.on("data", read);
      started.on("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)));
    });
  }

  it("resumes the job that was rendering once its lease runs out and keeps the queued one, charging each once", async () => {
    fake.script({ final: "never" });
    let url = await startServerProcess();
    const user = await signedInClient(url);
    // Replicate bills each render: free credits need the confirmed address.
    const confirming = openDatabase(env.DATABASE);
    await confirmAddress(url, confirming, user.email).finally(() => confirming.destroy());
    const [rendering, queued] = await newJob(user, url, ["modern", "scandinavian"]);
    await waitUntil(() => fake.creates().length, {
      until: (creates) => creates === 1,
      message: "the fake Replicate to receive exactly one prediction",
      timeoutMs: 15_000,
      intervalMs: 25,
    });

    child!.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));
    const db = openDatabase(env.DATABASE);
    try {
      const statuses = async () =>
        Object.fromEntries((await db.selectFrom("render_jobs").select(["id", "status"]).execute()).map((row) => [row.id, row.status]));
      expect(await statuses()).toEqual({ [rendering!]: "rendering", [queued!]: "queued" });

      // Done at the first poll: the server polls once a second, and the two renders run one after the other.
      fake.script({ final: "succeeded", processingPolls: 0 });
      url = await startServerProcess();
      const again = createStudioClient(url, user.jar);
      const events = await collectEvents(again, {}, untilAllFinal([rendering!, queued!]), 20_000);
      expect(events.filter((e) => isFinal(e.event)).map((e) => e.event.type)).toEqual(["succeeded", "succeeded"]);
      expect(events.some((e) => e.event.jobId === rendering && e.event.type === "queued" && e.event.resumed)).toBe(true);
      expect(await statuses()).toEqual({ [rendering!]: "succeeded", [queued!]: "succeeded" });
      const ledger = await db
        .selectFrom("credit_ledger")
        .select(["kind", "job_id"])
        .where("user_id", "=", user.userId)
        .where("kind", "in", ["charge", "refund"])
        .execute();
      expect(ledger.filter((row) => row.kind === "charge")).toHaveLength(2);
      expect(ledger.filter((row) => row.kind === "refund")).toHaveLength(0);
      expect(await ledgerBalance(db, user.userId)).toBe(8);
      expect(
        (await db.selectFrom("profiles").select("credits_remaining").where("user_id", "=", user.userId).executeTakeFirstOrThrow())
          .credits_remaining,
      ).toBe(8);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
