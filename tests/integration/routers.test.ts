/**
 * Router logic through createCaller (no HTTP server): each procedure validates, authorises and
 * calls its capability; refusals arrive as the tRPC error the client would see, with the spec's
 * message. Real services, real SQLite.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import { ledgerBalance } from "../../src/server/services/credits";
import { MESSAGES } from "../../src/shared/messages";
import { callerWorld, type CallerWorld } from "../helpers/callers";
import type { SessionUser } from "../../src/server/http/identity";

let world: CallerWorld;
let ana: SessionUser;
let bob: SessionUser;
let admin: SessionUser;

beforeAll(async () => {
  world = callerWorld();
  ana = await world.user("ana@example.com");
  bob = await world.user("bob@example.com");
  admin = await world.user("admin@example.com", { admin: true });
});
afterAll(async () => {
  await world.close();
});

describe("projects", () => {
  it("creates, lists, renames and deletes the user's own projects; another user's id is Not found", async () => {
    const created = await world.as(ana).projects.create({ name: "Loft" });
    expect(created).toMatchObject({ name: "Loft", projectType: "room_rendering", settings: {} });
    expect((await world.as(ana).projects.list()).projects.map((project) => [project.name, project.renderCount, project.thumbs])).toEqual([
      ["Loft", 0, []],
    ]);

    await expect(world.as(bob).projects.rename({ id: created.id, name: "Mine now" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: MESSAGES.notFound,
    });
    await expect(world.as(bob).projects.delete({ id: created.id })).rejects.toMatchObject({ code: "NOT_FOUND" });

    await world.as(ana).projects.rename({ id: created.id, name: "Attic loft" });
    expect(await world.as(ana).projects.get({ id: created.id })).toMatchObject({ project: { name: "Attic loft" }, renders: [] });
    expect(await world.as(ana).projects.delete({ id: created.id })).toEqual({ deletedRenders: 0, deletedUploads: 0 });
    expect(await world.as(ana).projects.list()).toEqual({ projects: [], nextCursor: null, total: 0, renders: 0 });
  });

  it("refuses a visitor and an empty name", async () => {
    await expect(world.as(null).projects.list()).rejects.toMatchObject({ code: "UNAUTHORIZED", message: MESSAGES.notAuthenticated });
    await expect(world.as(ana).projects.create({ name: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("render", () => {
  it("tells a user their credits and a visitor whether the free demo is left, with the engine", async () => {
    expect(await world.as(ana).render.allowance()).toEqual({
      signedIn: true,
      credits: 10,
      // The Preview engine costs nothing per render: the free credits are usable before confirmation.
      freeCreditsLocked: 0,
      demoAvailable: false,
      demoRefusal: null,
      engine: {
        id: "local",
        label: "Preview engine",
        isAi: false,
        billedPerRender: false,
        capabilities: PREVIEW_CAPABILITIES,
        // As before decision 088: every task the Preview engine can do is its own.
        tasks: { render: ["local"], stage: [], declutter: [], exterior: [], edit: ["local"], upscale: [] },
      },
      // The personal space: the balance is the user's own.
      teamId: null,
    });
    expect(await world.as({ visitorId: "a".repeat(24) }).render.allowance()).toMatchObject({
      signedIn: false,
      credits: null,
      demoAvailable: true,
      demoRefusal: null,
    });
  });

  it("ai-render answers Missing required fields without them, and Not found for someone else's upload", async () => {
    await expect(world.as(ana).render.create({})).rejects.toMatchObject({ code: "BAD_REQUEST", message: MESSAGES.missingRequiredFields });
    const project = await world.as(ana).projects.create({ name: "Flat" });
    await expect(world.as(ana).render.create({ projectId: project.id, imageId: "x".repeat(24), style: "modern" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: MESSAGES.notFound,
    });
    expect(await ledgerBalance(world.infra.db, ana.id)).toBe(10);
  });

  it("a visitor without a cookie has no jobs and no event stream", async () => {
    expect(await world.as(null).render.list()).toEqual([]);
    await expect(world.as(null).render.job({ id: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("admin", () => {
  it("is refused to a user, with the spec's message", async () => {
    await expect(world.as(ana).admin.overview()).rejects.toMatchObject({ code: "FORBIDDEN", message: MESSAGES.adminRequired });
  });

  it("adjusts credits through the ledger, never below zero, and audits it", async () => {
    expect(await world.as(admin).admin.adjustCredits({ userId: bob.id, amount: 5, reason: "welcome back" })).toEqual({ credits: 15 });
    expect(await ledgerBalance(world.infra.db, bob.id)).toBe(15);
    await expect(world.as(admin).admin.adjustCredits({ userId: bob.id, amount: -16, reason: "too much" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MESSAGES.notEnoughCredits,
    });
    const audit = await world.infra.db
      .selectFrom("admin_audit")
      .select(["action", "target_user_id", "details"])
      .where("admin_user_id", "=", admin.id)
      .execute();
    expect(audit).toEqual([
      { action: "adjust_credits", target_user_id: bob.id, details: JSON.stringify({ amount: 5, reason: "welcome back" }) },
    ]);
  });

  it("will not let an admin remove their own admin role", async () => {
    await expect(world.as(admin).admin.revokeRole({ userId: admin.id, role: "admin" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MESSAGES.cannotChangeOwnAdmin,
    });
  });

  it("retrying a render that is not failed or canceled is a conflict", async () => {
    await expect(world.as(admin).admin.retryJob({ id: "no-such-job" })).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("billing", () => {
  it("purchase-credits answers the spec's messages in order: no user, then no Stripe key", async () => {
    await expect(world.as(null).billing.purchaseCredits({ creditPackage: "starter" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: MESSAGES.notAuthenticated,
    });
    await expect(world.as(ana).billing.purchaseCredits({ creditPackage: "starter" })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: MESSAGES.stripeNotConfigured,
    });
  });
});

describe("account and two-factor", () => {
  it("the profile counts the user's projects and renders", async () => {
    const profile = await world.as(bob).account.profile();
    expect(profile).toMatchObject({
      email: bob.email,
      credits: 15,
      projects: 0,
      renders: { total: 0, succeeded: 0, failed: 0 },
      hasPassword: true,
    });
  });

  it("a second enrollment while two-factor is on is a conflict with its message", async () => {
    await world.infra.db
      .insertInto("two_factor")
      .values({ user_id: ana.id, secret_encrypted: "x", enabled_at: 1, last_used_step: null, created_at: 1 })
      .execute();
    await expect(world.as(ana).twoFactor.beginEnrollment({ password: "Password123" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MESSAGES.twoFactorAlreadyEnabled,
    });
  });

  it("deleting the account needs the typed e-mail address and the password", async () => {
    await expect(world.as(bob).account.deleteAccount({ confirmEmail: "someone@else.com", password: "Password123" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MESSAGES.deleteConfirmationMismatch,
    });
    await expect(world.as(bob).account.deleteAccount({ confirmEmail: bob.email, password: "wrong" })).rejects.toMatchObject({
      message: MESSAGES.currentPasswordWrong,
    });
    expect(await world.as(bob).account.deleteAccount({ confirmEmail: bob.email, password: "Password123" })).toEqual({ ok: true });
    expect(await world.infra.db.selectFrom("users").select("id").where("id", "=", bob.id).executeTakeFirst()).toBeUndefined();
  });
});
