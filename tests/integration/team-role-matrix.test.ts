import { setTimeout as delay } from "node:timers/promises";
/**
 * The role matrix of issue 28 (decision 070): every tRPC procedure and plain HTTP route that touches
 * a team's data, called as the team's Owner, an Admin, a Member, a removed member, a member of
 * another team, a visitor (no session) and an admin of the server who is not in the team. The table
 * below says, one row per procedure or route, what each of them gets: allowed ("ok"), or refused
 * with 401 (a visitor, where a session is needed), 403 (a member whose role lacks the right) or 404
 * (anyone outside the team: they learn nothing). Lists, and calls that make something in the caller's
 * current space, refuse nobody signed in: "none" there says the answer held nothing of the team (or
 * the thing was made in the caller's own space). 400 and 409 are the render's own refusals, once the
 * access check let the caller through. Links that are public by their token answer everyone. A refusal carries a server message the client
 * translates by its key (every caller sends the interface language header of a Spanish page, and
 * the Spanish text is checked to exist); nothing answers 500.
 *
 * Everything is built through the real flows: teams.create, invitations read from the outbox and
 * accepted, teams.moveCredits, uploads in the team's space, renders by the Preview engine, and the
 * removed member removed by the Owner with teams.removeMember.
 */
import { inviteToken } from "../helpers/teams";
import { waitUntil } from "../helpers/wait";
import { TRPCClientError, createTRPCClient, httpLink } from "@trpc/client";
import { strToU8, zipSync } from "fflate";
import sharp from "sharp";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";
import { UI_LANGUAGE_HEADER } from "../../src/shared/constants";
import type { DesignStyle } from "../../src/shared/styles";
import { MESSAGES, readMessage, type MessageName } from "../../src/shared/messages";
import { INVITATION_RESEND_MINUTES } from "../../src/shared/team-members";
import type { AppRouter } from "../../src/server/trpc/root";
import { CookieJar } from "../helpers/trpc-client";
import { createStudioClient, PASSWORD, roomPhoto, uniqueEmail, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { MINUTE, TestClock } from "../helpers/test-clock";

const clock = new TestClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
});
afterAll(async () => {
  await server?.stop();
});

// ---------------------------------------------------------------------------------------------
// Callers

const ROLES = ["owner", "admin", "member", "removed", "otherTeam", "visitor", "serverAdmin"] as const;
type Role = (typeof ROLES)[number];
const LANGUAGE = "es";

