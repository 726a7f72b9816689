/**
 * /admin → Teams (issue 28) through tRPC on a real server: only an admin lists teams or adjusts a
 * team's credits; the list is found by a team's name or a member's address, with members and the
 * balance; an adjustment is a team ledger row ("admin") with its reason, audited and in the team's
 * log; one that would take the balance below zero is refused and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { teamLedgerBalance } from "../../src/server/services/credits";
import { signedInClient } from "../helpers/render";
import { failure } from "../helpers/failure";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";

const clock = new TestClock();
let server: TestServer;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let admin: Client;
let owner: Client;
let helper: Client;
let outsider: Client;
let teamId: string;
/** Unique per run, so a search finds only this file's teams and accounts. */
const tag = `t${Date.now().toString(36)}`;

async function teamBalance(id: string) {
  const row = await server.deps.db.selectFrom("teams").select("credits_remaining").where("id", "=", id).executeTakeFirstOrThrow();
  return row.credits_remaining;
}

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
  admin = await signedInClient(server.url);
  await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: clock.now() }).execute();
  owner = await signedInClient(server.url, `owner-${tag}@example.com`);
  helper = await signedInClient(server.url, `helper-${tag}@example.org`);
  outsider = await signedInClient(server.url);
  teamId = (await owner.client.teams.create.mutate({ name: `Casa ${tag} Interiors` })).id;
  clock.advance(1000);
  // Added the way an accepted invitation adds a member (the invitation flow has its own tests).
  await server.deps.db
    .insertInto("team_members")
    .values({ team_id: teamId, user_id: helper.userId, role: "member", monthly_cap: 40, joined_at: clock.now() })
    .execute();
  await owner.client.teams.create.mutate({ name: `Other ${tag} studio` });
});
afterAll(async () => {
  await server?.stop();
});

