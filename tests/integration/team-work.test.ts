/**
 * A team's shared work and credits (issue 28, decision 070) through tRPC and the upload route on a
 * real server: a member's upload in the team's space files into a team project that every member
 * sees; renders are charged to the team's balance, never twice and never past it, even when three
 * members ask for 30 renders at once against 10 credits; a member's monthly cap holds under the same
 * race, with a message naming it; credits move from a personal balance into the team on both
 * ledgers; strangers and former members are refused what they could once see.
 */
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyedMessage, MESSAGES } from "../../src/shared/messages";
import { grantTeamCredits, ledgerBalance, teamLedgerBalance } from "../../src/server/services/credits";
import type { AppRouter } from "../../src/server/trpc/root";
import { PASSWORD, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { addMember } from "../helpers/teams";
import { TestClock } from "../helpers/test-clock";

const clock = new TestClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
});
afterAll(async () => {
  await server?.stop();
});

type Client = Awaited<ReturnType<typeof signedInClient>>;

async function teamBalance(teamId: string) {
  const row = await server.deps.db.selectFrom("teams").select("credits_remaining").where("id", "=", teamId).executeTakeFirstOrThrow();
  return row.credits_remaining;
}

function messageOf(error: unknown) {
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as TRPCClientError<AppRouter>).message;
}

/** A studio of three: Ana (Owner) with 10 credits moved in, Bruno and Carla (Members), all working in the team. */
async function studio() {
  const [ana, bruno, carla] = await Promise.all([signedInClient(server.url), signedInClient(server.url), signedInClient(server.url)]);
  const team = await ana.client.teams.create.mutate({ name: "Casa Nova" });
  await addMember(server, team.id, bruno);
  await addMember(server, team.id, carla);
  for (const member of [bruno, carla]) await member.client.teams.switchSpace.mutate({ teamId: team.id });
  return { ana, bruno, carla, teamId: team.id };
}

/** An upload in the member's current space, and the project it was filed in. */
async function photoOf(member: Client) {
  const sent = await upload(server.url, member.jar, await roomPhoto(400, 300));
  expect(sent.status).toBe(201);
  return { imageId: sent.body.imageId, projectId: sent.body.projectId };
}

