/**
 * Team members and invitations (issue 28) through tRPC on a real server: an Owner or Admin invites
 * by e-mail (the link read from the mail), the link works once, for 7 days (the injected clock),
 * for the invited address only; revoking and re-sending (with its limit); refusals with their
 * messages, never a 500; roles, transfer (always exactly one Owner), leaving and removal (the
 * removed member's next call is refused at once).
 */
import { refusal } from "../helpers/failure";
import { invitationMail, inviteToken } from "../helpers/teams";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UI_LANGUAGE_HEADER } from "../../src/shared/constants";
import { keyedMessage, MESSAGES } from "../../src/shared/messages";
import { INVITATION_RESEND_MINUTES, INVITATION_RESENDS_MAX } from "../../src/shared/team-members";
import { TEAM_MEMBERS_MAX, TEAMS_PER_USER_MAX } from "../../src/shared/teams";
import { createStudioClient, PASSWORD, uniqueEmail } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { createLogger } from "../../src/server/logger";
import { createBrowserLikeClient } from "../helpers/trpc-client";
import { DAY, MINUTE, TestClock } from "../helpers/test-clock";
import { waitUntil } from "../helpers/wait";

const clock = new TestClock();
let server: TestServer;
/** Every log line the server writes (a link's token must never be among them). */
const logLines: string[] = [];
const gone: Array<[string, string]> = [];
/** Each team the beforeTeamDeleted port was called for, and whether its row was still there then. */
const deletedTeams: Array<[string, boolean]> = [];

beforeAll(async () => {
  const log = createLogger("debug", { destination: { write: (line: string) => void logLines.push(line) } });
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock, log });
  // The ports the lead wires in boot.ts, watched here through the module the server runs.
  const { createSpacesModule } = await import("../../src/server/spaces");
  const { createPeopleDirectory } = await import("../../src/server/services/accounts");
  const watched = createSpacesModule(server.deps, {
    people: createPeopleDirectory(server.deps),
    onMemberGone: (teamId, userId) => gone.push([teamId, userId]),
    beforeTeamDeleted: async (teamId) => {
      const row = await server.deps.db.selectFrom("teams").select("id").where("id", "=", teamId).executeTakeFirst();
      deletedTeams.push([teamId, row !== undefined]);
    },
  });
  Object.assign(server.services.spaces, watched);
});
afterAll(async () => {
  await server?.stop();
});

async function person(fullName: string, email = uniqueEmail()) {
  const studio = createStudioClient(server.url);
  await studio.client.auth.signUp.mutate({ email, password: PASSWORD, fullName });
  await studio.client.auth.signIn.mutate({ email, password: PASSWORD });
  const session = await studio.client.auth.session.query();
  return { ...studio, email, userId: session.user!.id, name: fullName };
}

async function owners(teamId: string): Promise<number> {
  const row = await server.deps.db
    .selectFrom("team_members")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("team_id", "=", teamId)
    .where("role", "=", "owner")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An Owner's team with one more person in it, joined by invitation. */
async function teamWith(role: "admin" | "member") {
  const owner = await person("Olga Owner");
  const team = await owner.client.teams.create.mutate({ name: "Estudio Uno" });
  const other = await person(role === "admin" ? "Adam Admin" : "Mia Member");
  await owner.client.teams.invite.mutate({ teamId: team.id, email: other.email, role });
  await other.client.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, other.email) });
  return { owner, team, other };
}

