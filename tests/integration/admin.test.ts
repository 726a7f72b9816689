/**
 * Administration on the real server: every admin procedure refuses non-admins (FORBIDDEN) and
 * visitors (UNAUTHORIZED); what admins do to accounts and jobs; roles from ADMIN_EMAILS and the
 * `npm run admin` CLI; analytics batches validated and stored.
 */
import { placeOf } from "../helpers/test-env";
import { PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyedMessage, MESSAGES } from "../../src/shared/messages";
import { appRouter } from "../../src/server/trpc/root";
import { ledgerBalance } from "../../src/server/services/credits";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { PermanentRenderError } from "../../src/server/render/engines/provider";
import { collectEvents, createStudioClient, isFinal, PASSWORD, roomPhoto, signedInClient, upload } from "../helpers/render";
import { runScript } from "../helpers/cli";
import { createLogger } from "../../src/server/logger";
import { startTestServer, type TestServer } from "../helpers/server";
import { failure } from "../helpers/failure";

/** Fails the first render it is given, then renders like the Preview engine would (a copy). */
let failNext = false;
const flakyProvider: RenderProvider = {
  id: "flaky",
  label: "Flaky test engine",
  // Stands in for an outside (AI) engine in these tests.
  capabilities: { ...PREVIEW_CAPABILITIES, isAi: true, photoSize: false },
  async render(request) {
    if (failNext) {
      failNext = false;
      throw new PermanentRenderError("The render engine failed: test");
    }
    return { image: request.image, mime: "image/jpeg", model: "copy" };
  },
};