/** One browser: its cookie jar, a tRPC client sending the page's language, and fetch with both. */
function browser(jar = new CookieJar()) {
  const headers = { [UI_LANGUAGE_HEADER]: LANGUAGE };
  const trpc = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${server.url}/trpc`, transformer: superjson, fetch: jar.fetch, headers: () => headers })],
  });
  const fetchAs = (path: string, init: RequestInit = {}) =>
    jar.fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...headers, origin: server.url, ...(init.headers as Record<string, string>) },
    });
  return { jar, trpc, fetch: fetchAs };
}
type Browser = ReturnType<typeof browser>;
type Person = Browser & { userId: string; email: string };

async function person(fullName: string): Promise<Person> {
  const email = uniqueEmail();
  const studio = createStudioClient(server.url);
  await studio.client.auth.signUp.mutate({ email, password: PASSWORD, fullName });
  await studio.client.auth.signIn.mutate({ email, password: PASSWORD });
  const session = await studio.client.auth.session.query();
  return { ...browser(studio.jar), userId: session.user!.id, email };
}

async function join(inviter: Person, teamId: string, who: Person, role: "admin" | "member") {
  await inviter.trpc.teams.invite.mutate({ teamId, email: who.email, role });
  await who.trpc.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, who.email) });
}

// ---------------------------------------------------------------------------------------------
// Answers

/**
 * A list or a "make one in my current space" call is not refused to anyone signed in: what matters is
 * whether the answer holds (or the thing was made in) the team. Such calls answer with `seen`.
 */
class Seen {
  constructor(readonly teamData: boolean) {}
}
const seen = (teamData: boolean) => new Seen(teamData);
const teamOf = async (table: "projects" | "clients", id: string) =>
  (await server.deps.db.selectFrom(table).select("team_id").where("id", "=", id).executeTakeFirst())?.team_id ?? null;

/** What a call got: "ok" (or "none": allowed, with nothing of the team), or the refusal's status with its message. */
interface Answer {
  status: "ok" | "none" | number;
  message?: string;
}

async function answerOf(call: Promise<unknown>): Promise<Answer> {
  try {
    const value = await call;
    if (value instanceof Seen) return { status: value.teamData ? "ok" : "none" };
    if (value instanceof Response) {
      if (value.ok) {
        await value.body?.cancel();
        return { status: "ok" };
      }
      const text = await value.text();
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON: the text itself
      }
      return { status: value.status, message };
    }
    return { status: "ok" };
  } catch (error) {
    if (error instanceof Refused) return error.answer;
    if (!(error instanceof TRPCClientError)) throw error;
    const e = error as TRPCClientError<AppRouter>;
    return { status: e.data?.httpStatus ?? e.shape?.data?.httpStatus ?? 0, message: e.message };
  }
}

/** An answer thrown again as what a call refused with (answerOf reads it back). */
class Refused extends Error {
  constructor(readonly answer: Answer) {
    super(answer.message);
  }
}
const refusalOf = (answer: Answer) => new Refused(answer);

/** The Spanish text the client shows for a server message (null when it does not know it). */
function spanish(message: string | undefined): string | null {
  const known = message ? readMessage(message) : null;
  const texts = (translations.es as { serverMessages: Record<string, string> }).serverMessages;
  return known ? (texts[known.key] ?? null) : null;
}

// ---------------------------------------------------------------------------------------------
// The fixtures, built through the real flows

interface Fixture {
  teamId: string;
  /** The team project (made by the Member's upload in the team's space), its photo and a finished render. */
  projectId: string;
  uploadId: string;
  jobId: string;
  /** A second finished render, moved between the team's projects by the moveToProject rows. */
  movableJobId: string;
  secondProjectId: string;
  clientId: string;
  reviewToken: string;
  reviewLinkId: string;
  /** A listing export of the team render, made by the Member. */
  exportId: string;
  /** The public page's code of that export (/l/<code>). */
  exportCode: string;
  invitationId: string;
  /** A style of the team's own (decision 100), made by the Admin. */
  styleId: string;
  /** A marketplace listing of that style (decision 104), published for the team by the Admin. */
  listingId: string;
  /** A picture of the right size for the studio's masks. */
  mask: string;
}

const who = {} as Record<Role, Browser> & {
  owner: Person;
  admin: Person;
  member: Person;
  removed: Person;
  otherTeam: Person;
  serverAdmin: Person;
};
const fx = {} as Fixture;

const TEAM_STYLE = { name: "Casa Nova look", description: "Lime plaster, oak and linen", palette: ["#d8cbb3"], tone: "warm" as const };

/** A listing of the team's style, its render as the cover. */
const teamListing = () => ({
  teamId: fx.teamId,
  title: "Casa Nova",
  styleIds: [fx.styleId],
  coverJobId: fx.jobId,
  exampleJobIds: [fx.jobId],
});

/** A style pack of one style (docs/style-pack-format.md), as another install would export it. */
const onePack = () =>
  new Uint8Array(
    zipSync({ "manifest.json": strToU8(JSON.stringify({ format: "roomcanvas-style-pack", version: 1, styles: [TEAM_STYLE] })) }),
  );

async function finishedRender(by: Person, style: DesignStyle = "modern"): Promise<string> {
  const { jobs } = await by.trpc.render.create.mutate({ projectId: fx.projectId, imageId: fx.uploadId, style });
  await waitForRenders({ client: by.trpc } as never, [jobs[0]!.id]);
  return jobs[0]!.id;
}

async function buildFixtures() {
  const [owner, admin, member, removed, otherOwner, otherTeam, serverAdmin] = await Promise.all([
    person("Olga Owner"),
    person("Adam Admin"),
    person("Mia Member"),
    person("Rita Removed"),
    person("Otto Elsewhere"),
    person("Uma Elsewhere"),
    person("Sam Server"),
  ]);
  Object.assign(who, { owner, admin, member, removed, otherTeam, serverAdmin, visitor: browser() });
  await server.deps.db.insertInto("user_roles").values({ user_id: serverAdmin.userId, role: "admin", created_at: Date.now() }).execute();

  const team = await owner.trpc.teams.create.mutate({ name: "Casa Nova" });
  fx.teamId = team.id;
  await join(owner, team.id, admin, "admin");
  await join(owner, team.id, member, "member");
  await join(admin, team.id, removed, "member");
  const other = await otherOwner.trpc.teams.create.mutate({ name: "Otro Estudio" });
  await join(otherOwner, other.id, otherTeam, "member");

  // The shared balance: most of the Owner's and the Admin's personal credits moved in (one each kept for the moveCredits row).
  await owner.trpc.teams.moveCredits.mutate({ teamId: team.id, amount: 9 });
  await admin.trpc.teams.moveCredits.mutate({ teamId: team.id, amount: 9 });

  // The Member (working in the team since accepting) uploads: a team project; then renders in it.
  const photo = await upload(server.url, member.jar, await roomPhoto(1024, 768));
  expect(photo.status).toBe(201);
  fx.projectId = photo.body.projectId;
  fx.uploadId = photo.body.imageId;
  fx.jobId = await finishedRender(member);
  fx.movableJobId = await finishedRender(member, "industrial");
  fx.secondProjectId = (await owner.trpc.projects.create.mutate({ name: "Second room" })).id;

  const client = await admin.trpc.clients.create.mutate({ name: "Marta Ruiz", phone: "+34 600 123 456", notes: "Gate code 1234" });
  fx.clientId = client.id;
  await admin.trpc.clients.setProjectClient.mutate({ projectId: fx.projectId, clientId: client.id });

  const review = await owner.trpc.review.create.mutate({ projectId: fx.projectId });
  fx.reviewToken = review.path.slice("/review/".length);
  fx.reviewLinkId = review.link.id;
  const exported = await member.trpc.listing.create.mutate({ jobId: fx.jobId, language: "en" });
  fx.exportId = exported.id;
  fx.exportCode = exported.publicUrl.split("/l/")[1]!;
  fx.styleId = (await admin.trpc.styles.create.mutate({ ...TEAM_STYLE, teamId: team.id })).id;
  fx.listingId = (await admin.trpc.marketplace.publish.mutate(teamListing())).id;
  fx.invitationId = (await owner.trpc.teams.invite.mutate({ teamId: team.id, email: uniqueEmail(), role: "member" })).id;

  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768"><rect width="100%" height="100%" fill="#000"/><rect x="300" y="300" width="200" height="150" fill="#fff"/></svg>`;
  fx.mask = `data:image/png;base64,${(await sharp(Buffer.from(svg)).png().toBuffer()).toString("base64")}`;

  // Rita worked in the team, made an export of its render, and is then removed by the Owner.
  await removed.trpc.listing.create.mutate({ jobId: fx.jobId, language: "en" });
  await owner.trpc.teams.removeMember.mutate({ teamId: team.id, userId: removed.userId });
}

