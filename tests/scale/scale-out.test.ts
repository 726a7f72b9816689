/**
 * The scale suite (issue 29, decision 084): README's "Scaling out" example in its essentials, with
 * real processes. Two web instances (A, B) and two render workers, each the production bundle in a
 * process of its own (scripts/lib/instances.ts), on one PostgreSQL database and one bucket of an
 * S3-compatible server the test starts (fauxqs, in this process: an emulator of S3 for tests), with
 * the same variables an operator sets: DATABASE_URL, APP_SECRET, ROLE, STORAGE_URL and S3_*.
 * The engine is a fake of OpenAI's image-edits API (tests/helpers/fake-openai.ts) that answers at
 * once with one small picture: every engine call it gets is one render started, counted.
 *
 * The four processes are shared by the tests of this file (each test has users of its own); the
 * tests run in order, and one that needs two workers starts a new one in place of a killed one.
 */
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { startFauxqs, type FauxqsServer } from "fauxqs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ensureClientBuild, ensureServerBundle, startInstance, type RunningInstance } from "../../scripts/lib/instances";
import { systemClock } from "../../src/server/clock";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { storedEventsAfter } from "../../src/server/render/live";
import { ledgerBalance } from "../../src/server/services/credits";
import { createRolesService } from "../../src/server/services/roles";
import { DESIGN_STYLES } from "../../src/shared/styles";
import { startFakeOpenAi, type FakeOpenAi } from "../helpers/fake-openai";
import { openTrpcStream } from "../helpers/sse";
import { confirmAddress, createStudioClient, roomPhoto, signedInClient, upload, type StudioClient } from "../helpers/render";
import { makeTempDir, testDatabaseVariables } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";

const BUCKET = "roomcanvas-scale";
const PREFIX = "studio";
const S3_KEYS = { accessKeyId: "scale-key", secretAccessKey: "scale-secret" };
/** Short, so that a dead worker's render is taken over within seconds (renewed every quarter of it). */
const LEASE_MS = 3_000;
const FREE_CREDITS = 250;
const JOBS = 200;
/** The studios the jobs belong to (each with a fifth of them). */
const USERS = 5;

let s3: FauxqsServer;
let bucket: S3Client;
let engine: FakeOpenAi;
let db: AppDatabase;
/** What every process shares: README's example, pointed at this test's database, bucket and engine. */
let shared: Record<string, string>;
let webA: RunningInstance;
let webB: RunningInstance;
const workers: RunningInstance[] = [];
const dataDirs: string[] = [];
let workerNumber = 0;

function startWorker(): Promise<RunningInstance> {
  const dataDir = makeTempDir("roomcanvas-scale-worker-");
  dataDirs.push(dataDir);
  return startInstance({ name: `worker-${++workerNumber}`, role: "worker", env: { ...shared, DATA_DIR: dataDir } });
}

function startWeb(name: string): Promise<RunningInstance> {
  const dataDir = makeTempDir(`roomcanvas-scale-${name}-`);
  dataDirs.push(dataDir);
  return startInstance({ name, role: "web", env: { ...shared, DATA_DIR: dataDir } });
}

/** Two live workers: a new one in place of one a test killed. */
async function twoWorkers(): Promise<RunningInstance[]> {
  while (workers.length < 2) workers.push(await startWorker());
  return workers;
}

beforeAll(async () => {
  const started = performance.now();
  const [, , s3Server, fake] = await Promise.all([
    ensureServerBundle(),
    // The web instances serve the pages too (the client this run's global setup built).
    ensureClientBuild(inject("clientDir")),
    startFauxqs({ port: 0, host: "127.0.0.1", logger: false }),
    sharp({ create: { width: 96, height: 64, channels: 3, background: "#c9b79c" } })
      .jpeg()
      .toBuffer()
      .then((image) => startFakeOpenAi({ image })),
  ]);
  s3 = s3Server;
  engine = fake;
  s3.createBucket(BUCKET);
  bucket = new S3Client({ endpoint: s3.address, region: "us-east-1", forcePathStyle: true, credentials: S3_KEYS });
  const database = testDatabaseVariables();
  shared = {
    ...database,
    STORAGE_URL: `s3://${BUCKET}/${PREFIX}`,
    S3_ENDPOINT: s3.address,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: S3_KEYS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_KEYS.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
    RENDER_PROVIDER: "openai",
    OPENAI_API_KEY: engine.apiKey,
    OPENAI_API_URL: engine.url,
    RENDER_LEASE_MS: String(LEASE_MS),
    RENDER_CONCURRENCY: "8",
    SIGNUP_FREE_CREDITS: String(FREE_CREDITS),
    // Every request of the test comes from 127.0.0.1.
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    NEW_ACCOUNTS_PER_ADDRESS_PER_DAY: "1000",
    SHUTDOWN_TIMEOUT_MS: "2000",
  };
  db = openDatabase(database.DATABASE_URL!);
  const [a, b, ...both] = await Promise.all([startWeb("web-a"), startWeb("web-b"), startWorker(), startWorker()]);
  [webA, webB] = [a!, b!];
  workers.push(...both);
  console.info(`scale suite: 4 processes up in ${Math.round(performance.now() - started)} ms`);
}, 60_000);

