/**
 * A split setup (issue 29, decision 085): web instances (ROLE=web) and render workers (ROLE=worker)
 * on one database. The Quick Admin bar's and `npm run selftest`'s checks run on a web instance,
 * which has no worker of its own: the render-queue check counts the workers alive on other
 * instances (render_workers, seen within a lease), and says so when none is.
 *
 * An admin's "Run now" (housekeeping) and "Back up now" take the same hold as the schedule's runs:
 * one at a time across instances, the second admin told it runs already.
 *
 * Each instance is a startApp of its own on the same environment (the same SQLite file through one
 * shared connection, or the same PostgreSQL database with a pool each), as in render-leases.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { StartedApp } from "../../src/server/boot";
import { AUTH_TESTS, SYSTEM_TESTS, runSelfTests, type SelfTestEnvironment, type SelfTestItem } from "../../src/selftest/suite";
import type { ObjectStorage } from "../../src/server/storage/storage";
import { failure } from "../helpers/failure";
import { createStudioClient, PASSWORD, roomPhoto, signedInClient, upload } from "../helpers/render";
import { makeTestEnv } from "../helpers/test-env";
import { MINUTE, TestClock } from "../helpers/test-clock";
import { startInstance, stopInstances } from "../helpers/instances";
import { waitUntil } from "../helpers/wait";

afterEach(stopInstances);

const queueCheck = (app: StartedApp) => app.services.system.runCheck("render-queue");

async function makeAdmin(web: StartedApp) {
  const studio = await signedInClient(web.http.url);
  await web.deps.db.insertInto("user_roles").values({ user_id: studio.userId, role: "admin", created_at: Date.now() }).execute();
  return studio;
}

describe("the render-queue check on a split setup", () => {
  it("a web instance counts the slots of a worker alive on another instance, and warns once none is", async () => {
    const env = makeTestEnv({ RENDER_CONCURRENCY: "3" });
    const web = await startInstance(env, "web");
    // Before any worker: nothing is stuck, but nothing would render either.
    expect(await queueCheck(web)).toMatchObject({
      ok: true,
      warning: true,
      detail: expect.stringMatching(/^no render worker is running \(none seen in the last 1 min\)/),
    });

    const worker = await startInstance(env, "worker");
    expect(await queueCheck(web)).toEqual({
      ok: true,
      detail: "0 waiting, 0 rendering, 0 of 3 slots busy; 1 render worker running",
      texts: expect.any(Array),
    });
    const second = await startInstance({ ...env, RENDER_CONCURRENCY: 2 }, "worker");
    expect((await queueCheck(web)).detail).toBe("0 waiting, 0 rendering, 0 of 5 slots busy; 2 render workers running");

    // A worker that stops says so: it is not counted a lease later, but at once.
    await second.stop();
    await worker.stop();
    expect(await queueCheck(web)).toMatchObject({ ok: true, warning: true, detail: expect.stringMatching(/^no render worker is running/) });
  });

  it("a web instance with no worker alive and a render waiting past the limit fails, naming the missing worker", async () => {
    const clock = new TestClock(Date.now());
    const env = makeTestEnv();
    const web = await startInstance(env, "web", { clock });
    // A worker that wrote it was alive (as its heartbeat does) and then never again: a process that froze or died.
    await web.deps.db
      .insertInto("render_workers")
      .values({ instance_id: "frozen:1:a", slots: 2, started_at: clock.now(), seen_at: clock.now() })
      .execute();

    // A render asked for through the web instance; nothing takes it.
    const studio = await signedInClient(web.http.url);
    const photo = await upload(web.http.url, studio.jar, await roomPhoto(400, 300));
    await studio.client.render.create.mutate({ projectId: photo.body.projectId, imageId: photo.body.imageId, style: "modern" });
    expect(await queueCheck(web)).toMatchObject({
      ok: true,
      detail: "1 waiting, 0 rendering, 0 of 2 slots busy, oldest waiting 0 s; 1 render worker running",
    });

    // Eleven minutes on the frozen worker's last word is far older than a lease: no worker is alive.
    clock.advance(11 * MINUTE);
    const check = await queueCheck(web);
    expect(check).toMatchObject({
      ok: false,
      detail:
        "1 render has waited 11 min and no render worker is running (none seen in the last 1 min): start one (ROLE=worker or ROLE=all)",
    });
    expect(check.texts?.[0]).toMatchObject({ key: "rendersWaitingNoWorker", params: { count: 1, windowMs: 60_000 } });
  });

  it("a worker known only by the lease of the render it runs (one that writes no row, as during an upgrade) counts as alive and busy", async () => {
    const clock = new TestClock(Date.now());
    const env = makeTestEnv();
    const web = await startInstance(env, "web", { clock });
    const studio = await signedInClient(web.http.url);
    const photo = await upload(web.http.url, studio.jar, await roomPhoto(400, 300));
    const { jobs } = await studio.client.render.create.mutate({
      projectId: photo.body.projectId,
      imageId: photo.body.imageId,
      style: ["modern", "scandinavian"],
    });
    clock.advance(11 * MINUTE);
    // The first render runs on such a worker, under a lease it renews; the second has waited 11 minutes behind it.
    await web.deps.db
      .updateTable("render_jobs")
      .set({ status: "rendering", claimed_by: "older:1:a", claims: 1, lease_until: clock.now() + MINUTE, started_at: clock.now() })
      .where("id", "=", jobs[0]!.id)
      .execute();
    expect(await queueCheck(web)).toMatchObject({
      ok: true,
      detail: "1 waiting, 1 rendering, 1 of 1 slots busy, oldest waiting 11 min; 1 render worker running",
    });
    // Its lease run out: no worker is alive, and the waiting render is a failure naming that.
    clock.advance(2 * MINUTE);
    expect(await queueCheck(web)).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^1 render has waited 13 min and no render worker is running/),
    });
  });
});

describe("the backups check on a split setup", () => {
  it("an instance without BACKUP_DIR says another instance schedules the backups, and warns once they are overdue", async () => {
    const clock = new TestClock(Date.now());
    const env = makeTestEnv();
    const scheduler = await startInstance({ ...env, BACKUP_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "rc-split-backups-")) }, "web", {
      clock,
    });
    const other = await startInstance(env, "web", { clock });
    expect(await scheduler.services.backups.runIfDue()).toMatchObject({ trigger: "schedule", error: null });

    const check = await other.services.system.runCheck("backups");
    expect(check).toMatchObject({
      ok: true,
      detail: expect.stringMatching(
        /^backups are scheduled by another instance \(BACKUP_DIR is not set on this one\); last backup 0 s ago/,
      ),
    });
    expect(check.warning).toBeUndefined();
    // Three days on, with a daily schedule: the instance that takes them has stopped.
    clock.advance(3 * 24 * 60 * MINUTE);
    expect(await other.services.system.runCheck("backups")).toMatchObject({
      ok: true,
      warning: true,
      detail: expect.stringMatching(/^backups are scheduled by another instance .*; last backup 3 d ago/),
    });
  });
});

describe("npm run selftest against a split setup", () => {
  it("every system and auth item passes on a web instance whose renders run on a worker instance", async () => {
    const env = makeTestEnv({
      STRIPE_SECRET_KEY: "sk_test_selftest",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      BACKUP_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "rc-split-backups-")),
    });
    const web = await startInstance(env, "web");
    await startInstance(env, "worker");
    const admin = await makeAdmin(web);
    // A backup taken, so the backups check passes (with none ever taken it warns).
    await web.services.backups.runIfDue();

    const environment: SelfTestEnvironment = {
      client: admin.client,
      baseUrl: web.http.url,
      fetch: admin.jar.fetch,
      makeTestPng: () =>
        sharp({ create: { width: 100, height: 100, channels: 3, background: { r: 79, g: 70, b: 229 } } })
          .png()
          .toBuffer(),
      sleep: async () => undefined,
      visitorClient: createStudioClient(web.http.url).client,
      expectedUser: { id: admin.userId, email: admin.email },
    };
    const notPassed = (items: SelfTestItem[]) =>
      items.filter((item) => item.status !== "passed").map((item) => `${item.id}: ${item.message}`);
    const system = await runSelfTests("system", environment);
    expect(notPassed(system)).toEqual([]);
    expect(system.map((item) => item.id)).toEqual(SYSTEM_TESTS.map((test) => test.id));
    expect(system.find((item) => item.id === "render-queue")!.message).toBe(
      "0 waiting, 0 rendering, 0 of 2 slots busy; 1 render worker running",
    );
    const auth = await runSelfTests("auth", environment);
    expect(notPassed(auth)).toEqual([]);
    expect(auth.map((item) => item.id)).toEqual(AUTH_TESTS.map((test) => test.id));
  });
});

/**
 * A store whose listing (housekeeping's look for orphan files) and free-space probe (the disk floor
 * a backup checks first) wait while the test holds them: a pass or a backup that stays under way.
 */
