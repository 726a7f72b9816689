/**
 * Clients (issue 28, decision 072) through tRPC on a real server: spec section 5's rules with their
 * messages; who may keep a team's clients (Owner and Admin; a Member is refused with 403 and never
 * receives e-mail, phone, address or notes; anyone else gets 404, never 500); a personal space's
 * clients; a project linked only to a client of its own space; the activity log.
 */
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VALIDATION_MESSAGES } from "../../src/shared/auth-schemas";
import { MESSAGES } from "../../src/shared/messages";
import type { TeamRole } from "../../src/shared/teams";
import { createClientsModule } from "../../src/server/clients";
import { notFound } from "../../src/server/errors";
import type { AppRouter } from "../../src/server/trpc/root";
import { createStudioClient, signedInClient, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";

const clock = new TestClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
});
afterAll(async () => {
  await server?.stop();
});

type Person = StudioClient & { email: string; userId: string };
const person = (): Promise<Person> => signedInClient(server.url);

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<AppRouter>;
  return { message: e.message, code: (e.data as { code: string }).code, httpStatus: (e.data as { httpStatus: number }).httpStatus };
}

/** The first message of each field the server refused (error.data.zodError). */
async function fieldErrors(promise: Promise<unknown>): Promise<Record<string, string>> {
  const error = (await promise.then(
    () => null,
    (caught: unknown) => caught,
  )) as TRPCClientError<AppRouter> | null;
  expect(error).toBeInstanceOf(TRPCClientError);
  expect(error!.data?.code).toBe("BAD_REQUEST");
  const fields = (error!.data as unknown as { zodError: { fieldErrors: Record<string, string[]> } }).zodError.fieldErrors;
  return Object.fromEntries(Object.entries(fields).map(([field, messages]) => [field, messages[0]!]));
}

/** A team whose Owner is `owner`, with these people added as Admin or Member, everyone working in it. */
async function teamOf(owner: Person, others: { person: Person; role: Exclude<TeamRole, "owner"> }[] = []) {
  const team = await owner.client.teams.create.mutate({ name: `Studio ${Math.random().toString(36).slice(2, 8)}` });
  for (const { person, role } of others) {
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: person.userId, role, monthly_cap: null, joined_at: clock.now() })
      .execute();
    await person.client.teams.switchSpace.mutate({ teamId: team.id });
  }
  return team;
}

const FULL = {
  name: "Marta Ruiz",
  email: "marta@example.com",
  phone: "+34 (91) 555-0101",
  address: "Calle Mayor 1, Madrid",
  notes: "Gate code 4411",
};

describe("a client's fields (spec section 5)", () => {
  it("refuses each broken rule with its message, per field, and keeps nothing", async () => {
    const ana = await signedInClient(server.url);
    expect(await fieldErrors(ana.client.clients.create.mutate({ name: "   " }))).toEqual({ name: MESSAGES.clientNameRequired });
    expect(
      await fieldErrors(
        ana.client.clients.create.mutate({
          name: "x".repeat(101),
          email: "not-an-address",
          phone: "555-CALL-NOW",
          address: "a".repeat(201),
          notes: "n".repeat(2001),
        }),
      ),
    ).toEqual({
      name: MESSAGES.clientNameTooLong,
      email: VALIDATION_MESSAGES.emailInvalid,
      phone: MESSAGES.clientPhoneInvalid,
      address: MESSAGES.clientAddressTooLong,
      notes: MESSAGES.clientNotesTooLong,
    });
    expect(await fieldErrors(ana.client.clients.create.mutate({ name: "Short phone", phone: "555 0101" }))).toEqual({
      phone: MESSAGES.clientPhoneLength,
    });
    expect(await fieldErrors(ana.client.clients.create.mutate({ name: "Long phone", phone: "1".repeat(21) }))).toEqual({
      phone: MESSAGES.clientPhoneLength,
    });
    expect(await fieldErrors(ana.client.clients.create.mutate({ name: "Long mail", email: `${"m".repeat(250)}@example.com` }))).toEqual({
      email: VALIDATION_MESSAGES.emailTooLong,
    });
    expect((await ana.client.clients.list.query()).clients).toEqual([]);
  });

  it("takes the limits themselves, trims, and keeps an empty optional field as none", async () => {
    const ana = await signedInClient(server.url);
    const edge = await ana.client.clients.create.mutate({
      name: ` ${"N".repeat(100)} `,
      phone: "1234567890",
      address: "a".repeat(200),
      notes: "n".repeat(2000),
      email: "",
    });
    expect(edge).toMatchObject({ name: "N".repeat(100), phone: "1234567890", email: null, teamId: null });
    const twenty = await ana.client.clients.create.mutate({ name: "Twenty", phone: "+1 (555) 010-1234 56" });
    expect(twenty.phone).toHaveLength(20);
  });
});