describe("administration", () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  let member: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { renderProvider: flakyProvider });
    admin = await signedInClient(server.url);
    member = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses every admin procedure to a non-admin (FORBIDDEN) and to a visitor (UNAUTHORIZED)", async () => {
    const all = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    const procedures = Object.keys(all).filter((name) => name.startsWith("admin."));
    expect(procedures.length).toBeGreaterThanOrEqual(12);
    const visitor = createStudioClient(server.url);
    for (const name of procedures) {
      const [, procedure] = name.split(".") as [string, string];
      const call = (client: typeof member.client) => {
        const target = (
          client.admin as unknown as Record<
            string,
            { query?: (input?: unknown) => Promise<unknown>; mutate?: (input?: unknown) => Promise<unknown> }
          >
        )[procedure]!;
        const input = { userId: admin.userId, id: "x", role: "admin", amount: 1, reason: "r", disabled: true };
        return all[name]!._def.type === "query" ? target.query!(input) : target.mutate!(input);
      };
      expect(await call(member.client).catch(failure), name).toMatchObject({
        message: MESSAGES.adminRequired,
        data: { code: "FORBIDDEN" },
      });
      expect(await call(visitor.client).catch(failure), name).toMatchObject({
        message: MESSAGES.notAuthenticated,
        data: { code: "UNAUTHORIZED" },
      });
    }
    expect(await member.client.account.roles.query()).toEqual([]);
    expect(await admin.client.account.roles.query()).toEqual(["admin"]);
  });

  it("adjusts credits with a reason written to the ledger, never below zero", async () => {
    expect(await admin.client.admin.adjustCredits.mutate({ userId: member.userId, amount: 15, reason: "Studio welcome pack" })).toEqual({
      credits: 25,
    });
    expect(
      await admin.client.admin.adjustCredits.mutate({ userId: member.userId, amount: -30, reason: "too much" }).catch(failure),
    ).toMatchObject({ message: MESSAGES.notEnoughCredits });
    expect(await admin.client.admin.adjustCredits.mutate({ userId: member.userId, amount: -5, reason: "Correction" })).toEqual({
      credits: 20,
    });
    const rows = await server.deps.db
      .selectFrom("credit_ledger")
      .select(["kind", "amount", "reason"])
      .where("user_id", "=", member.userId)
      .where("kind", "=", "admin")
      .execute();
    expect(rows).toEqual([
      { kind: "admin", amount: 15, reason: `Studio welcome pack (by ${admin.email})` },
      { kind: "admin", amount: -5, reason: `Correction (by ${admin.email})` },
    ]);
    expect(await ledgerBalance(server.deps.db, member.userId)).toBe(20);
    const { users } = await admin.client.admin.users.query({ search: member.email });
    expect(users).toEqual([
      expect.objectContaining({ id: member.userId, email: member.email, credits: 20, roles: [], disabled: false, locked: false }),
    ]);
  });

  it("grants and revokes roles, but an admin cannot remove their own admin role", async () => {
    expect(await admin.client.admin.grantRole.mutate({ userId: member.userId, role: "designer" })).toEqual({ roles: ["designer"] });
    expect(await admin.client.admin.grantRole.mutate({ userId: member.userId, role: "Not A Role!" }).catch(failure)).toMatchObject({
      data: { code: "BAD_REQUEST" },
    });
    expect(await admin.client.admin.revokeRole.mutate({ userId: member.userId, role: "designer" })).toEqual({ roles: [] });
    expect(await admin.client.admin.revokeRole.mutate({ userId: admin.userId, role: "admin" }).catch(failure)).toMatchObject({
      message: MESSAGES.cannotChangeOwnAdmin,
    });
  });

  it("unlocks a locked account and disables one (its sessions end, sign-in is refused)", async () => {
    const other = await signedInClient(server.url);
    const stranger = createStudioClient(server.url);
    for (let attempt = 0; attempt < 5; attempt++)
      await stranger.client.auth.signIn.mutate({ email: other.email, password: "Wrong-password1" }).catch(() => undefined);
    expect((await admin.client.admin.users.query({ search: other.email })).users[0]).toMatchObject({ locked: true });
    await admin.client.admin.unlockAccount.mutate({ userId: other.userId });
    expect((await admin.client.admin.users.query({ search: other.email })).users[0]).toMatchObject({ locked: false, lockedUntil: null });

    await admin.client.admin.setDisabled.mutate({ userId: other.userId, disabled: true });
    expect(await other.client.auth.session.query()).toMatchObject({ user: null });
    expect(
      await createStudioClient(server.url).client.auth.signIn.mutate({ email: other.email, password: PASSWORD }).catch(failure),
    ).toMatchObject({ message: MESSAGES.accountDisabled });
    await admin.client.admin.setDisabled.mutate({ userId: other.userId, disabled: false });
    expect(await createStudioClient(server.url).client.auth.signIn.mutate({ email: other.email, password: PASSWORD })).toEqual({
      status: "signed-in",
    });
    expect(await admin.client.admin.setDisabled.mutate({ userId: admin.userId, disabled: true }).catch(failure)).toMatchObject({
      message: MESSAGES.cannotChangeOwnAdmin,
    });
    const audit = await server.deps.db
      .selectFrom("admin_audit")
      .select(["action", "target_user_id"])
      .where("target_user_id", "=", other.userId)
      .execute();
    expect(audit.map((row) => row.action)).toEqual(["unlock", "disable", "enable"]);
  });

  it("lists render jobs, retries a failed one for free and cancels a queued one", async () => {
    const uploaded = await upload(server.url, member.jar, await roomPhoto(300, 200));
    failNext = true;
    const { jobs } = await member.client.render.create.mutate({
      projectId: uploaded.body.projectId,
      imageId: uploaded.body.imageId,
      style: "modern",
    });
    const jobId = jobs[0]!.id;
    await collectEvents(member, { jobId }, (seen) => seen.some((e) => isFinal(e.event)));
    const before = await ledgerBalance(server.deps.db, member.userId);
    const listed = await admin.client.admin.jobs.query({ status: "failed" });
    expect(listed.jobs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: jobId,
          owner: member.email,
          status: "failed",
          provider: "flaky",
          error: keyedMessage("renderEngineStopped", { detail: "The render engine failed: test" }),
        }),
      ]),
    );

    expect(await admin.client.admin.retryJob.mutate({ id: jobId })).toEqual({ status: "queued" });
    const events = await collectEvents(member, { jobId }, (seen) => seen.filter((e) => isFinal(e.event)).length === 2);
    expect(events.filter((e) => isFinal(e.event)).map((e) => e.event.type)).toEqual(["failed", "succeeded"]);
    expect(await ledgerBalance(server.deps.db, member.userId)).toBe(before);
    expect((await admin.client.admin.jobs.query({ status: "succeeded" })).jobs.find((job) => job.id === jobId)).toMatchObject({
      durationMs: expect.any(Number),
    });
    expect(await admin.client.admin.retryJob.mutate({ id: jobId }).catch(failure)).toMatchObject({ data: { code: "CONFLICT" } });
  });

  it("shows the mail outbox, the system status and the analytics summary", async () => {
    const outbox = await admin.client.admin.outbox.query({ limit: 10 });
    expect(outbox.length).toBeGreaterThan(0);
    expect(outbox[0]).toMatchObject({ to: expect.stringContaining("@example.com"), transport: "outbox" });
    const overview = await admin.client.admin.overview.query();
    expect(overview).toMatchObject({
      version: server.deps.version,
      provider: { id: "flaky" },
      queue: { queued: 0 },
      users: expect.any(Number),
    });
    expect(overview.databaseBytes).toBeGreaterThan(0);
    expect(overview.storageBytes).toBeGreaterThan(0);
    expect(overview.diskFreeBytes).toBeGreaterThan(0);
    const summary = await admin.client.admin.analyticsSummary.query({ days: 30 });
    expect(summary.rendersPerDay.reduce((sum, day) => sum + day.succeeded, 0)).toBeGreaterThanOrEqual(1);
    expect(summary.renderTimeByProvider).toEqual([
      expect.objectContaining({ provider: "flaky", count: expect.any(Number), p50Ms: expect.any(Number), p95Ms: expect.any(Number) }),
    ]);
    expect(summary.signUpsPerDay.reduce((sum, day) => sum + day.count, 0)).toBeGreaterThanOrEqual(3);
    expect(summary.conversion).toMatchObject({ purchasers: 0, rate: 0 });
    const performance = await createStudioClient(server.url).client.system.performance.query();
    expect(performance).toMatchObject({ days: 30, succeeded: expect.any(Number), engine: { id: "flaky", isAi: true } });
    // Every render in the window went through the one engine: the overall median is that engine's.
    expect(performance.renderTimeP50Ms).toBe(summary.renderTimeByProvider[0]!.p50Ms);
  });
});