function holdableStore() {
  let held: Promise<void> | null = null;
  let release = () => {};
  const wrap = (store: ObjectStorage): ObjectStorage => ({
    ...store,
    list: (bucket) =>
      (async function* () {
        await held;
        yield* store.list!(bucket);
      })(),
    freeBytes: async () => {
      await held;
      return store.freeBytes ? store.freeBytes() : Number.MAX_SAFE_INTEGER;
    },
  });
  return {
    wrap,
    hold() {
      held = new Promise((resolve) => (release = resolve));
    },
    release() {
      held = null;
      release();
    },
  };
}

/** Instances A (whose store the test can hold) and B, serving the app on one database, and an admin signed in on each. */
async function twoWebInstances(overrides: Record<string, string> = {}) {
  const store = holdableStore();
  const env = makeTestEnv(overrides);
  const a = await startInstance(env, "web", { storage: store.wrap });
  const b = await startInstance(env, "web");
  // The pass each start runs is over before the test holds anything.
  for (const app of [a, b])
    await waitUntil(() => app.services.housekeeping.isRunning(), { message: "the start's pass", until: (running) => !running });
  const onA = await makeAdmin(a);
  const onB = createStudioClient(b.http.url);
  await onB.client.auth.signIn.mutate({ email: onA.email, password: PASSWORD });
  return { a, b, store, onA, onB };
}