// ---------------------------------------------------------------------------------------------
// The matrix

/**
 * "ok", or a refusal. 401, 403 and 404 are the access check's; 400 and 409 mean the caller passed it
 * and the render itself refused (a finished render cannot be cancelled, the Preview engine has no upscaler).
 */
type Expected = "ok" | "none" | 400 | 401 | 403 | 404 | 409;
type Call = (caller: Browser, role: Role) => Promise<unknown>;
interface Row {
  expected: Record<Role, Expected>;
  call: Call;
}

/** One row: the answers in the order of ROLES (Owner, Admin, Member, Removed, Other team, Visitor, Server admin). */
function row(answers: [Expected, Expected, Expected, Expected, Expected, Expected, Expected], call: Call): Row {
  return { expected: Object.fromEntries(ROLES.map((role, index) => [role, answers[index]])) as Record<Role, Expected>, call };
}

const ok = "ok" as const;
/** Allowed, and nothing of the team in the answer (a list of the caller's own space, or made in it). */
const none = "none" as const;
/** Fresh things for the calls that use one up (deleting, revoking, removing): one per allowed caller. */
const fresh = {
  job: () => finishedRender(who.member, "scandinavian"),
  client: async () => (await who.admin.trpc.clients.create.mutate({ name: "Temp Client" })).id,
  style: async () => (await who.admin.trpc.styles.create.mutate({ ...TEAM_STYLE, name: "Temp style", teamId: fx.teamId })).id,
  listing: async () => (await who.admin.trpc.marketplace.publish.mutate(teamListing())).id,
  reviewLink: async () => (await who.owner.trpc.review.create.mutate({ projectId: fx.projectId })).link.id,
  invitation: async () => (await who.owner.trpc.teams.invite.mutate({ teamId: fx.teamId, email: uniqueEmail(), role: "member" })).id,
  teamProject: async () => (await who.member.trpc.projects.create.mutate({ name: "Temp room" })).id,
  memberOfTeam: async () => {
    const newcomer = await person("Nico Newcomer");
    await join(who.owner, fx.teamId, newcomer, "member");
    return newcomer.userId;
  },
};
/** The render's share link token (render.setSharing made one). */
async function shareToken(): Promise<string> {
  const row = await server.deps.db.selectFrom("render_jobs").select("share_token").where("id", "=", fx.jobId).executeTakeFirstOrThrow();
  return row.share_token!;
}

/** A project of the caller's own, made in their personal space (then back to work in the team, where they are in it). */
async function personalProject(c: Browser): Promise<string> {
  await c.trpc.teams.switchSpace.mutate({ teamId: null });
  const project = await c.trpc.projects.create.mutate({ name: "Personal room" });
  await c.trpc.teams.switchSpace.mutate({ teamId: fx.teamId }).catch(() => null);
  return project.id;
}

/** Another team of the Owner's; creating it puts them to work in it, so they go back to the fixture's team. */
async function ownersNewTeam(name: string): Promise<string> {
  const team = await who.owner.trpc.teams.create.mutate({ name });
  await who.owner.trpc.teams.switchSpace.mutate({ teamId: fx.teamId });
  return team.id;
}
const allowed = (row: Row, role: Role) => row.expected[role] === ok;

