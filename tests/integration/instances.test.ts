/**
 * Two app instances on one database (issue 29, decision 078): each scheduled run (housekeeping, the
 * listing sweep, scheduled backups, the mail-body clearing) happens once when both are due at the
 * same injected time; a claim left by an instance that died lapses and the other runs; the auth rate
 * limits, the new-accounts cap and the analytics events per address count requests sent to either
 * instance together.
 */
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { startApp, type BootOptions, type StartedApp } from "../../src/server/boot";
import { createRunClaims, rateCountKey } from "../../src/server/coordination";
import { HOUSEKEEPING_SCHEDULE } from "../../src/server/housekeeping";
import type { Env } from "../../src/server/env";
import { MESSAGES } from "../../src/shared/messages";
import { pageViewBatch } from "../helpers/analytics";
import { failure } from "../helpers/failure";
import { createStudioClient, signedInClient } from "../helpers/render";
import { DAY, MINUTE, TestClock } from "../helpers/test-clock";
import { makeTempDir, makeTestEnv } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";

const HOUR = 60 * MINUTE;

let clock: TestClock;
let instances: StartedApp[] = [];
afterEach(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  instances = [];
});

/** Instances A and B: two startApp on one environment (one database), the worker off, one clock. */
async function twoInstances(overrides: Record<string, string> = {}, options: BootOptions = {}): Promise<[StartedApp, StartedApp, Env]> {
  const env = makeTestEnv(overrides);
  const start = () => startApp(env, { clientDir: inject("clientDir"), clock, startWorker: false, ...options });
  const a = await start();
  instances.push(a);
  const b = await start();
  instances.push(b);
  return [a, b, env];
}

/** Scheduled passes recorded at a time. */
async function schedulePassesAt(instance: StartedApp, at: number): Promise<number> {
  const rows = await instance.deps.db
    .selectFrom("housekeeping_runs")
    .select(["id", "finished_at"])
    .where("trigger", "=", "schedule")
    .where("started_at", "=", at)
    .execute();
  return rows.length;
}

beforeEach(() => {
  clock = new TestClock();
});