describe("an admin's Run now and Back up now across instances", () => {
  it("housekeeping: while a pass runs on A, Run now on B is refused as running (and B's status says one runs); then B runs one", async () => {
    const { store, onA, onB } = await twoWebInstances();
    store.hold();
    const onAPass = onA.client.admin.runHousekeeping.mutate();
    await waitUntil(() => onB.client.admin.housekeeping.query(), { message: "B to see A's pass", until: (status) => status.running });

    const refused = await onB.client.admin.runHousekeeping.mutate().catch(failure);
    expect(refused).toMatchObject({ message: "Housekeeping is running right now. Wait for it to finish.", data: { code: "CONFLICT" } });

    store.release();
    expect(await onAPass).toMatchObject({ trigger: "admin", errors: {} });
    expect((await onB.client.admin.housekeeping.query()).running).toBe(false);
    expect(await onB.client.admin.runHousekeeping.mutate()).toMatchObject({ trigger: "admin", errors: {} });
  });

  it("backups: while a backup is written on A, Back up now on B is refused as running (and B's status says one runs); then B takes one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rc-split-backups-"));
    const { a, store, onA, onB } = await twoWebInstances({ BACKUP_DIR: dir });
    store.hold();
    const onABackup = onA.client.admin.backUpNow.mutate();
    await waitUntil(() => onB.client.admin.backups.query(), { message: "B to see A's backup", until: (status) => status.running });

    const refused = await onB.client.admin.backUpNow.mutate().catch(failure);
    expect(refused).toMatchObject({ message: "A backup is being written right now. Wait for it to finish.", data: { code: "CONFLICT" } });

    store.release();
    expect(await onABackup).toMatchObject({ trigger: "admin", error: null });
    expect(await onB.client.admin.backUpNow.mutate()).toMatchObject({ trigger: "admin", error: null });
    // Two backups, one after the other; the refusal left no failed backup behind.
    const rows = await a.deps.db.selectFrom("backups").select(["trigger", "error"]).where("trigger", "=", "admin").execute();
    expect(rows).toEqual([
      { trigger: "admin", error: null },
      { trigger: "admin", error: null },
    ]);
  });
});