describe("/admin → Teams", () => {
  it("refuses both procedures to a non-admin with the spec's message (403)", async () => {
    for (const call of [
      () => outsider.client.admin.teams.query({}),
      () => owner.client.admin.adjustTeamCredits.mutate({ teamId, amount: 5, reason: "mine" }),
    ]) {
      expect(await call().catch(failure)).toMatchObject({
        message: "Access denied. Admin privileges required.",
        data: { code: "FORBIDDEN", httpStatus: 403 },
      });
    }
    expect(await teamBalance(teamId)).toBe(0);
  });

  it("finds a team by its name and by a member's address, with its members and balance", async () => {
    const byName = await admin.client.admin.teams.query({ search: `casa ${tag}` });
    expect(byName.total).toBe(1);
    expect(byName.teams).toEqual([
      {
        id: teamId,
        name: `Casa ${tag} Interiors`,
        credits: 0,
        memberCount: 2,
        createdAt: expect.any(Number),
        members: [
          { userId: owner.userId, name: "Ana Lima", email: owner.email, role: "owner", monthlyCap: null, joinedAt: expect.any(Number) },
          { userId: helper.userId, name: "Ana Lima", email: helper.email, role: "member", monthlyCap: 40, joinedAt: clock.now() },
        ],
      },
    ]);

    const byMember = await admin.client.admin.teams.query({ search: `helper-${tag}@example` });
    expect(byMember.teams.map((team) => team.id)).toEqual([teamId]);
    // The owner is in both teams: both are found, newest first, and the total counts them.
    const byOwner = await admin.client.admin.teams.query({ search: owner.email.toUpperCase() });
    expect(byOwner.total).toBe(2);
    expect(byOwner.teams.map((team) => team.name)).toEqual([`Other ${tag} studio`, `Casa ${tag} Interiors`]);
    const paged = await admin.client.admin.teams.query({ search: tag, limit: 1, offset: 1 });
    expect(paged).toMatchObject({ total: 2, teams: [{ id: teamId }] });
    // A LIKE wildcard in the search is taken literally.
    expect(await admin.client.admin.teams.query({ search: "%" })).toEqual({ teams: [], total: 0 });
  });

  it("adjusts a team's credits: the team ledger, admin_audit and the team's log", async () => {
    expect(await admin.client.admin.adjustTeamCredits.mutate({ teamId, amount: 25, reason: "  Launch bonus " })).toEqual({ credits: 25 });
    expect(await admin.client.admin.adjustTeamCredits.mutate({ teamId, amount: -5, reason: "Correction" })).toEqual({ credits: 20 });
    expect(await teamBalance(teamId)).toBe(20);
    expect(await teamLedgerBalance(server.deps.db, teamId)).toBe(20);
    const rows = await server.deps.db
      .selectFrom("team_credit_ledger")
      .select(["kind", "amount", "reason", "user_id"])
      .where("team_id", "=", teamId)
      .orderBy("created_at")
      .execute();
    expect(rows).toEqual([
      { kind: "admin", amount: 25, reason: `Launch bonus (by ${admin.email})`, user_id: null },
      { kind: "admin", amount: -5, reason: `Correction (by ${admin.email})`, user_id: null },
    ]);

    const audits = await server.deps.db
      .selectFrom("admin_audit")
      .select(["admin_user_id", "action", "target_user_id", "details"])
      .where("action", "=", "adjust_team_credits")
      .execute();
    expect(audits.map((row) => ({ ...row, details: JSON.parse(row.details ?? "null") as unknown }))).toEqual([
      {
        admin_user_id: admin.userId,
        action: "adjust_team_credits",
        target_user_id: null,
        details: { teamId, amount: 25, reason: "Launch bonus" },
      },
      {
        admin_user_id: admin.userId,
        action: "adjust_team_credits",
        target_user_id: null,
        details: { teamId, amount: -5, reason: "Correction" },
      },
    ]);

    const log = await owner.client.teams.activity.query({ teamId });
    expect(log.slice(0, 2)).toEqual([
      expect.objectContaining({ action: "creditsAdjusted", actorId: null, details: { credits: -5, reason: "Correction" } }),
      expect.objectContaining({ action: "creditsAdjusted", actorId: null, details: { credits: 25, reason: "Launch bonus" } }),
    ]);
    expect((await admin.client.admin.teams.query({ search: `casa ${tag}` })).teams[0]).toMatchObject({ credits: 20 });
  });

  it("refuses an adjustment below zero with a clear message and changes nothing", async () => {
    const before = await server.deps.db.selectFrom("team_activity").select("id").where("team_id", "=", teamId).execute();
    expect(await admin.client.admin.adjustTeamCredits.mutate({ teamId, amount: -21, reason: "Too much" }).catch(failure)).toMatchObject({
      message: MESSAGES.notEnoughCredits,
      data: { code: "BAD_REQUEST" },
    });
    expect(await teamBalance(teamId)).toBe(20);
    expect(await teamLedgerBalance(server.deps.db, teamId)).toBe(20);
    expect(await server.deps.db.selectFrom("admin_audit").select("id").where("action", "=", "adjust_team_credits").execute()).toHaveLength(
      2,
    );
    expect(await server.deps.db.selectFrom("team_activity").select("id").where("team_id", "=", teamId).execute()).toEqual(before);
    // Everything can go: the balance reaches zero exactly.
    expect(await admin.client.admin.adjustTeamCredits.mutate({ teamId, amount: -20, reason: "Closing" })).toEqual({ credits: 0 });
  });

  it("validates the input like a user's adjustment, and an unknown team is not found", async () => {
    for (const input of [
      { teamId, amount: 0, reason: "zero" },
      { teamId, amount: 1.5, reason: "half" },
      { teamId, amount: 100_001, reason: "huge" },
      { teamId, amount: 5, reason: "   " },
      { teamId, amount: 5, reason: "x".repeat(201) },
    ]) {
      expect(await admin.client.admin.adjustTeamCredits.mutate(input).catch(failure), JSON.stringify(input)).toMatchObject({
        data: { code: "BAD_REQUEST" },
      });
    }
    expect(
      await admin.client.admin.adjustTeamCredits.mutate({ teamId: "no-such-team", amount: 5, reason: "x" }).catch(failure),
    ).toMatchObject({ data: { code: "NOT_FOUND" } });
  });
});