describe("invitations", () => {
  it("mails a single-use link the invited account accepts, in the inviter's language, and logs who did what", async () => {
    const owner = await person("Olga Owner");
    const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
    const bea = await person("Bea Lopes");
    const french = createBrowserLikeClient(server.url, owner.jar, { [UI_LANGUAGE_HEADER]: "fr" });
    // The address as typed, in another case: stored and compared in lower case.
    const pending = await french.client.teams.invite.mutate({ teamId: team.id, email: bea.email.toUpperCase(), role: "admin" });
    expect(pending).toMatchObject({ email: bea.email, role: "admin", sendCount: 1, expiresAt: clock.now() + 7 * DAY, expired: false });

    const mail = await invitationMail(server.deps.db, bea.email);
    expect(mail.subject).toBe("Rejoignez Casa Nova sur RoomCanvas");
    expect(mail.text_body).toContain("Olga Owner vous invite à rejoindre l'équipe Casa Nova");
    const token = await inviteToken(server.deps.db, bea.email);
    const row = await server.deps.db
      .selectFrom("team_invitations")
      .select("token_hash")
      .where("id", "=", pending.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.token_hash).toString("utf8")).not.toContain(token);

    // Anyone holding the link may read what it is (the /invite page), without an account.
    const visitor = createStudioClient(server.url);
    expect(await visitor.client.teams.invitation.query({ token })).toEqual({
      teamName: "Casa Nova",
      inviterName: "Olga Owner",
      email: bea.email,
      role: "admin",
      expiresAt: clock.now() + 7 * DAY,
      state: "pending",
    });
    expect(await visitor.client.teams.invitation.query({ token: "no-such-token" })).toBeNull();
    expect((await owner.client.teams.details.query({ teamId: team.id })).invitations).toEqual([pending]);

    expect(await bea.client.teams.acceptInvitation.mutate({ token })).toEqual({ teamId: team.id, teamName: "Casa Nova" });
    expect((await bea.client.teams.mine.query()).current).toBe(team.id);
    const details = await owner.client.teams.details.query({ teamId: team.id });
    expect(details.members.map((member) => [member.name, member.email, member.role])).toEqual([
      ["Olga Owner", owner.email, "owner"],
      ["Bea Lopes", bea.email, "admin"],
    ]);
    expect(details.invitations).toEqual([]);
    expect(details).toMatchObject({ name: "Casa Nova", myRole: "owner", credits: 0 });

    // The page the link opens answers 200, and no log line holds the token (paths only are logged).
    const page = await fetch(`${server.url}/invite?token=${token}`);
    expect(page.status).toBe(200);
    await page.text();
    // The access log line is written when the response finishes, which may follow the client's read.
    await waitUntil(() => logLines.some((line) => line.includes('"path":"/invite"')), { message: "the access log line of /invite" });
    expect(logLines.join("\n")).not.toContain(token);

    // Single use: the link is spent.
    expect(await visitor.client.teams.invitation.query({ token })).toMatchObject({ state: "used" });
    const carla = await person("Carla", bea.email.replace("@", "+x@"));
    expect(await refusal(carla.client.teams.acceptInvitation.mutate({ token }))).toEqual({
      code: "CONFLICT",
      message: MESSAGES.teamInvitationUsed,
    });
    const log = await owner.client.teams.activity.query({ teamId: team.id });
    expect(log.map((entry) => [entry.action, entry.actorName, entry.details])).toEqual([
      ["memberJoined", "Bea Lopes", { email: bea.email, role: "admin" }],
      ["memberInvited", "Olga Owner", { email: bea.email, role: "admin" }],
      ["teamCreated", "Olga Owner", { name: "Casa Nova" }],
    ]);
  });

  it("writes the mail in the invitee's language when the inviter gives it", async () => {
    const owner = await person("Olga Owner");
    const team = await owner.client.teams.create.mutate({ name: "Taller" });
    const email = uniqueEmail();
    await owner.client.teams.invite.mutate({ teamId: team.id, email, role: "member", language: "es" });
    const mail = await invitationMail(server.deps.db, email);
    expect(mail.subject).toBe("Únete a Taller en RoomCanvas");
    expect(mail.text_body).toContain("como Miembro");
  });

  it("expires after 7 days, and a revoked link is refused", async () => {
    const owner = await person("Olga Owner");
    const team = await owner.client.teams.create.mutate({ name: "Atelier" });
    const late = await person("Late Comer");
    await owner.client.teams.invite.mutate({ teamId: team.id, email: late.email, role: "member" });
    const token = await inviteToken(server.deps.db, late.email);
    clock.advance(7 * DAY);
    // A week on, their sessions have lapsed too: both sign in again.
    await late.client.auth.signIn.mutate({ email: late.email, password: PASSWORD });
    await owner.client.auth.signIn.mutate({ email: owner.email, password: PASSWORD });
    expect(await late.client.teams.invitation.query({ token })).toMatchObject({ state: "expired" });
    expect(await refusal(late.client.teams.acceptInvitation.mutate({ token }))).toEqual({
      code: "CONFLICT",
      message: MESSAGES.teamInvitationExpired,
    });
    // Still listed (expired), so it can be re-sent: a new link, 7 more days; the old link stays dead.
    const [listed] = (await owner.client.teams.details.query({ teamId: team.id })).invitations;
    expect(listed).toMatchObject({ email: late.email, expired: true });
    await owner.client.teams.resendInvitation.mutate({ teamId: team.id, invitationId: listed!.id });
    const fresh = await inviteToken(server.deps.db, late.email);
    expect(fresh).not.toBe(token);
    expect(await late.client.teams.invitation.query({ token })).toBeNull();

    await owner.client.teams.revokeInvitation.mutate({ teamId: team.id, invitationId: listed!.id });
    expect(await late.client.teams.invitation.query({ token: fresh })).toMatchObject({ state: "revoked" });
    expect(await refusal(late.client.teams.acceptInvitation.mutate({ token: fresh }))).toEqual({
      code: "CONFLICT",
      message: MESSAGES.teamInvitationRevoked,
    });
    expect((await owner.client.teams.details.query({ teamId: team.id })).invitations).toEqual([]);
    expect((await owner.client.teams.activity.query({ teamId: team.id })).map((entry) => entry.action).slice(0, 2)).toEqual([
      "invitationRevoked",
      "invitationResent",
    ]);
  });

  it("re-sends at most once every 10 minutes and 5 times, saying the rule", async () => {
    const owner = await person("Olga Owner");
    const team = await owner.client.teams.create.mutate({ name: "Resend" });
    const { id } = await owner.client.teams.invite.mutate({ teamId: team.id, email: uniqueEmail(), role: "member" });
    const resend = () => owner.client.teams.resendInvitation.mutate({ teamId: team.id, invitationId: id });
    clock.advance(4 * MINUTE);
    expect(await refusal(resend())).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: keyedMessage("teamInviteResendTooSoon", { minutes: INVITATION_RESEND_MINUTES, wait: 6 }),
    });
    for (let sent = 0; sent < INVITATION_RESENDS_MAX; sent++) {
      clock.advance(INVITATION_RESEND_MINUTES * MINUTE);
      expect(await resend()).toMatchObject({ sendCount: sent + 2 });
    }
    clock.advance(INVITATION_RESEND_MINUTES * MINUTE);
    expect(await refusal(resend())).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: keyedMessage("teamInviteResendLimit", { max: INVITATION_RESENDS_MAX }),
    });
  });

  it("refuses an address already in the team or already invited, a wrong account, a non-member and a Member", async () => {
    const { owner, team, other: mia } = await teamWith("member");
    expect(await refusal(owner.client.teams.invite.mutate({ teamId: team.id, email: mia.email.toUpperCase(), role: "member" }))).toEqual({
      code: "CONFLICT",
      message: keyedMessage("teamInviteAlreadyMember", { email: mia.email }),
    });
    expect(await refusal(owner.client.teams.invite.mutate({ teamId: team.id, email: owner.email, role: "admin" }))).toMatchObject({
      code: "CONFLICT",
    });
    const email = uniqueEmail();
    await owner.client.teams.invite.mutate({ teamId: team.id, email, role: "member" });
    expect(await refusal(owner.client.teams.invite.mutate({ teamId: team.id, email, role: "admin" }))).toEqual({
      code: "CONFLICT",
      message: keyedMessage("teamInviteAlreadyPending", { email }),
    });

    // The link in another account's hands.
    const token = await inviteToken(server.deps.db, email);
    const stranger = await person("Stranger");
    expect(await refusal(stranger.client.teams.acceptInvitation.mutate({ token }))).toEqual({
      code: "FORBIDDEN",
      message: keyedMessage("teamInvitationOtherAccount", { email }),
    });
    expect(await refusal(createStudioClient(server.url).client.teams.acceptInvitation.mutate({ token }))).toMatchObject({
      code: "UNAUTHORIZED",
    });

    // Not a member: nothing is said of the team. A Member: the role's message.
    for (const call of [
      () => stranger.client.teams.invite.mutate({ teamId: team.id, email: uniqueEmail(), role: "member" }),
      () => stranger.client.teams.details.query({ teamId: team.id }),
      () => stranger.client.teams.leave.mutate({ teamId: team.id }),
    ]) {
      expect(await refusal(call())).toEqual({ code: "NOT_FOUND", message: MESSAGES.notFound });
    }
    expect(await refusal(mia.client.teams.invite.mutate({ teamId: team.id, email: uniqueEmail(), role: "member" }))).toEqual({
      code: "FORBIDDEN",
      message: MESSAGES.teamRightMissing,
    });
    const [invitation] = (await owner.client.teams.details.query({ teamId: team.id })).invitations;
    for (const call of [
      () => mia.client.teams.revokeInvitation.mutate({ teamId: team.id, invitationId: invitation!.id }),
      () => mia.client.teams.resendInvitation.mutate({ teamId: team.id, invitationId: invitation!.id }),
      () => mia.client.teams.rename.mutate({ teamId: team.id, name: "Mine now" }),
      () => mia.client.teams.removeMember.mutate({ teamId: team.id, userId: owner.userId }),
    ]) {
      expect(await refusal(call())).toEqual({ code: "FORBIDDEN", message: MESSAGES.teamRightMissing });
    }
    // A Member sees the team and its people, never its invitations.
    expect(await mia.client.teams.details.query({ teamId: team.id })).toMatchObject({ myRole: "member", invitations: [] });
  });

  it("refuses to accept past the number of teams a user may be in", async () => {
    const owner = await person("Olga Owner");
    const team = await owner.client.teams.create.mutate({ name: "One Too Many" });
    const busy = await person("Busy Bee");
    for (let index = 0; index < TEAMS_PER_USER_MAX; index++) await busy.client.teams.create.mutate({ name: `Team ${index}` });
    await owner.client.teams.invite.mutate({ teamId: team.id, email: busy.email, role: "member" });
    const token = await inviteToken(server.deps.db, busy.email);
    expect(await refusal(busy.client.teams.acceptInvitation.mutate({ token }))).toEqual({
      code: "FORBIDDEN",
      message: MESSAGES.tooManyTeams,
    });
    // The link stays usable once they have left a team.
    expect(await busy.client.teams.invitation.query({ token })).toMatchObject({ state: "pending" });
  });

  it("counts members and pending invitations against the team's limit", async () => {
    const owner = await person("Olga Owner");
    const team = await owner.client.teams.create.mutate({ name: "Full House" });
    const now = clock.now();
    await server.deps.db
      .insertInto("team_invitations")
      .values(
        Array.from({ length: TEAM_MEMBERS_MAX - 1 }, (_, index) => ({
          id: `full-${team.id}-${index}`,
          team_id: team.id,
          email: `seat${index}@example.com`,
          role: "member" as const,
          token_hash: new Uint8Array([index % 256, Math.floor(index / 256), 7]),
          language: null,
          invited_by: owner.userId,
          created_at: now,
          sent_at: now,
          expires_at: now + DAY,
        })),
      )
      .execute();
    expect(await refusal(owner.client.teams.invite.mutate({ teamId: team.id, email: uniqueEmail(), role: "member" }))).toEqual({
      code: "FORBIDDEN",
      message: keyedMessage("teamFull", { max: TEAM_MEMBERS_MAX }),
    });
    // An expired invitation holds no seat; re-sending it would take one.
    await server.deps.db
      .insertInto("team_invitations")
      .values({
        id: `expired-${team.id}`,
        team_id: team.id,
        email: "late@example.com",
        role: "member",
        token_hash: new Uint8Array([1, 2, 3, 4]),
        language: null,
        invited_by: owner.userId,
        created_at: now - 8 * DAY,
        sent_at: now - 8 * DAY,
        expires_at: now - DAY,
      })
      .execute();
    expect(await refusal(owner.client.teams.resendInvitation.mutate({ teamId: team.id, invitationId: `expired-${team.id}` }))).toEqual({
      code: "FORBIDDEN",
      message: keyedMessage("teamFull", { max: TEAM_MEMBERS_MAX }),
    });
  });
});