describe("a team's shared work", () => {
  it("files a member's upload in a team project every member sees, with its renders, and nobody else", async () => {
    const { ana, bruno, teamId } = await studio();
    const moved = await ana.client.teams.moveCredits.mutate({ teamId, amount: 4 });
    expect(moved).toEqual({ balance: 4, personal: 6 });
    expect(await ledgerBalance(server.deps.db, ana.userId)).toBe(6);
    expect(await teamLedgerBalance(server.deps.db, teamId)).toBe(4);

    const photo = await photoOf(bruno);
    const { jobs, credits } = await bruno.client.render.create.mutate({ ...photo, style: "modern" });
    expect(credits).toBe(3);
    await waitForRenders(bruno, [jobs[0]!.id]);

    // Ana works in the team (she created it), sees the project and Bruno's render, with its author.
    const list = await ana.client.projects.list.query();
    expect(list.projects.map((project) => project.id)).toEqual([photo.projectId]);
    expect(list.projects[0]).toMatchObject({ teamId, renderCount: 1 });
    const opened = await ana.client.projects.get.query({ id: photo.projectId });
    expect(opened.renders.map((render) => render.id)).toEqual([jobs[0]!.id]);
    expect((await ana.client.render.job.query({ id: jobs[0]!.id })).status).toBe("succeeded");
    // Any member may share a team render; the link records who made it.
    await ana.client.render.setSharing.mutate({ id: jobs[0]!.id, link: true });
    const shared = await server.deps.db
      .selectFrom("render_jobs")
      .select("shared_by")
      .where("id", "=", jobs[0]!.id)
      .executeTakeFirstOrThrow();
    expect(shared.shared_by).toBe(ana.userId);
    // The Owner reads the use per member and month, and the ledger with who caused each row.
    const overview = await ana.client.teams.credits.query({ teamId });
    const month = new Date(clock.now()).getUTCFullYear() * 12 + new Date(clock.now()).getUTCMonth();
    expect(overview.use).toEqual([{ userId: bruno.userId, month, renders: 1, edits: 0, charged: 1, refunded: 0, refunds: 0 }]);
    // (Both at the test clock's one moment: their order is not asserted.)
    expect(overview.ledger?.map((row) => [row.kind, row.amount, row.userId])).toEqual(
      expect.arrayContaining([
        ["charge", -1, bruno.userId],
        ["transfer", 4, ana.userId],
      ]),
    );
    expect(overview.ledger).toHaveLength(2);
    // Bruno's own balance was never touched; his personal space does not hold the team's work.
    expect(await ledgerBalance(server.deps.db, bruno.userId)).toBe(10);
    await bruno.client.teams.switchSpace.mutate({ teamId: null });
    expect((await bruno.client.projects.list.query()).projects).toEqual([]);
    expect((await bruno.client.render.allowance.query()).credits).toBe(10);

    // A stranger learns nothing, and neither does a member once removed.
    const stranger = await signedInClient(server.url);
    for (const who of [stranger]) {
      expect(messageOf(await who.client.projects.get.query({ id: photo.projectId }).catch((e: unknown) => e))).toBe(MESSAGES.notFound);
      expect(messageOf(await who.client.render.job.query({ id: jobs[0]!.id }).catch((e: unknown) => e))).toBe(MESSAGES.notFound);
    }
    await server.deps.db.deleteFrom("team_members").where("team_id", "=", teamId).where("user_id", "=", bruno.userId).execute();
    expect(messageOf(await bruno.client.render.job.query({ id: jobs[0]!.id }).catch((e: unknown) => e))).toBe(MESSAGES.notFound);
    expect(messageOf(await bruno.client.projects.get.query({ id: photo.projectId }).catch((e: unknown) => e))).toBe(MESSAGES.notFound);
    expect(messageOf(await bruno.client.render.create.mutate({ ...photo, style: "industrial" }).catch((e: unknown) => e))).toBe(
      MESSAGES.notFound,
    );
    expect(await teamBalance(teamId)).toBe(3);
  });

  it("charges exactly 10 of 30 parallel renders by three members against a balance of 10, and the ledger explains it", async () => {
    const { ana, bruno, carla, teamId } = await studio();
    await ana.client.teams.moveCredits.mutate({ teamId, amount: 10 });
    const members = [ana, bruno, carla];
    const photos = await Promise.all(members.map((member) => photoOf(member)));
    const asked = members.flatMap((member, index) =>
      Array.from({ length: 10 }, () => member.client.render.create.mutate({ ...photos[index]!, style: "modern" })),
    );
    const answers = await Promise.allSettled(asked);
    const charged = answers.filter((answer) => answer.status === "fulfilled");
    const refused = answers.filter((answer) => answer.status === "rejected");
    expect(charged).toHaveLength(10);
    expect(refused).toHaveLength(20);
    for (const answer of refused) expect(messageOf(answer.reason)).toBe(MESSAGES.teamNotEnoughCredits);
    expect(await teamBalance(teamId)).toBe(0);
    expect(await teamLedgerBalance(server.deps.db, teamId)).toBe(0);
    const charges = await server.deps.db
      .selectFrom("team_credit_ledger")
      .select(["job_id", "user_id"])
      .where("team_id", "=", teamId)
      .where("kind", "=", "charge")
      .execute();
    expect(new Set(charges.map((row) => row.job_id)).size).toBe(10);
    // Every member's own balance is untouched (Ana's gave its 10 to the team).
    expect(await ledgerBalance(server.deps.db, bruno.userId)).toBe(10);
    expect(await ledgerBalance(server.deps.db, ana.userId)).toBe(0);
    const jobIds = charged.flatMap((answer) => (answer.status === "fulfilled" ? answer.value.jobs.map((job) => job.id) : []));
    await waitForRenders(ana, jobIds, { timeoutMs: 60_000 });
  });

  it("holds a member's monthly cap under the same race and names it; only the Owner and Admins set caps and move credits", async () => {
    const { ana, bruno, teamId } = await studio();
    await grantTeamCredits(server.deps.db, teamId, null, 50, "admin", clock.now(), { reason: "test" });
    // A Member may not set caps; the Owner may.
    expect(
      messageOf(await bruno.client.teams.setMonthlyCap.mutate({ teamId, userId: bruno.userId, cap: 99 }).catch((e: unknown) => e)),
    ).toBe(MESSAGES.teamRightMissing);
    await ana.client.teams.setMonthlyCap.mutate({ teamId, userId: bruno.userId, cap: 3 });
    const photo = await photoOf(bruno);
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, () => bruno.client.render.create.mutate({ ...photo, style: "scandinavian" })),
    );
    expect(answers.filter((answer) => answer.status === "fulfilled")).toHaveLength(3);
    const refusals = answers.flatMap((answer) => (answer.status === "rejected" ? [messageOf(answer.reason)] : []));
    expect(refusals).toHaveLength(7);
    for (const message of refusals) expect(message).toBe(keyedMessage("teamMonthlyCapReached", { cap: 3 }));
    expect(await teamBalance(teamId)).toBe(47);

    const overview = await ana.client.teams.credits.query({ teamId });
    expect(overview.balance).toBe(47);
    expect(overview.members?.find((member) => member.userId === bruno.userId)).toMatchObject({ monthlyCap: 3, usedThisMonth: 3 });
    expect(overview.ledger?.filter((row) => row.kind === "charge")).toHaveLength(3);
    // A Member sees the balance and their own use, not the ledger or the others'.
    const own = await bruno.client.teams.credits.query({ teamId });
    expect(own).toMatchObject({ role: "member", balance: 47, mine: { used: 3, cap: 3 }, members: null, ledger: null, use: null });
    // Moving credits in is for the Owner and Admins, and at most one's own balance.
    expect(messageOf(await bruno.client.teams.moveCredits.mutate({ teamId, amount: 1 }).catch((e: unknown) => e))).toBe(
      MESSAGES.teamRightMissing,
    );
    expect(messageOf(await ana.client.teams.moveCredits.mutate({ teamId, amount: 11 }).catch((e: unknown) => e))).toBe(
      MESSAGES.teamCreditMoveTooLarge,
    );
    expect(await ledgerBalance(server.deps.db, ana.userId)).toBe(10);
  });

  it("moves a personal project with its renders into a team, where members see and render in it at the team's cost", async () => {
    const { ana, bruno, teamId } = await studio();
    await ana.client.teams.switchSpace.mutate({ teamId: null });
    const photo = await photoOf(ana);
    const { jobs } = await ana.client.render.create.mutate({ ...photo, style: "modern" });
    await waitForRenders(ana, [jobs[0]!.id]);
    expect(await ledgerBalance(server.deps.db, ana.userId)).toBe(9);
    // Bruno cannot see it, nor move it: it is not his.
    expect(messageOf(await bruno.client.projects.get.query({ id: photo.projectId }).catch((e: unknown) => e))).toBe(MESSAGES.notFound);
    expect(messageOf(await bruno.client.projects.moveToTeam.mutate({ id: photo.projectId, teamId }).catch((e: unknown) => e))).toBe(
      MESSAGES.notFound,
    );
    // Nor can Ana move it into a team she is not in.
    const stranger = await signedInClient(server.url);
    const otherTeam = await stranger.client.teams.create.mutate({ name: "Elsewhere" });
    expect(
      messageOf(await ana.client.projects.moveToTeam.mutate({ id: photo.projectId, teamId: otherTeam.id }).catch((e: unknown) => e)),
    ).toBe(MESSAGES.notFound);

    const moved = await ana.client.projects.moveToTeam.mutate({ id: photo.projectId, teamId });
    expect(moved).toMatchObject({ id: photo.projectId, teamId });
    expect(messageOf(await ana.client.projects.moveToTeam.mutate({ id: photo.projectId, teamId }).catch((e: unknown) => e))).toBe(
      MESSAGES.projectAlreadyInTeam,
    );
    // Bruno sees the project and Ana's render, and his render in it is the team's.
    expect((await bruno.client.projects.get.query({ id: photo.projectId })).renders.map((render) => render.id)).toEqual([jobs[0]!.id]);
    expect((await bruno.client.render.versions.query({ id: jobs[0]!.id })).nodes.length).toBeGreaterThan(1);
    await ana.client.teams.moveCredits.mutate({ teamId, amount: 2 });
    const again = await bruno.client.render.create.mutate({ ...photo, style: "industrial" });
    expect(again.credits).toBe(1);
    await waitForRenders(bruno, [again.jobs[0]!.id]);
    expect(await ledgerBalance(server.deps.db, bruno.userId)).toBe(10);
    const log = await ana.client.teams.activity.query({ teamId });
    expect(log.find((entry) => entry.action === "projectMoved")).toMatchObject({
      actorId: ana.userId,
      details: { project: expect.any(String) },
    });
  });

  it("keeps a member's team work in the team when they delete their account; an Owner must hand the team over first", async () => {
    const { ana, bruno, teamId } = await studio();
    await ana.client.teams.moveCredits.mutate({ teamId, amount: 2 });
    const teamPhoto = await photoOf(bruno);
    const { jobs } = await bruno.client.render.create.mutate({ ...teamPhoto, style: "modern" });
    await waitForRenders(bruno, [jobs[0]!.id]);
    await bruno.client.teams.switchSpace.mutate({ teamId: null });
    const ownPhoto = await photoOf(bruno);

    expect(
      messageOf(await ana.client.account.deleteAccount.mutate({ confirmEmail: ana.email, password: PASSWORD }).catch((e: unknown) => e)),
    ).toBe(MESSAGES.accountOwnsTeam);
    await bruno.client.account.deleteAccount.mutate({ confirmEmail: bruno.email, password: PASSWORD });

    // The team keeps the project and the render (now under its Owner); Bruno's own photo is gone.
    const project = await ana.client.projects.get.query({ id: teamPhoto.projectId });
    expect(project.renders.map((render) => render.id)).toEqual([jobs[0]!.id]);
    expect((await ana.client.render.job.query({ id: jobs[0]!.id })).status).toBe("succeeded");
    const left = await server.deps.db.selectFrom("uploads").select("id").where("id", "in", [teamPhoto.imageId, ownPhoto.imageId]).execute();
    expect(left.map((row) => row.id)).toEqual([teamPhoto.imageId]);
    const members = await ana.client.teams.details.query({ teamId });
    expect(members.members.map((member) => member.userId)).not.toContain(bruno.userId);
  });
});