describe("analytics batches", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  const event = (overrides: Record<string, unknown> = {}) => ({
    category: "navigation",
    action: "page_view",
    label: "/upload",
    timestamp: Date.now(),
    sessionId: "1732270000000-abc123",
    ...overrides,
  });

  it("stores valid events with the signed-in user as the server knows them", async () => {
    const user = await signedInClient(server.url);
    expect(
      await user.client.analytics.track.mutate({
        events: [event(), event({ category: "performance", action: "page_load_time", value: 812.5, userId: "someone-else" })] as never,
      }),
    ).toEqual({ accepted: 2 });
    const rows = await server.deps.db.selectFrom("analytics_events").selectAll().where("session_id", "=", "1732270000000-abc123").execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.user_id === user.userId)).toBe(true);
    expect(
      await createStudioClient(server.url).client.analytics.track.mutate({ events: [event({ sessionId: "visitor-session" })] as never }),
    ).toEqual({ accepted: 1 });
  });

  it("refuses malformed batches with BAD_REQUEST and stores none of them", async () => {
    const visitor = createStudioClient(server.url).client;
    const before = (
      await server.deps.db
        .selectFrom("analytics_events")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    for (const events of [
      [],
      [event({ category: "spying" })],
      [event({ action: "" })],
      [event({ sessionId: "" })],
      [
        event({
          metadata: { blob: "x".repeat(500), more: "y".repeat(500), again: "z".repeat(500), last: "w".repeat(500), extra: "v".repeat(500) },
        }),
      ],
      Array.from({ length: 51 }, () => event()),
      [event(), event({ value: "not a number" })],
    ]) {
      expect(await visitor.analytics.track.mutate({ events } as never).catch(failure)).toMatchObject({ data: { code: "BAD_REQUEST" } });
    }
    const after = (
      await server.deps.db
        .selectFrom("analytics_events")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
    expect(after).toBe(before);
  });
});