describe("personal space clients", () => {
  it("are kept by their keeper alone: list, add, edit, delete; anyone else gets 404", async () => {
    const ana = await signedInClient(server.url);
    const bruno = await signedInClient(server.url);
    const created = await ana.client.clients.create.mutate(FULL);
    expect(created).toMatchObject({ ...FULL, teamId: null });
    expect((await ana.client.clients.list.query()).clients.map((client) => client.name)).toEqual(["Marta Ruiz"]);
    expect(await ana.client.clients.list.query()).toMatchObject({ teamId: null, canManage: true });

    const edited = await ana.client.clients.update.mutate({ id: created.id, name: "Marta Ruiz Gil", phone: "", notes: null });
    expect(edited).toMatchObject({ name: "Marta Ruiz Gil", phone: null, notes: null, email: null, address: null });
    expect(await ana.client.clients.get.query({ id: created.id })).toEqual(edited);

    for (const call of [
      () => bruno.client.clients.get.query({ id: created.id }),
      () => bruno.client.clients.update.mutate({ id: created.id, name: "Taken" }),
      () => bruno.client.clients.delete.mutate({ id: created.id }),
      () => ana.client.clients.get.query({ id: "no-such-client" }),
    ]) {
      expect(await refusal(call())).toEqual({ code: "NOT_FOUND", httpStatus: 404, message: MESSAGES.notFound });
    }
    expect((await bruno.client.clients.list.query()).clients).toEqual([]);
    const visitor = createStudioClient(server.url);
    expect(await refusal(visitor.client.clients.list.query())).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await refusal(visitor.client.clients.create.mutate(FULL))).toMatchObject({ code: "UNAUTHORIZED" });

    await ana.client.clients.delete.mutate({ id: created.id });
    expect((await ana.client.clients.list.query()).clients).toEqual([]);
  });

  it("links the owner's project to their own client only, and shows it with its details", async () => {
    const ana = await signedInClient(server.url);
    const bruno = await signedInClient(server.url);
    const project = await ana.client.projects.create.mutate({ name: "Loft" });
    const client = await ana.client.clients.create.mutate(FULL);
    const brunos = await bruno.client.clients.create.mutate({ name: "Not Ana's" });

    expect(await ana.client.clients.ofProject.query({ projectId: project.id })).toEqual({ teamId: null, canManage: true, client: null });
    await ana.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: client.id });
    expect(await ana.client.clients.ofProject.query({ projectId: project.id })).toEqual({ teamId: null, canManage: true, client });
    expect(await server.services.clients.clientNamesOfProjects([project.id, "other"])).toEqual(
      new Map([[project.id, { id: client.id, name: FULL.name }]]),
    );

    // Another user's client, another user's project: not there for Ana (404); nothing changed.
    expect(await refusal(ana.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: brunos.id }))).toMatchObject({
      httpStatus: 404,
    });
    expect(await refusal(bruno.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: brunos.id }))).toMatchObject({
      httpStatus: 404,
    });
    expect(await refusal(bruno.client.clients.ofProject.query({ projectId: project.id }))).toMatchObject({ httpStatus: 404 });
    expect((await ana.client.clients.ofProject.query({ projectId: project.id })).client?.id).toBe(client.id);

    // Unlinked; and deleting the client leaves the project without one.
    await ana.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: null });
    expect((await ana.client.clients.ofProject.query({ projectId: project.id })).client).toBeNull();
    await ana.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: client.id });
    await ana.client.clients.delete.mutate({ id: client.id });
    expect((await ana.client.clients.ofProject.query({ projectId: project.id })).client).toBeNull();
    expect(await ana.client.projects.get.query({ id: project.id })).toMatchObject({ project: { name: "Loft" } });
  });

  it("refuses a team's client for a personal project (another space)", async () => {
    const ana = await signedInClient(server.url);
    const project = await ana.client.projects.create.mutate({ name: "Own flat" });
    await teamOf(ana);
    const teamClient = await ana.client.clients.create.mutate({ name: "Team client" });
    expect(teamClient.teamId).not.toBeNull();
    expect(await refusal(ana.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: teamClient.id }))).toEqual({
      code: "BAD_REQUEST",
      httpStatus: 400,
      message: MESSAGES.clientOtherSpace,
    });
  });
});