// prettier-ignore
const MATRIX: Record<string, Row> = {
  //                                            Owner Admin Membr Remvd Other Visit Server admin
  // teams.* (the team's own procedures)
  "teams.switchSpace":                     row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.teams.switchSpace.mutate({ teamId: fx.teamId })),
  "teams.details":                         row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.teams.details.query({ teamId: fx.teamId })),
  "teams.credits":                         row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.teams.credits.query({ teamId: fx.teamId })),
  "teams.moveCredits":                     row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.teams.moveCredits.mutate({ teamId: fx.teamId, amount: 1 })),
  "teams.setMonthlyCap":                   row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.teams.setMonthlyCap.mutate({ teamId: fx.teamId, userId: who.member.userId, cap: null })),
  "teams.activity":                        row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.teams.activity.query({ teamId: fx.teamId })),
  "teams.invite":                          row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.teams.invite.mutate({ teamId: fx.teamId, email: uniqueEmail(), role: "member" })),
  "teams.revokeInvitation":                row([ok,   ok,   403,  404,  404,  401,  404], async (c, role) =>
    c.trpc.teams.revokeInvitation.mutate({ teamId: fx.teamId, invitationId: allowed(MATRIX["teams.revokeInvitation"]!, role) ? await fresh.invitation() : fx.invitationId })),
  "teams.changeRole":                      row([ok,   403,  403,  404,  404,  401,  404], (c) => c.trpc.teams.changeRole.mutate({ teamId: fx.teamId, userId: who.member.userId, role: "member" })),
  "teams.rename":                          row([ok,   403,  403,  404,  404,  401,  404], (c) => c.trpc.teams.rename.mutate({ teamId: fx.teamId, name: "Casa Nova" })),
  "teams.removeMember":                    row([ok,   ok,   403,  404,  404,  401,  404], async (c, role) =>
    c.trpc.teams.removeMember.mutate({ teamId: fx.teamId, userId: allowed(MATRIX["teams.removeMember"]!, role) ? await fresh.memberOfTeam() : who.admin.userId })),
  "teams.transferOwnership":               row([ok,   403,  403,  404,  404,  401,  404], async (c, role) => {
    const given = await answerOf(c.trpc.teams.transferOwnership.mutate({ teamId: fx.teamId, userId: who.admin.userId }));
    // The Owner's transfer is undone by the new Owner, so the rows below keep their roles.
    if (role === "owner" && given.status === "ok") await who.admin.trpc.teams.transferOwnership.mutate({ teamId: fx.teamId, userId: who.owner.userId });
    if (given.status !== "ok") throw refusalOf(given);
    return given;
  }),
  "teams.resendInvitation":                row([ok,   ok,   403,  404,  404,  401,  404], async (c, role) => {
    if (!allowed(MATRIX["teams.resendInvitation"]!, role)) return c.trpc.teams.resendInvitation.mutate({ teamId: fx.teamId, invitationId: fx.invitationId });
    const invitationId = await fresh.invitation();
    clock.advance(INVITATION_RESEND_MINUTES * MINUTE);
    return c.trpc.teams.resendInvitation.mutate({ teamId: fx.teamId, invitationId });
  }),
  "teams.acceptInvitation (another's)":    row([403,  403,  403,  403,  403,  401,  403], async (c) => {
    const email = uniqueEmail();
    await who.owner.trpc.teams.invite.mutate({ teamId: fx.teamId, email, role: "member" });
    return c.trpc.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, email) });
  }),
  "teams.invitation (token)":              row([ok,   ok,   ok,   ok,   ok,   ok,   ok], async (c) => {
    const email = uniqueEmail();
    await who.owner.trpc.teams.invite.mutate({ teamId: fx.teamId, email, role: "member" });
    return c.trpc.teams.invitation.query({ token: await inviteToken(server.deps.db, email) });
  }),
  "teams.leave":                           row([409,  ok,   ok,   404,  404,  401,  404], async (c, role) => {
    // An Admin or a Member leaves a team where they hold that role (the fixture's team keeps them).
    if (!allowed(MATRIX["teams.leave"]!, role)) return c.trpc.teams.leave.mutate({ teamId: fx.teamId });
    const team = { id: await ownersNewTeam("Left behind") };
    await join(who.owner, team.id, c as Person, role as "admin" | "member");
    await c.trpc.teams.switchSpace.mutate({ teamId: fx.teamId });
    return c.trpc.teams.leave.mutate({ teamId: team.id });
  }),
  "teams.mine":                            row([ok,   ok,   ok,   none, none, 401,  none], async (c) =>
    seen((await c.trpc.teams.mine.query()).teams.some((team) => team.id === fx.teamId))),
  "teams.delete":                          row([ok,   403,  403,  404,  404,  401,  404], async (c, role) =>
    c.trpc.teams.delete.mutate({ teamId: role === "owner" ? await ownersNewTeam("Short lived") : fx.teamId })),
  // Team credits are in teams.credits / moveCredits above; the render rows below charge the team.

  // clients.* (Owner and Admin keep the clients; a Member sees a project's client by name only)
  "clients.list (team space)":             row([ok,   ok,   none, none, none, 401,  none], async (c) =>
    seen(JSON.stringify(await c.trpc.clients.list.query()).includes(fx.clientId))),
  // (The other team's caller is a Member in their own team's space: refused there by the same rule.)
  "clients.create (team space)":           row([ok,   ok,   403,  none, 403,  401,  none], async (c) =>
    seen((await teamOf("clients", (await c.trpc.clients.create.mutate({ name: "New Client" })).id)) === fx.teamId)),
  "clients.get":                           row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.clients.get.query({ id: fx.clientId })),
  "clients.update":                        row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.clients.update.mutate({ id: fx.clientId, name: "Marta Ruiz" })),
  "clients.delete":                        row([ok,   ok,   403,  404,  404,  401,  404], async (c, role) =>
    c.trpc.clients.delete.mutate({ id: allowed(MATRIX["clients.delete"]!, role) ? await fresh.client() : fx.clientId })),
  "clients.ofProject":                     row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.clients.ofProject.query({ projectId: fx.projectId })),
  "clients.setProjectClient":              row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.clients.setProjectClient.mutate({ projectId: fx.projectId, clientId: fx.clientId })),

  // styles.* (decision 100: every member lists, reads and renders with the team's styles; Owner and Admin change them)
  "styles.list (team)":                    row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.styles.list.query({ teamId: fx.teamId })),
  "styles.create (team)":                  row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.styles.create.mutate({ ...TEAM_STYLE, teamId: fx.teamId })),
  "styles.get":                            row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.styles.get.query({ id: fx.styleId })),
  "styles.update":                         row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.styles.update.mutate({ id: fx.styleId, ...TEAM_STYLE })),
  "PUT /api/styles/:id/reference":         row([ok,   ok,   403,  404,  404,  401,  404], async (c) =>
    c.fetch(`/api/styles/${fx.styleId}/reference`, { method: "PUT", headers: { "content-type": "image/jpeg" }, body: new Uint8Array(await roomPhoto(400, 300)) })),
  "GET /api/styles/:id/reference":         row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.fetch(`/api/styles/${fx.styleId}/reference`)),
  "styles.removeReference":                row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.styles.removeReference.mutate({ id: fx.styleId })),
  "styles.delete":                         row([ok,   ok,   403,  404,  404,  401,  404], async (c, role) =>
    c.trpc.styles.delete.mutate({ id: allowed(MATRIX["styles.delete"]!, role) ? await fresh.style() : fx.styleId })),
  // Style packs (decision 104): any member exports the team's styles; Owner and Admin import into it.
  "GET /api/styles/pack (team)":           row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.fetch(`/api/styles/pack?teamId=${fx.teamId}`)),
  "POST /api/styles/pack (team)":          row([ok,   ok,   403,  404,  404,  401,  404], (c) =>
    c.fetch(`/api/styles/pack?teamId=${fx.teamId}`, { method: "POST", headers: { "content-type": "application/zip" }, body: onePack() })),
  // marketplace.* (decision 104): anyone signed in reads a listing; the team's Owner and Admin publish, unpublish and install for it.
  "marketplace.get (a team's listing)":    row([ok,   ok,   ok,   ok,   ok,   401,  ok],  (c) => c.trpc.marketplace.get.query({ listingId: fx.listingId, teamId: null })),
  "marketplace.get (for the team)":        row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.marketplace.get.query({ listingId: fx.listingId, teamId: fx.teamId })),
  "marketplace.mine (team)":               row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.marketplace.mine.query({ teamId: fx.teamId })),
  "marketplace.installs (team)":           row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.marketplace.installs.query({ teamId: fx.teamId })),
  "marketplace.publish (team)":            row([ok,   ok,   403,  404,  404,  401,  404], (c) => c.trpc.marketplace.publish.mutate(teamListing())),
  "marketplace.install (into the team)":   row([ok,   ok,   403,  404,  404,  401,  404], async (c, role) =>
    c.trpc.marketplace.install.mutate({ listingId: allowed(MATRIX["marketplace.install (into the team)"]!, role) ? await fresh.listing() : fx.listingId, teamId: fx.teamId })),
  "marketplace.unpublish (team listing)":  row([ok,   ok,   403,  404,  404,  401,  404], async (c, role) =>
    c.trpc.marketplace.unpublish.mutate({ listingId: allowed(MATRIX["marketplace.unpublish (team listing)"]!, role) ? await fresh.listing() : fx.listingId })),

  // review.* (the designer's side) and the review link's public routes (the token is the key)
  "review.create":                         row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.review.create.mutate({ projectId: fx.projectId })),
  "review.list":                           row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.review.list.query({ projectId: fx.projectId })),
  "review.revoke":                         row([ok,   ok,   ok,   404,  404,  401,  404], async (c, role) =>
    c.trpc.review.revoke.mutate({ linkId: allowed(MATRIX["review.revoke"]!, role) ? await fresh.reviewLink() : fx.reviewLinkId })),
  "review.events (SSE)":                   row([ok,   ok,   ok,   404,  404,  401,  404], (c) => openStream(c, "review.events", { projectId: fx.projectId })),
  "review.comment (token)":                row([ok,   ok,   ok,   ok,   ok,   ok,   ok], (c) =>
    c.trpc.review.comment.mutate({ token: fx.reviewToken, jobId: fx.jobId, author: "Marta", text: "Lovely" })),
  "review.page (token)":                   row([ok,   ok,   ok,   ok,   ok,   ok,   ok], (c) => c.trpc.review.page.query({ token: fx.reviewToken })),
  "GET /review/:token":                    row([ok,   ok,   ok,   ok,   ok,   ok,   ok], (c) => c.fetch(`/review/${fx.reviewToken}`)),
  "GET /files/review/:token/…":            row([ok,   ok,   ok,   ok,   ok,   ok,   ok], (c) => c.fetch(`/files/review/${fx.reviewToken}/${fx.jobId}/after`)),

  // projects.* on a team project
  "projects.list (team space)":            row([ok,   ok,   ok,   none, none, 401,  none], async (c) =>
    seen((await c.trpc.projects.list.query()).projects.some((project) => project.id === fx.projectId))),
  "projects.create (team space)":          row([ok,   ok,   ok,   none, none, 401,  none], async (c) =>
    seen((await teamOf("projects", (await c.trpc.projects.create.mutate({ name: "New room" })).id)) === fx.teamId)),
  "projects.get":                          row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.projects.get.query({ id: fx.projectId })),
  "projects.rename":                       row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.projects.rename.mutate({ id: fx.projectId, name: "Living room" })),
  "projects.updateSettings":               row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.projects.updateSettings.mutate({ id: fx.projectId, settings: {} })),
  "projects.moveToTeam (own)":             row([ok,   ok,   ok,   404,  404,  401,  404], async (c, role) => {
    // The caller's own personal project, into the team: only a member may put work there.
    if (role === "visitor") return c.trpc.projects.moveToTeam.mutate({ id: fx.projectId, teamId: fx.teamId });
    await c.trpc.teams.switchSpace.mutate({ teamId: null });
    const own = await c.trpc.projects.create.mutate({ name: "Mine" });
    const moved = await answerOf(c.trpc.projects.moveToTeam.mutate({ id: own.id, teamId: fx.teamId }));
    // Back to work in the team (a no-op refusal for those outside it).
    await c.trpc.teams.switchSpace.mutate({ teamId: fx.teamId }).catch(() => null);
    if (moved.status !== "ok") throw refusalOf(moved);
    return moved;
  }),
  "projects.delete":                       row([ok,   ok,   ok,   404,  404,  401,  404], async (c, role) =>
    c.trpc.projects.delete.mutate({ id: allowed(MATRIX["projects.delete"]!, role) ? await fresh.teamProject() : fx.projectId })),

  // render.* on a team upload and render
  "render.list (team project)":            row([ok,   ok,   ok,   none, none, none, none], async (c) =>
    seen((await c.trpc.render.list.query({ projectId: fx.projectId })).some((job) => job.id === fx.jobId))),
  "render.upload":                         row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.trpc.render.upload.query({ id: fx.uploadId })),
  "render.create":                         row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.trpc.render.create.mutate({ projectId: fx.projectId, imageId: fx.uploadId, style: "coastal" })),
  "render.job":                            row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.trpc.render.job.query({ id: fx.jobId })),
  "render.versions":                       row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.render.versions.query({ id: fx.jobId })),
  "render.cancel (finished)":              row([409,  409,  409,  404,  404,  404,  404], (c) => c.trpc.render.cancel.mutate({ id: fx.jobId })),
  "render.setSharing":                     row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.trpc.render.setSharing.mutate({ id: fx.jobId, link: true })),
  "render.edit":                           row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.render.edit.mutate({ sourceJobId: fx.jobId, mask: fx.mask, instruction: "a green sofa" })),
  "render.rerender":                       row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.trpc.render.rerender.mutate({ id: fx.jobId })),
  "render.upscale (Preview)":              row([400,  400,  400,  404,  404,  404,  404], (c) => c.trpc.render.upscale.mutate({ id: fx.jobId })),
  "render.moveToProject":                  row([ok,   ok,   ok,   404,  404,  401,  404], (c, role) =>
    c.trpc.render.moveToProject.mutate({ id: fx.movableJobId, projectId: ROLES.indexOf(role) % 2 ? fx.projectId : fx.secondProjectId })),
  // Anyone holding a share link sees the render (it is public by design), whoever they are.
  "render.shared (token)":                 row([ok,   ok,   ok,   ok,   ok,   ok,   ok], async (c) => c.trpc.render.shared.query({ token: await shareToken() })),
  "GET /files/shared/:token/after":        row([ok,   ok,   ok,   ok,   ok,   ok,   ok], async (c) => c.fetch(`/files/shared/${await shareToken()}/after`)),
  // A team's render stays in the team: never moved into a personal project (each caller's own).
  "render.moveToProject (out)":            row([404,  404,  404,  404,  404,  401,  404], async (c, role) =>
    c.trpc.render.moveToProject.mutate({ id: fx.movableJobId, projectId: role === "visitor" ? fx.secondProjectId : await personalProject(c) })),
  "render.delete":                         row([ok,   ok,   ok,   404,  404,  404,  404], async (c, role) =>
    c.trpc.render.delete.mutate({ id: allowed(MATRIX["render.delete"]!, role) ? await fresh.job() : fx.jobId })),
  "render.events job (SSE)":               row([ok,   ok,   ok,   404,  404,  404,  404], (c) => openStream(c, "render.events", { jobId: fx.jobId })),

  // listing exports of a team render
  "listing.create":                        row([ok,   ok,   ok,   404,  404,  401,  404], (c) => c.trpc.listing.create.mutate({ jobId: fx.jobId, language: "es" })),
  // The caller's own exports of the render (each member made one just above; the removed member made one while a member).
  "listing.forJob":                        row([ok,   ok,   ok,   none, none, 401,  none], async (c) =>
    seen((await c.trpc.listing.forJob.query({ jobId: fx.jobId })).length > 0)),
  // Counts the caller's own exports of renders they may still use: none for anyone outside the team.
  "listing.projectCount":                  row([ok,   ok,   ok,   none, none, 401,  none], async (c) =>
    seen((await c.trpc.listing.projectCount.query({ projectId: fx.projectId })).count > 0)),
  "listing.revoke (own export)":           row([ok,   ok,   ok,   404,  404,  401,  404], async (c, role) => {
    // Each allowed caller revokes an export they made; the removed member, the one they made while a member.
    const exportId = allowed(MATRIX["listing.revoke (own export)"]!, role)
      ? (await c.trpc.listing.create.mutate({ jobId: fx.jobId, language: "en" })).id
      : role === "removed" ? await removedExportId() : fx.exportId;
    return c.trpc.listing.revoke.mutate({ exportId });
  }),
  "GET /l/:code (public page)":            row([ok,   ok,   ok,   ok,   ok,   ok,   ok], (c) => c.fetch(`/l/${fx.exportCode}`)),
  // The exported file is its maker's (listing exports are per author), and only while they may use the render.
  "GET /files/listing/:id/download":       row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/listing/${fx.exportId}/download`)),
  "GET /files/listing/:id/picture.jpg":    row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/listing/${fx.exportId}/picture.jpg`)),
  "GET /files/listing/(removed's)":        row([ok,   ok,   404,  404,  404,  404,  404], async (c) => c.fetch(`/files/listing/${await removedExportId()}/picture.jpg`)),
  "GET /files/listing/projects/:id/zip":   row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/listing/projects/${fx.projectId}/zip`)),

  // The pictures and files, and the upload route into a team project
  "GET /files/uploads/:id/original":       row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/uploads/${fx.uploadId}/original`)),
  "GET /files/uploads/:id/thumb":          row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/uploads/${fx.uploadId}/thumb`)),
  "GET /files/renders/:id/thumb":          row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/renders/${fx.jobId}/thumb`)),
  "GET /files/renders/:id/medium":         row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/renders/${fx.jobId}/medium`)),
  "GET /files/renders/:id/before":         row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/renders/${fx.jobId}/before`)),
  "GET /files/renders/:id/download/high":  row([ok,   ok,   ok,   404,  404,  404,  404], (c) => c.fetch(`/files/renders/${fx.jobId}/download/high`)),
  "POST /api/uploads (team space)":        row([ok,   ok,   ok,   none, none, none, none], async (c) => {
    const sent = await c.fetch("/api/uploads", { method: "POST", headers: { "content-type": "image/jpeg" }, body: new Uint8Array(await roomPhoto(400, 300)) });
    const body = (await sent.json()) as { projectId?: string };
    return sent.status === 201 ? seen((await teamOf("projects", body.projectId ?? "")) === fx.teamId) : sent;
  }),
  "POST /api/uploads?projectId=":          row([ok,   ok,   ok,   404,  404,  404,  404], async (c) =>
    c.fetch(`/api/uploads?projectId=${fx.projectId}`, { method: "POST", headers: { "content-type": "image/jpeg" }, body: new Uint8Array(await roomPhoto(400, 300)) })),
};