describe("timers across instances", () => {
  it("housekeeping: the pass both instances start with, and the one both find due six hours on, each run once", async () => {
    const startedAt = clock.now();
    const [a, b] = await twoInstances();
    // Each start looks once; one of them claimed the pass and finished it (held until it is next due).
    await waitUntil(
      () =>
        a.deps.db
          .selectFrom("scheduled_runs")
          .select("held_until")
          .where("name", "=", "housekeeping")
          .executeTakeFirst()
          .then((row) => row?.held_until ?? 0),
      { message: "the start's housekeeping pass to be over", until: (heldUntil) => heldUntil > startedAt + HOUSEKEEPING_SCHEDULE.leaseMs },
    );
    expect(await schedulePassesAt(a, startedAt)).toBe(1);
    // Still the same time: neither runs another.
    expect(await Promise.all([a.services.housekeeping.runScheduled(), b.services.housekeeping.runScheduled()])).toEqual([null, null]);

    clock.advance(6 * HOUR);
    const results = await Promise.all([a.services.housekeeping.runScheduled(), b.services.housekeeping.runScheduled()]);
    expect(results.filter((run) => run !== null)).toHaveLength(1);
    expect(await schedulePassesAt(b, clock.now())).toBe(1);
    // Who ran it is on the claim.
    const claim = await b.deps.db.selectFrom("scheduled_runs").selectAll().where("name", "=", "housekeeping").executeTakeFirstOrThrow();
    expect(claim).toMatchObject({ claimed_at: clock.now(), held_until: clock.now() + 6 * HOUR - MINUTE });
    expect(claim.claimed_by).toMatch(/:\d+$/);
  });

  it("a claim left by an instance that died lapses after its lease, and the other instance runs the pass", async () => {
    const [a, b] = await twoInstances();
    // The pass one of them ran at start is over (a delayed start on the other still claims at the start's time, and loses).
    await waitUntil(() => a.services.housekeeping.last(), {
      message: "the start's housekeeping pass to be over",
      until: (run) => run?.finishedAt != null,
    });
    clock.advance(6 * HOUR);
    // A claims the pass as its timer does, and dies before it finishes.
    const claimsOfA = createRunClaims({ db: a.deps.db, clock }, "instance-a:1");
    expect(await claimsOfA.claim(HOUSEKEEPING_SCHEDULE.name, clock.now() + HOUSEKEEPING_SCHEDULE.leaseMs)).not.toBeNull();
    await a.stop();
    instances = [b];

    expect(await b.services.housekeeping.runScheduled()).toBeNull();
    clock.advance(HOUSEKEEPING_SCHEDULE.leaseMs - 1);
    expect(await b.services.housekeeping.runScheduled()).toBeNull();
    clock.advance(1);
    expect(await b.services.housekeeping.runScheduled()).toMatchObject({ trigger: "schedule", startedAt: clock.now() });
    expect(await schedulePassesAt(b, clock.now())).toBe(1);
  });

  it("the listing sweep and the mail-body clearing due on both instances each run on one", async () => {
    const [a, b] = await twoInstances();
    // Past the sweep and clearing the two starts did (every ten minutes, every hour).
    clock.advance(HOUR);
    const sweeps = await Promise.all([a.services.listing.sweepScheduled(), b.services.listing.sweepScheduled()]);
    expect(sweeps.filter((removed) => removed !== null)).toEqual([0]);
    const clearings = await Promise.all([a.deps.mailer.forgetOldBodies(), b.deps.mailer.forgetOldBodies()]);
    expect(clearings.filter(Boolean)).toEqual([true]);
    // Nine minutes on, neither sweeps again; ten minutes on (less the slack), one does.
    clock.advance(9 * MINUTE);
    expect(await Promise.all([a.services.listing.sweepScheduled(), b.services.listing.sweepScheduled()])).toEqual([null, null]);
    clock.advance(MINUTE);
    expect(
      (await Promise.all([b.services.listing.sweepScheduled(), a.services.listing.sweepScheduled()])).filter((removed) => removed !== null),
    ).toEqual([0]);
    // An hour after the first clearing, once more.
    clock.advance(50 * MINUTE);
    expect((await Promise.all([a.deps.mailer.forgetOldBodies(), b.deps.mailer.forgetOldBodies()])).filter(Boolean)).toEqual([true]);
  });

  it("a scheduled backup due on both instances is taken by one, and six hours on by one again", async () => {
    const backupDir = makeTempDir("roomcanvas-instances-backups-");
    const [a, b] = await twoInstances({ BACKUP_DIR: backupDir, BACKUP_EVERY: "6h" });
    // No backup yet: due on both.
    const backups = await Promise.all([a.services.backups.runIfDue(), b.services.backups.runIfDue()]);
    expect(backups.filter((backup) => backup !== null)).toHaveLength(1);
    expect(await a.deps.db.selectFrom("backups").select(["trigger", "error"]).execute()).toEqual([{ trigger: "schedule", error: null }]);
    expect(fs.readdirSync(backupDir).filter((name) => name.endsWith(".tar.gz"))).toHaveLength(1);
    clock.advance(6 * HOUR);
    expect((await Promise.all([a.services.backups.runIfDue(), b.services.backups.runIfDue()])).filter(Boolean)).toHaveLength(1);
    expect(await a.deps.db.selectFrom("backups").select("id").execute()).toHaveLength(2);
  });
});