describe("members", () => {
  it("the Owner changes roles and transfers ownership to an Admin only; there is always exactly one Owner", async () => {
    const { owner, team, other: mia } = await teamWith("member");
    expect(await refusal(owner.client.teams.transferOwnership.mutate({ teamId: team.id, userId: mia.userId }))).toEqual({
      code: "CONFLICT",
      message: MESSAGES.teamTransferToAdminOnly,
    });
    expect(await refusal(owner.client.teams.changeRole.mutate({ teamId: team.id, userId: owner.userId, role: "admin" }))).toEqual({
      code: "CONFLICT",
      message: MESSAGES.teamOwnerRoleByTransfer,
    });
    await owner.client.teams.changeRole.mutate({ teamId: team.id, userId: mia.userId, role: "admin" });
    // An Admin manages members but may not change roles or own the team.
    expect(await refusal(mia.client.teams.changeRole.mutate({ teamId: team.id, userId: mia.userId, role: "member" }))).toEqual({
      code: "FORBIDDEN",
      message: MESSAGES.teamRightMissing,
    });
    await owner.client.teams.transferOwnership.mutate({ teamId: team.id, userId: mia.userId });
    expect(await owners(team.id)).toBe(1);
    const details = await mia.client.teams.details.query({ teamId: team.id });
    expect(details.myRole).toBe("owner");
    expect(details.members.map((member) => [member.userId, member.role])).toEqual([
      [mia.userId, "owner"],
      [owner.userId, "admin"],
    ]);
    // The former Owner is an Admin now: no more owning.
    expect(await refusal(owner.client.teams.rename.mutate({ teamId: team.id, name: "Back" }))).toMatchObject({ code: "FORBIDDEN" });
    await mia.client.teams.rename.mutate({ teamId: team.id, name: "  Estudio Dos " });
    expect((await owner.client.teams.details.query({ teamId: team.id })).name).toBe("Estudio Dos");
    expect(await refusal(mia.client.teams.rename.mutate({ teamId: team.id, name: "x" }))).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(MESSAGES.teamNameTooShort),
    });
    const actions = (await mia.client.teams.activity.query({ teamId: team.id })).map((entry) => entry.action);
    expect(actions.slice(0, 3)).toEqual(["teamRenamed", "ownershipTransferred", "roleChanged"]);
  });

  it("a member leaves; the Owner must transfer first", async () => {
    const { owner, team, other: mia } = await teamWith("member");
    expect(await refusal(owner.client.teams.leave.mutate({ teamId: team.id }))).toEqual({
      code: "CONFLICT",
      message: MESSAGES.teamOwnerMustTransfer,
    });
    expect((await mia.client.teams.mine.query()).current).toBe(team.id);
    await mia.client.teams.leave.mutate({ teamId: team.id });
    expect(gone).toContainEqual([team.id, mia.userId]);
    expect(await mia.client.teams.mine.query()).toEqual({ teams: [], current: null });
    expect(await server.deps.db.selectFrom("current_spaces").selectAll().where("user_id", "=", mia.userId).execute()).toEqual([]);
    expect(await refusal(mia.client.teams.details.query({ teamId: team.id }))).toMatchObject({ code: "NOT_FOUND" });
  });

  it("Owner or Admin removes a Member, only the Owner an Admin, nobody the Owner; the removed member is refused at once", async () => {
    const { owner, team, other: adam } = await teamWith("admin");
    const mia = await person("Mia Member");
    await adam.client.teams.invite.mutate({ teamId: team.id, email: mia.email, role: "member" });
    await mia.client.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, mia.email) });
    const zoe = await person("Zoe Admin");
    await owner.client.teams.invite.mutate({ teamId: team.id, email: zoe.email, role: "admin" });
    await zoe.client.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, zoe.email) });

    expect(await refusal(adam.client.teams.removeMember.mutate({ teamId: team.id, userId: owner.userId }))).toEqual({
      code: "FORBIDDEN",
      message: MESSAGES.teamOwnerCannotBeRemoved,
    });
    expect(await refusal(adam.client.teams.removeMember.mutate({ teamId: team.id, userId: zoe.userId }))).toEqual({
      code: "FORBIDDEN",
      message: MESSAGES.teamAdminRemovedByOwnerOnly,
    });

    // Mia is working in the team on her laptop too; once removed, both are refused at once.
    const laptop = createStudioClient(server.url);
    await laptop.client.auth.signIn.mutate({ email: mia.email, password: PASSWORD });
    expect(await laptop.client.teams.details.query({ teamId: team.id })).toMatchObject({ myRole: "member" });
    await adam.client.teams.removeMember.mutate({ teamId: team.id, userId: mia.userId });
    expect(gone).toContainEqual([team.id, mia.userId]);
    for (const client of [mia.client, laptop.client]) {
      expect(await refusal(client.teams.details.query({ teamId: team.id }))).toEqual({ code: "NOT_FOUND", message: MESSAGES.notFound });
      expect((await client.teams.mine.query()).current).toBeNull();
    }
    expect(await server.deps.db.selectFrom("current_spaces").selectAll().where("user_id", "=", mia.userId).execute()).toEqual([]);

    await owner.client.teams.removeMember.mutate({ teamId: team.id, userId: zoe.userId });
    const details = await owner.client.teams.details.query({ teamId: team.id });
    expect(details.members.map((member) => member.name)).toEqual(["Olga Owner", "Adam Admin"]);
    expect(await owners(team.id)).toBe(1);
    const log = await owner.client.teams.activity.query({ teamId: team.id });
    expect(log.slice(0, 2).map((entry) => [entry.action, entry.actorName, entry.details.member])).toEqual([
      ["memberRemoved", "Olga Owner", "Zoe Admin"],
      ["memberRemoved", "Adam Admin", "Mia Member"],
    ]);
  });

  it("only the Owner deletes the team: its work goes first (the port), then the team, for everyone", async () => {
    const { owner, team, other: adam } = await teamWith("admin");
    expect(await refusal(adam.client.teams.delete.mutate({ teamId: team.id }))).toEqual({
      code: "FORBIDDEN",
      message: MESSAGES.teamRightMissing,
    });
    await owner.client.teams.delete.mutate({ teamId: team.id });
    expect(deletedTeams).toContainEqual([team.id, true]);
    expect(gone).toEqual(
      expect.arrayContaining([
        [team.id, owner.userId],
        [team.id, adam.userId],
      ]),
    );
    expect(await owner.client.teams.mine.query()).toEqual({ teams: [], current: null });
    expect(await refusal(adam.client.teams.details.query({ teamId: team.id }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await server.deps.db.selectFrom("team_activity").selectAll().where("team_id", "=", team.id).execute()).toEqual([]);
  });
});