describe("a team's clients: who may do what", () => {
  it("Owner and Admin keep them; a Member is refused (403) and never receives the details; others get 404", async () => {
    const [owner, admin, member, outsider, otherTeamOwner] = await Promise.all([person(), person(), person(), person(), person()]);
    const team = await teamOf(owner, [
      { person: admin, role: "admin" },
      { person: member, role: "member" },
    ]);
    await teamOf(otherTeamOwner, [{ person: outsider, role: "member" }]);

    const byOwner = await owner.client.clients.create.mutate(FULL);
    expect(byOwner.teamId).toBe(team.id);
    const byAdmin = await admin.client.clients.create.mutate({ name: "Hugo Blanc", phone: "01 23 45 67 89" });
    expect((await admin.client.clients.list.query()).clients.map((client) => client.name)).toEqual(["Hugo Blanc", "Marta Ruiz"]);
    expect(await admin.client.clients.get.query({ id: byOwner.id })).toEqual(byOwner);
    await admin.client.clients.update.mutate({ id: byOwner.id, ...FULL, notes: "Prefers mornings" });
    await owner.client.clients.update.mutate({ id: byAdmin.id, name: "Hugo Blanc", phone: "" });

    // A Member: the page's list is empty and says so; one client is refused with the role's message.
    expect(await member.client.clients.list.query()).toEqual({ teamId: team.id, canManage: false, clients: [] });
    const forbidden = { code: "FORBIDDEN", httpStatus: 403, message: MESSAGES.teamRightMissing };
    expect(await refusal(member.client.clients.get.query({ id: byOwner.id }))).toEqual(forbidden);
    expect(await refusal(member.client.clients.create.mutate({ name: "Sneaky" }))).toEqual(forbidden);
    expect(await refusal(member.client.clients.update.mutate({ id: byOwner.id, name: "Sneaky" }))).toEqual(forbidden);
    expect(await refusal(member.client.clients.delete.mutate({ id: byOwner.id }))).toEqual(forbidden);
    // On the wire: nothing of the details in anything a Member reads.
    for (const path of ["clients.list", `clients.get?input=${encodeURIComponent(JSON.stringify({ json: { id: byOwner.id } }))}`]) {
      const body = await (await member.jar.fetch(`${server.url}/trpc/${path}`)).text();
      for (const secret of [FULL.email, FULL.phone, FULL.address, "Prefers mornings"]) expect(body).not.toContain(secret);
    }

    // A member of another team, and a user of no team: 404, as for a client that does not exist.
    const stranger = await signedInClient(server.url);
    for (const someone of [outsider, otherTeamOwner, stranger]) {
      for (const call of [
        () => someone.client.clients.get.query({ id: byOwner.id }),
        () => someone.client.clients.update.mutate({ id: byOwner.id, name: "Taken" }),
        () => someone.client.clients.delete.mutate({ id: byOwner.id }),
      ]) {
        expect(await refusal(call())).toEqual({ code: "NOT_FOUND", httpStatus: 404, message: MESSAGES.notFound });
      }
      expect((await someone.client.clients.list.query()).clients.map((client) => client.id)).not.toContain(byOwner.id);
    }
    const visitor = createStudioClient(server.url);
    expect(await refusal(visitor.client.clients.get.query({ id: byOwner.id }))).toMatchObject({ code: "UNAUTHORIZED", httpStatus: 401 });

    await admin.client.clients.delete.mutate({ id: byAdmin.id });
    expect((await owner.client.clients.list.query()).clients.map((client) => client.id)).toEqual([byOwner.id]);

    // The log: who added, changed and removed which client.
    const log = await owner.client.teams.activity.query({ teamId: team.id });
    const clientEntries = log
      .filter((entry) => entry.action.startsWith("client"))
      .map((entry) => [entry.action, entry.actorId, entry.details["name"]])
      .reverse();
    expect(clientEntries).toEqual([
      ["clientAdded", owner.userId, "Marta Ruiz"],
      ["clientAdded", admin.userId, "Hugo Blanc"],
      ["clientChanged", admin.userId, "Marta Ruiz"],
      ["clientChanged", owner.userId, "Hugo Blanc"],
      ["clientRemoved", admin.userId, "Hugo Blanc"],
    ]);
  });

  it("a removed member is refused at once", async () => {
    const [owner, admin] = await Promise.all([signedInClient(server.url), signedInClient(server.url)]);
    const team = await teamOf(owner, [{ person: admin, role: "admin" }]);
    const client = await admin.client.clients.create.mutate({ name: "Kept" });
    await server.deps.db.deleteFrom("team_members").where("team_id", "=", team.id).where("user_id", "=", admin.userId).execute();
    expect(await refusal(admin.client.clients.get.query({ id: client.id }))).toMatchObject({ httpStatus: 404 });
    // Back in their personal space: its (empty) list, not the team's.
    expect(await admin.client.clients.list.query()).toEqual({ teamId: null, canManage: true, clients: [] });
  });
});