afterAll(async () => {
  await Promise.all([webA, webB, ...workers].filter(Boolean).map((instance) => instance.stop()));
  await db?.destroy();
  await engine?.close();
  bucket?.destroy();
  await s3?.stop();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

type User = Awaited<ReturnType<typeof signedInClient>>;

/** A new account made through `at`, its address confirmed (an engine that bills each render spends free credits only then). */
async function newUser(at: RunningInstance): Promise<User> {
  const user = await signedInClient(at.url);
  await confirmAddress(at.url, db, user.email);
  return user;
}

/** The same browser (its cookies) talking to another instance. */
const on = (instance: RunningInstance, user: User): StudioClient => createStudioClient(instance.url, user.jar);

const jobRow = (id: string) => db.selectFrom("render_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** The instance id a process's worker claims jobs with names its process (<host>:<pid>:<random>). */
const claimedByProcess = (claimedBy: string | null, instance: RunningInstance) => claimedBy?.split(":").at(-2) === String(instance.pid);

/** How many of the users' renders have succeeded. */
async function succeededOf(users: User[]): Promise<number> {
  const row = await db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(
      "user_id",
      "in",
      users.map((user) => user.userId),
    )
    .where("status", "=", "succeeded")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function chargesAndRefunds(userId: string) {
  const rows = await db.selectFrom("credit_ledger").select(["kind", "job_id"]).where("user_id", "=", userId).execute();
  return rows.filter((row) => row.kind === "charge" || row.kind === "refund");
}

/** One photo uploaded through `at`; jobs of `styles` made through `at`. */
async function startRenders(
  at: RunningInstance,
  user: User,
  styles: string[],
  note?: string,
  photo?: { projectId: string; imageId: string },
) {
  const uploaded = photo ?? (await upload(at.url, user.jar, await roomPhoto(320, 240))).body;
  const { jobs } = await on(at, user).client.render.create.mutate({
    projectId: uploaded.projectId,
    imageId: uploaded.imageId,
    style: styles as never,
    note,
  });
  return { photo: { projectId: uploaded.projectId, imageId: uploaded.imageId }, jobIds: jobs.map((job) => job.id) };
}

/** The job as its owner sees it through an instance, once it has ended. */
function jobEnded(at: RunningInstance, user: User, id: string, timeoutMs = 15_000) {
  return waitUntil(() => on(at, user).client.render.job.query({ id }), {
    message: `render ${id} to end, as seen through ${at.name}`,
    until: (job) => ["succeeded", "failed", "canceled"].includes(job.status),
    timeoutMs,
    intervalMs: 100,
  });
}

describe("README's scaling-out example, as processes: two web instances, two workers, PostgreSQL, S3", () => {
  it("streams every event of a render started through web A to a browser connected to web B, in order", async () => {
    await twoWorkers();
    const ana = await newUser(webA);
    const onB = await openTrpcStream(webB.url, ana, "render.events");
    const { jobIds } = await startRenders(webA, ana, ["japandi"]);
    const jobId = jobIds[0]!;
    expect(await jobEnded(webB, ana, jobId)).toMatchObject({ status: "succeeded" });

    // Everything the database holds for Ana, and nothing else, reached B: the same ids, the same events, in order.
    const same = await waitUntil(async () => ({ stored: await storedEventsAfter(db, `u:${ana.userId}`, 0), onB: onB.frames() }), {
      message: "B's stream to hold every stored event",
      until: ({ stored, onB }) => stored.some((row) => row.event.type === "succeeded") && onB.length === stored.length,
    });
    onB.close();
    expect(same.onB.map((frame) => frame.id)).toEqual(same.stored.map((row) => row.id));
    expect(same.onB.map((frame) => frame.event)).toEqual(same.stored.map((row) => row.event));
    // The job's steps, each once in order (rendering repeats with the engine's progress).
    const steps = same.onB
      .map((frame) => frame.event.type)
      .filter((type) => type !== "positions" && type !== "scored")
      .filter((type, index, all) => type !== all[index - 1]);
    expect(steps).toEqual(["queued", "preprocessing", "rendering", "saving", "succeeded"]);
    // Rendered by a worker process, not by either web instance.
    const row = await jobRow(jobId);
    expect(workers.some((worker) => claimedByProcess(row.claimed_by, worker))).toBe(true);
  });

  it(`renders ${JOBS} jobs over the two workers, each rendered once and charged once`, async () => {
    const [first, second] = await twoWorkers();
    // Five studios at once, through A and B in turn: requests of 12 styles, each with a note of its own.
    const users = await Promise.all(Array.from({ length: USERS }, (_, index) => newUser(index % 2 === 0 ? webA : webB)));
    const callsBefore = engine.requests.length;
    const batches: Array<{ user: User; note: string; jobIds: string[] }> = [];
    await Promise.all(
      users.map(async (user, index) => {
        const at = index % 2 === 0 ? webB : webA;
        let photo: { projectId: string; imageId: string } | undefined;
        for (let made = 0; made < JOBS / USERS;) {
          const styles = DESIGN_STYLES.slice(0, Math.min(DESIGN_STYLES.length, JOBS / USERS - made));
          const note = `batch ${index + 1}-${made}.`;
          const started = await startRenders(at, user, styles, note, photo);
          photo = started.photo;
          batches.push({ user, note, jobIds: started.jobIds });
          made += started.jobIds.length;
        }
      }),
    );
    const jobIds = batches.flatMap((batch) => batch.jobIds);
    expect(new Set(jobIds).size).toBe(JOBS);
    const userIds = users.map((user) => user.userId);
    const createdAt = performance.now();

    await waitUntil(() => succeededOf(users), {
      message: `the ${JOBS} renders to succeed`,
      until: (n) => n === JOBS,
      timeoutMs: 45_000,
      intervalMs: 100,
    });
    const renderedIn = performance.now() - createdAt;

    // Rendered once: one engine call per job, none twice (each job's prompt names its style and its request's note).
    const calls = engine.requests.slice(callsBefore).map((request) => request.fields.prompt ?? "");
    expect(calls).toHaveLength(JOBS);
    expect(new Set(calls).size).toBe(JOBS);
    for (const batch of batches) expect(calls.filter((prompt) => prompt.includes(batch.note)).length).toBe(batch.jobIds.length);
    const rows = await db.selectFrom("render_jobs").selectAll().where("user_id", "in", userIds).execute();
    expect(rows).toHaveLength(JOBS);
    for (const row of rows) expect(row, row.id).toMatchObject({ status: "succeeded", claims: 1, recoveries: 0 });
    // Both workers took part, and nothing else rendered.
    const byFirst = rows.filter((row) => claimedByProcess(row.claimed_by, first!)).length;
    const bySecond = rows.filter((row) => claimedByProcess(row.claimed_by, second!)).length;
    expect(byFirst + bySecond).toBe(JOBS);
    expect(byFirst).toBeGreaterThan(0);
    expect(bySecond).toBeGreaterThan(0);

    // Charged once: one charge per job, nothing refunded, each balance down by exactly one credit a job.
    for (const user of users) {
      const own = batches.filter((batch) => batch.user === user).flatMap((batch) => batch.jobIds);
      const ledger = await chargesAndRefunds(user.userId);
      expect(ledger.filter((entry) => entry.kind === "refund")).toEqual([]);
      expect(
        ledger
          .filter((entry) => entry.kind === "charge")
          .map((entry) => entry.job_id)
          .sort(),
      ).toEqual([...own].sort());
      expect(await ledgerBalance(db, user.userId)).toBe(FREE_CREDITS - own.length);
    }
    console.info(
      `scale suite: ${JOBS} renders in ${Math.round(renderedIn)} ms after they were queued, ${byFirst} by one worker and ${bySecond} by the other`,
    );
  }, 60_000);

  it("keeps every file in the bucket: a render written by a worker is downloaded through web B, and only by its owner", async () => {
    await twoWorkers();
    const ana = await newUser(webA);
    const { photo, jobIds } = await startRenders(webA, ana, ["coastal"]);
    const jobId = jobIds[0]!;
    expect(await jobEnded(webB, ana, jobId)).toMatchObject({ status: "succeeded" });

    const job = await jobRow(jobId);
    const uploaded = await db.selectFrom("uploads").selectAll().where("id", "=", photo.imageId).executeTakeFirstOrThrow();
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${PREFIX}/`, ContinuationToken: token }));
      names.push(...(page.Contents ?? []).map((object) => object.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    for (const key of [uploaded.original_key, uploaded.thumb_key, job.input_key, job.result_key, job.medium_key, job.thumb_key])
      expect(names, String(key)).toContain(`${PREFIX}/project-uploads/${key}`);
    // No process wrote a file of its own.
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, "storage")), dir).toBe(false);

    // The picture as the worker stored it, streamed by B from the bucket; the download (with its AI provenance) too.
    const picture = await ana.jar.fetch(`${webB.url}/files/renders/${jobId}/full`);
    expect(picture.status).toBe(200);
    const bytes = Buffer.from(await picture.arrayBuffer());
    const object = await bucket.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/project-uploads/${job.result_key}` }));
    expect(bytes.equals(Buffer.from(await object.Body!.transformToByteArray()))).toBe(true);
    const download = await ana.jar.fetch(`${webB.url}/files/renders/${jobId}/download/high`);
    expect(download.status).toBe(200);
    expect((await sharp(Buffer.from(await download.arrayBuffer())).metadata()).format).toBe("jpeg");
    const bob = await newUser(webB);
    for (const route of ["full", "download/high"])
      expect((await bob.jar.fetch(`${webB.url}/files/renders/${jobId}/${route}`)).status).toBe(404);
  });

  it("shows a brand saved through web A on web B, and renders with the engine model saved through A on every worker", async () => {
    await twoWorkers();
    const admin = await newUser(webA);
    await createRolesService(db, systemClock).grant(admin.userId, "admin");
    const visitorOnB = createStudioClient(webB.url).client;
    const before = (await visitorOnB.system.info.query()).productName;
    expect(await (await fetch(`${webB.url}/`)).text()).toContain(`<title>${before}`);
    const { brand } = await on(webA, admin).client.admin.studioSettings.query();
    const name = `Casa Escala ${process.pid}`;
    expect(before).not.toBe(name);
    await on(webA, admin).client.admin.updateStudioBrand.mutate({
      name,
      supportEmail: brand.supportEmail,
      accentColor: brand.accentColor,
      termsText: brand.termsText,
      privacyText: brand.privacyText,
    });
    expect((await createStudioClient(webA.url).client.system.info.query()).productName).toBe(name);
    // B reads it from its own copy of the settings, renewed when A's change reaches it: its API and its pages.
    await waitUntil(() => visitorOnB.system.info.query(), {
      message: "web B to show the new brand",
      until: (info) => info.productName === name,
    });
    const page = async (route: string) => (await fetch(`${webB.url}${route}`)).text();
    for (const route of ["/", "/pricing"]) expect(await page(route), route).toContain(`<title>${name}`);

    // The engine's model (the engine and its key are the environment's): the workers render with the new one.
    const engineView = (await on(webA, admin).client.admin.studioSettings.query()).engine;
    expect(engineView).toMatchObject({ engine: "openai", openaiModel: "gpt-image-1" });
    await on(webA, admin).client.admin.updateEngine.mutate({
      engine: "openai",
      replicateModel: engineView.replicateModel,
      openaiModel: "gpt-image-1-mini",
      comfyuiUrl: engineView.comfyuiUrl,
      keys: {},
    });
    // 16 renders, more than one worker takes at once (8): both render, and each engine call names the new model.
    const ana = await newUser(webA);
    const callsBefore = engine.requests.length;
    const photo = (await upload(webA.url, ana.jar, await roomPhoto(320, 240))).body;
    const { jobs } = await on(webA, ana).client.render.create.mutate({
      projectId: photo.projectId,
      imageId: photo.imageId,
      style: DESIGN_STYLES.slice(0, 8),
      variations: 2,
    });
    const jobIds = jobs.map((job) => job.id);
    await waitUntil(() => succeededOf([ana]), { message: "the renders to succeed", until: (n) => n === jobIds.length });
    const models = engine.requests.slice(callsBefore).map((request) => request.fields.model);
    expect(models).toEqual(jobIds.map(() => "gpt-image-1-mini"));
    const rows = await Promise.all(jobIds.map(jobRow));
    for (const worker of workers)
      expect(
        rows.some((row) => claimedByProcess(row.claimed_by, worker)),
        worker.name,
      ).toBe(true);
  });

  it("stops a worker's render promptly when it is canceled through web A, long before its lease would run out", async () => {
    await twoWorkers();
    const ana = await newUser(webA);
    /**
     * One render canceled while the engine holds it; whether the worker learnt of it by the cancel's
     * notice (true) or by its next lease renewal (false). The renewal comes every quarter of the lease
     * (750 ms here) and also finds the job gone, so on a busy machine it sometimes comes first.
     */
    const cancelOne = async (): Promise<boolean> => {
      const held = engine.held.length;
      engine.script({ replies: ["hang"] });
      const { jobIds } = await startRenders(webA, ana, ["bohemian"]);
      const jobId = jobIds[0]!;
      await waitUntil(() => engine.held.length, { message: "the engine to get the render", until: (n) => n === held + 1 });
      const running = await jobRow(jobId);
      const worker = workers.find((candidate) => claimedByProcess(running.claimed_by, candidate))!;
      expect(worker).toBeDefined();

      let stoppedAt: number | null = null;
      void engine.held[held]!.closed.then(() => (stoppedAt = performance.now()));
      const canceledAt = performance.now();
      expect(await on(webA, ana).client.render.cancel.mutate({ id: jobId })).toEqual({ status: "canceled" });
      await waitUntil(() => stoppedAt, { message: "the worker to stop the engine's call", timeoutMs: LEASE_MS });
      expect(stoppedAt! - canceledAt).toBeLessThan(LEASE_MS);
      await waitUntil(async () => (await (await fetch(`${worker.url}/healthz`)).json()) as { activeRenders: number }, {
        message: "the worker to be idle",
        until: (health) => health.activeRenders === 0,
      });
      expect(await jobRow(jobId)).toMatchObject({ status: "canceled", result_key: null });
      return !worker
        .output()
        .split("\n")
        .some((line) => line.includes(jobId) && line.includes("no longer this worker's"));
    };
    // The worker gives up the engine's call when A's cancel tells it, not only at its next lease
    // renewal: with the notice broken every try would be found by a renewal; with it working, four
    // renewals in a row winning the race would be a one-in-hundreds chance on the busiest run seen.
    const byNotice: boolean[] = [];
    while (byNotice.length < 4 && !byNotice.includes(true)) byNotice.push(await cancelOne());
    expect(byNotice, "the worker learnt of the cancel only when renewing its lease").toContain(true);
    // Each canceled render was charged and refunded: the balance is whole again.
    const kinds = (await chargesAndRefunds(ana.userId)).map((entry) => entry.kind).sort();
    expect(kinds).toEqual([...Array<string>(byNotice.length).fill("charge"), ...Array<string>(byNotice.length).fill("refund")]);
    expect(await ledgerBalance(db, ana.userId)).toBe(FREE_CREDITS);
  });

  it("finishes the render of a worker killed with kill -9 on the other worker once its lease has run out, charged once", async () => {
    await twoWorkers();
    const ana = await newUser(webA);
    const held = engine.held.length;
    const callsBefore = engine.requests.length;
    // The engine holds the next call (the job's first render) until its worker dies.
    engine.script({ replies: ["hang"] });
    const { jobIds } = await startRenders(webA, ana, ["industrial"]);
    const jobId = jobIds[0]!;
    await waitUntil(() => engine.held.length, { message: "the engine to get the render", until: (n) => n === held + 1 });
    const claimed = await jobRow(jobId);
    expect(claimed).toMatchObject({ status: "rendering", claims: 1 });
    const dying = workers.find((worker) => claimedByProcess(claimed.claimed_by, worker))!;
    const survivor = workers.find((worker) => worker !== dying)!;
    expect(dying, `the job's worker (${claimed.claimed_by}) among ${workers.map((worker) => worker.pid).join(", ")}`).toBeDefined();

    await dying.kill();
    workers.splice(workers.indexOf(dying), 1);
    expect(await dying.exited).toBe("SIGKILL");
    // Its call to the engine died with it.
    await engine.held[held]!.closed;

    // The user sees it done (through B), rendered by the other worker after the lease ran out.
    expect(await jobEnded(webB, ana, jobId, LEASE_MS + 15_000)).toMatchObject({ status: "succeeded" });
    const done = await jobRow(jobId);
    expect(done).toMatchObject({ status: "succeeded", claims: 2, recoveries: 1 });
    expect(claimedByProcess(done.claimed_by, survivor)).toBe(true);
    expect(engine.requests.length - callsBefore).toBe(2);
    const events = (await storedEventsAfter(db, `u:${ana.userId}`, 0, jobId)).map((row) => row.event);
    expect(events.some((event) => event.type === "queued" && event.resumed)).toBe(true);
    expect(events.filter((event) => event.type === "succeeded")).toHaveLength(1);
    // Charged once, nothing refunded.
    expect(await chargesAndRefunds(ana.userId)).toEqual([{ kind: "charge", job_id: jobId }]);
    expect(await ledgerBalance(db, ana.userId)).toBe(FREE_CREDITS - 1);
  }, 40_000);
});