/** The listing export Rita made while she was a member (the one a removed member still holds). */
async function removedExportId(): Promise<string> {
  const row = await server.deps.db
    .selectFrom("listing_exports")
    .select("id")
    .where("user_id", "=", who.removed.userId)
    .orderBy("created_at", "asc")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Opens a subscription the way a browser's EventSource does (GET /trpc/<path>?input=...), reads
 * until it knows the answer, and closes it: a stream that starts is "ok"; a refusal is the status
 * of the response or of the error tRPC writes into the stream.
 */
/** The event streams the server holds open now (render and review). */
const streamsHeld = () => server.services.render.eventListenerCount + server.services.review.openStreams(fx.projectId);

async function openStream(c: Browser, path: string, input: unknown): Promise<Response> {
  const before = streamsHeld();
  const controller = new AbortController();
  const response = await c.fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`, {
    headers: { accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (!response.ok || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response;
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let next = reader.read();
  try {
    for (;;) {
      // An error frame, or a data frame after tRPC's "connected" frame (which carries data of its own).
      if (/event: serialized-error|data: /.test(text.replace(/^event: connected\ndata: .*\n\n\n/, ""))) break;
      // tRPC writes "connected" before its procedure checks access, and the refusal's error frame after
      // it: a stream without data yet is open only once the server holds it.
      if (text.includes("event: connected") && streamsHeld() > before) break;
      const chunk = await Promise.race([next, delay(20).then(() => null)]);
      if (chunk === null) continue;
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
      next = reader.read();
    }
  } finally {
    controller.abort();
    next.catch(() => undefined);
    await waitUntil(streamsHeld, { message: "the stream to close on the server", until: (open) => open <= before });
  }
  const error = /event: serialized-error\ndata: (.*)\n/.exec(text)?.[1];
  if (!error) return new Response(null, { status: 200 });
  const parsed = superjson.deserialize<{ message: string; data: { httpStatus: number } }>(JSON.parse(error) as never);
  return new Response(JSON.stringify({ error: parsed.message }), { status: parsed.data.httpStatus });
}

// ---------------------------------------------------------------------------------------------

describe("the team role matrix", () => {
  it(`answers each of ${Object.keys(MATRIX).length} procedures and routes as the table says for each of ${ROLES.length} callers, never a 500`, async () => {
    await buildFixtures();
    const got: Record<string, Record<Role, Expected | string>> = {};
    const refusals: Array<{ where: string; status: number; message: string | undefined; spanish: string | null }> = [];
    for (const [name, entry] of Object.entries(MATRIX)) {
      got[name] = {} as Record<Role, Expected | string>;
      for (const role of ROLES) {
        const answer = await answerOf(entry.call(who[role], role));
        got[name][role] =
          answer.status === "ok" || answer.status === "none" || [400, 401, 403, 404, 409].includes(answer.status)
            ? (answer.status as Expected)
            : `${answer.status} ${answer.message}`;
        if (typeof answer.status === "number")
          refusals.push({ where: `${name} as ${role}`, status: answer.status, message: answer.message, spanish: spanish(answer.message) });
      }
    }
    const expected = Object.fromEntries(Object.entries(MATRIX).map(([name, entry]) => [name, entry.expected]));
    expect(got).toEqual(expected);
    // The removed member's export of the team's render no longer counts for them.
    expect(await who.removed.trpc.listing.projectCount.query({ projectId: fx.projectId })).toEqual({ count: 0 });
    expect(await who.member.trpc.listing.projectCount.query({ projectId: fx.projectId })).toMatchObject({ count: 2 });
    // Every refusal is a message the client translates (here into Spanish, the callers' language).
    expect(refusals.filter((refusal) => refusal.spanish === null || refusal.status >= 500)).toEqual([]);
    // And the access check's refusals say what they are: not found, not your role, not signed in.
    const ACCESS_MESSAGES: Record<number, MessageName[]> = {
      401: ["notAuthenticated", "listingAccountRequired"],
      403: ["teamRightMissing", "teamInvitationOtherAccount"],
      404: ["notFound", "customStyleNotFound", "marketplaceListingNotFound"],
    };
    const unexpected = refusals.filter(
      (refusal) =>
        ACCESS_MESSAGES[refusal.status] && !ACCESS_MESSAGES[refusal.status]!.includes(readMessage(refusal.message!)?.key as MessageName),
    );
    expect(unexpected).toEqual([]);
    expect(spanish(MESSAGES.teamRightMissing)).not.toBe(MESSAGES.teamRightMissing);
  }, 180_000);

  it("lets the Owner take down a former member's listing page of the team's render, and not a Member", async () => {
    const exportId = await removedExportId();
    const { code } = await server.deps.db.selectFrom("listing_exports").select("code").where("id", "=", exportId).executeTakeFirstOrThrow();
    // Every member sees the team render's exports, whoever made them.
    expect((await who.member.trpc.listing.forJob.query({ jobId: fx.jobId })).map((row) => row.id)).toContain(exportId);
    expect((await answerOf(who.member.trpc.listing.revoke.mutate({ exportId }))).status).toBe(404);
    expect((await who.visitor.fetch(`/l/${code}`)).status).toBe(200);
    await who.owner.trpc.listing.revoke.mutate({ exportId });
    expect((await who.visitor.fetch(`/l/${code}`)).status).toBe(404);
  });
});