describe("making admins", () => {
  it("ADMIN_EMAILS makes an existing account admin at start-up", async () => {
    const first = await startTestServer();
    const user = await signedInClient(first.url);
    await first.stop();
    const second = await startTestServer(
      { ...placeOf(first.deps.env), ADMIN_EMAILS: `nobody@example.com, ${user.email.toUpperCase()}` },
      { fresh: true },
    );
    try {
      const again = createStudioClient(second.url, user.jar);
      expect(await again.client.account.roles.query()).toEqual(["admin"]);
    } finally {
      await second.stop();
    }
  });

  it("npm run admin prints an outbox mail with its link and confirms an address: a fresh install's first operator needs no database tool (issue 27, item 10)", async () => {
    const lines: string[] = [];
    const log = createLogger("info", { destination: { write: (line: string) => void lines.push(line) } });
    const server = await startTestServer({}, { log, fresh: true });
    // The start-up log of an install with no admin and no SMTP says how to read the outbox.
    expect(lines.join("")).toContain("npm run admin -- mail you@example.com");
    const first = await signedInClient(server.url);
    const second = await signedInClient(server.url);
    const admin = (...args: string[]) => runScript("scripts/admin.ts", args, { env: { ...process.env, ...placeOf(server.deps.env) } });
    try {
      // Each mail's log line names the command, never the mail's link.
      expect(lines.join("")).toContain(`npm run admin -- mail ${first.email}`);
      expect(lines.join("")).not.toContain("token=");
      expect((await first.client.account.profile.query()).emailConfirmed).toBe(false);
      // The operator reads their confirmation mail in the terminal and opens its link.
      const printed = await admin("mail", first.email.toUpperCase());
      expect(printed.code).toBe(0);
      expect(printed.stdout).toContain(`to ${first.email}`);
      expect(printed.stdout).not.toContain(second.email);
      const link = /http:\/\/\S+\/auth\/confirm\?token=[\w.-]+/.exec(printed.stdout)?.[0];
      expect(link, printed.stdout).toBeDefined();
      const opened = await fetch(link!.replace(/^http:\/\/[^/]+/, server.url), { redirect: "manual" });
      expect(opened.headers.get("location")).toBe("/?emailConfirmed=1");
      expect((await first.client.account.profile.query()).emailConfirmed).toBe(true);
      // Every mail, newest last, when no address is given.
      const all = await admin("mail");
      expect(all.stdout).toContain(`to ${first.email}`);
      expect(all.stdout).toContain(`to ${second.email}`);
      // Or the address is confirmed without its mail.
      expect(await admin("confirm", second.email)).toMatchObject({
        code: 0,
        stdout: expect.stringContaining(`${second.email} is confirmed.`),
      });
      expect((await second.client.account.profile.query()).emailConfirmed).toBe(true);
      expect((await admin("confirm", second.email)).stdout).toContain("was already confirmed");
      expect(await admin("confirm", "nobody@example.com")).toMatchObject({
        code: 1,
        stderr: expect.stringContaining("No account with the e-mail nobody@example.com"),
      });
      expect(await admin("confirm")).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage:") });
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("npm run admin grants, lists and revokes roles on the database under DATA_DIR", async () => {
    const server = await startTestServer();
    const user = await signedInClient(server.url);
    // Asynchronously: this process hosts the server the test then asks (see tests/helpers/cli.ts).
    const admin = (...args: string[]) => runScript("scripts/admin.ts", args, { env: { ...process.env, ...placeOf(server.deps.env) } });
    try {
      expect((await admin("list")).stdout).toContain("No account has a role yet");
      const granted = await admin("grant", "admin", user.email);
      expect(granted.code).toBe(0);
      expect(granted.stdout).toContain(`${user.email} now has the role "admin".`);
      expect(await user.client.account.roles.query()).toEqual(["admin"]);
      expect((await admin("list")).stdout).toMatch(new RegExp(`admin\\s+${user.email.replace(/\./g, "\\.")}`));
      expect(await admin("grant", "admin", "nobody@example.com")).toMatchObject({
        code: 1,
        stderr: expect.stringContaining("No account with the e-mail nobody@example.com"),
      });
      expect(await admin("grant", "admin")).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage:") });
      expect((await admin("revoke", "admin", user.email)).stdout).toContain("no longer has the role");
      expect(await user.client.account.roles.query()).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