describe("a team project's client", () => {
  /**
   * The projects service tells whether the caller may see a project and its team (projects.get). Until
   * it answers for team projects, these cases run the module against the real database with a
   * projects port that reads the project's team the way decision 070 says (a member sees a team's
   * project; the author sees a personal one).
   */
  function moduleWithTeamProjects() {
    const { db } = server.deps;
    return createClientsModule(
      { db, clock },
      {
        spaces: server.services.spaces,
        projects: {
          async get(userId, projectId) {
            const row = await db.selectFrom("projects").select(["id", "team_id", "user_id"]).where("id", "=", projectId).executeTakeFirst();
            if (!row) throw notFound();
            if (row.team_id === null ? row.user_id !== userId : (await server.services.spaces.roleIn(userId, row.team_id)) === null) {
              throw notFound();
            }
            return { project: { id: row.id, teamId: row.team_id } };
          },
        },
      },
    );
  }

  it("is set by Owner and Admin to a client of the team only; a Member sees its name alone", async () => {
    const [owner, admin, member, otherOwner] = await Promise.all([person(), person(), person(), person()]);
    const team = await teamOf(owner, [
      { person: admin, role: "admin" },
      { person: member, role: "member" },
    ]);
    await teamOf(otherOwner, [{ person: admin, role: "admin" }]);
    await admin.client.teams.switchSpace.mutate({ teamId: team.id });
    const project = await owner.client.projects.create.mutate({ name: "Team loft" });
    await server.deps.db.updateTable("projects").set({ team_id: team.id }).where("id", "=", project.id).execute();
    const client = await owner.client.clients.create.mutate(FULL);
    const otherTeamClient = await otherOwner.client.clients.create.mutate({ name: "Elsewhere" });
    const clients = moduleWithTeamProjects();

    await expect(clients.setProjectClient(member.userId, project.id, client.id)).rejects.toMatchObject({ kind: "forbidden" });
    await expect(clients.setProjectClient(otherOwner.userId, project.id, otherTeamClient.id)).rejects.toMatchObject({ kind: "not-found" });
    // Admin of both teams: the other team's client is the wrong space.
    await expect(clients.setProjectClient(admin.userId, project.id, otherTeamClient.id)).rejects.toMatchObject({
      kind: "invalid",
      messageName: "clientOtherSpace",
    });
    await clients.setProjectClient(admin.userId, project.id, client.id);

    expect(await clients.ofProject(owner.userId, project.id)).toMatchObject({
      teamId: team.id,
      canManage: true,
      client: { ...FULL, id: client.id },
    });
    const seenByMember = await clients.ofProject(member.userId, project.id);
    expect(seenByMember).toEqual({ teamId: team.id, canManage: false, client: { id: client.id, name: FULL.name } });
    await expect(clients.ofProject(otherOwner.userId, project.id)).rejects.toMatchObject({ kind: "not-found" });
    expect(await clients.clientNamesOfProjects([project.id])).toEqual(new Map([[project.id, { id: client.id, name: FULL.name }]]));
  });

  it("reaches a Member over the wire as its name only", async () => {
    const [owner, member] = await Promise.all([signedInClient(server.url), signedInClient(server.url)]);
    const team = await teamOf(owner, [{ person: member, role: "member" }]);
    const project = await owner.client.projects.create.mutate({ name: "Shared loft" });
    expect(project.teamId).toBe(team.id);
    const client = await owner.client.clients.create.mutate(FULL);
    await owner.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: client.id });
    const input = encodeURIComponent(JSON.stringify({ json: { projectId: project.id } }));
    const body = await (await member.jar.fetch(`${server.url}/trpc/clients.ofProject?input=${input}`)).text();
    expect(body).toContain(FULL.name);
    for (const secret of [FULL.email, FULL.phone, FULL.address, FULL.notes]) expect(body).not.toContain(secret);
    expect(await refusal(member.client.clients.setProjectClient.mutate({ projectId: project.id, clientId: null }))).toMatchObject({
      httpStatus: 403,
    });
  });
});