describe("limits across instances", () => {
  it("the sign-in limit per minute counts requests alternating between A and B together", async () => {
    const [a, b] = await twoInstances({ AUTH_RATE_LIMIT_PER_MINUTE: "4" });
    const clients = [createStudioClient(a.http.url), createStudioClient(b.http.url)];
    const signIn = (attempt: number) =>
      clients[attempt % 2]!.client.auth.signIn.mutate({ email: `nobody${attempt}@example.com`, password: "wrong-password-1" })
        .then(() => "answered")
        .catch((error: unknown) => failure(error).message);
    const answers: string[] = [];
    for (let attempt = 0; attempt < 6; attempt++) answers.push(await signIn(attempt));
    expect(answers.slice(0, 4)).not.toContain(MESSAGES.tooManyRequests);
    expect(answers.slice(4)).toEqual([MESSAGES.tooManyRequests, MESSAGES.tooManyRequests]);
    // Refused from memory once over: the count is not written again for each refusal.
    const counted = () =>
      a.deps.db
        .selectFrom("rate_counts")
        .select("count")
        .where("key", "=", rateCountKey("signIn", "127.0.0.1"))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.count));
    expect(await counted()).toBe(5);
    expect([await signIn(10), await signIn(11)]).toEqual([MESSAGES.tooManyRequests, MESSAGES.tooManyRequests]);
    expect(await counted()).toBe(5);
    // Each instance alone saw three: in memory, neither would have refused.
    clock.advance(MINUTE);
    expect(await signIn(6)).not.toBe(MESSAGES.tooManyRequests);
  });

  it("new accounts per address per day are counted across instances, and the ended counts go with housekeeping", async () => {
    const [a, b] = await twoInstances({ NEW_ACCOUNTS_PER_ADDRESS_PER_DAY: "3" });
    const clients = [createStudioClient(a.http.url), createStudioClient(b.http.url)];
    const signUp = (index: number) =>
      clients[index % 2]!.client.auth.signUp.mutate({
        email: `farm${index}.${Date.now()}@example.com`,
        password: "Correct-Horse1",
        fullName: "Ana",
      })
        .then(() => "ok")
        .catch((error: unknown) => failure(error).message);
    const answers = [await signUp(0), await signUp(1), await signUp(2), await signUp(3), await signUp(4)];
    expect(answers).toEqual(["ok", "ok", "ok", MESSAGES.tooManyAccountsToday, MESSAGES.tooManyAccountsToday]);
    clock.advance(DAY);
    expect(await signUp(5)).toBe("ok");
    clock.advance(DAY);
    const pass = await a.services.housekeeping.runNow("admin");
    expect(pass.removed.endedRateCounts).toBeGreaterThanOrEqual(1);
  });

  it("analytics events per address a day are counted across instances", async () => {
    const [a, b] = await twoInstances({ ANALYTICS_EVENTS_PER_ADDRESS_PER_DAY: "30" });
    const clients = [createStudioClient(a.http.url), createStudioClient(b.http.url)];
    const batch = (count: number) => pageViewBatch(count, clock.now());
    const accepted: number[] = [];
    for (let call = 0; call < 5; call++) accepted.push((await clients[call % 2]!.client.analytics.track.mutate(batch(8))).accepted);
    expect(accepted).toEqual([8, 8, 8, 6, 0]);
    const stored = await a.deps.db.selectFrom("analytics_events").select("id").execute();
    expect(stored).toHaveLength(30);
    clock.advance(DAY);
    expect((await clients[1]!.client.analytics.track.mutate(batch(3))).accepted).toBe(3);
  });
});

describe("settings across instances", () => {
  it("a brand and an engine saved through one instance are in force on the other at once, without a restart", async () => {
    // PostgreSQL: the saving instance tells the others (NOTIFY). SQLite (processes on one box): each
    // reads the settings again every few seconds, here every 50 ms.
    const [a, b] = await twoInstances({}, { settingsRefreshMs: 50 });
    const admin = await signedInClient(a.http.url);
    await a.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: clock.now() }).execute();
    const landingOf = async (instance: StartedApp) =>
      (await fetch(`${instance.http.url}/`, { headers: { "accept-language": "en" } })).text();
    expect(await landingOf(b)).toContain("<title>RoomCanvas</title>");

    await admin.client.admin.updateStudioBrand.mutate({
      name: "Casa Nova",
      supportEmail: "hello@casanova.example",
      accentColor: "#0F766E",
      termsText: "",
      privacyText: "",
    });
    await waitUntil(() => landingOf(b), {
      message: "B's pages to carry the new name",
      until: (html) => html.includes("<title>Casa Nova</title>"),
    });
    expect(b.services.settings.supportEmail()).toBe("hello@casanova.example");

    expect(b.services.render.engine.id).toBe("local");
    await admin.client.admin.updateEngine.mutate({
      engine: "comfyui",
      replicateModel: "adirik/interior-design",
      openaiModel: "gpt-image-1",
      comfyuiUrl: "http://127.0.0.1:9/",
      keys: {},
    });
    expect(a.services.render.engine.id).toBe("comfyui");
    await waitUntil(() => b.services.render.engine.id, { message: "B to render with the engine A saved", until: (id) => id === "comfyui" });
  });
});
