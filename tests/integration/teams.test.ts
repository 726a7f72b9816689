/**
 * Teams (issue 28, decision 070) through tRPC on a real server: creating a team makes its creator
 * the Owner and moves them into it; the space is remembered on the account (another browser sees
 * it); only a member may switch into a team; names follow the spec's rules; the log records it.
 */
import { refusal } from "../helpers/failure";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { createStudioClient, PASSWORD, signedInClient } from "../helpers/render";
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

describe("teams and the space a user works in", () => {
  it("a new team has its creator as Owner, and they work in it on every browser", async () => {
    const ana = await signedInClient(server.url);
    expect(await ana.client.teams.mine.query()).toEqual({ teams: [], current: null });

    const team = await ana.client.teams.create.mutate({ name: "  Casa Nova  " });
    expect(team).toMatchObject({ name: "Casa Nova", role: "owner", members: 1, credits: 0 });
    const laptop = createStudioClient(server.url);
    await laptop.client.auth.signIn.mutate({ email: ana.email, password: PASSWORD });
    expect(await laptop.client.teams.mine.query()).toEqual({ teams: [team], current: team.id });

    await laptop.client.teams.switchSpace.mutate({ teamId: null });
    expect((await ana.client.teams.mine.query()).current).toBeNull();

    const log = await ana.client.teams.activity.query({ teamId: team.id });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: "teamCreated", actorId: ana.userId, details: { name: "Casa Nova" }, at: clock.now() });
  });

  it("refuses a name outside 2 to 100 characters with the rule's message", async () => {
    const ana = await signedInClient(server.url);
    expect(await refusal(ana.client.teams.create.mutate({ name: " x " }))).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining(MESSAGES.teamNameTooShort),
    });
    expect(await refusal(ana.client.teams.create.mutate({ name: "x".repeat(101) }))).toMatchObject({
      message: expect.stringContaining(MESSAGES.teamNameTooLong),
    });
    expect((await ana.client.teams.mine.query()).teams).toEqual([]);
  });

  it("lets nobody but a member switch into a team or read its log, and says nothing of it", async () => {
    const ana = await signedInClient(server.url);
    const bruno = await signedInClient(server.url);
    const team = await ana.client.teams.create.mutate({ name: "Atelier" });
    expect(await refusal(bruno.client.teams.switchSpace.mutate({ teamId: team.id }))).toEqual({
      code: "NOT_FOUND",
      message: MESSAGES.notFound,
    });
    expect(await refusal(bruno.client.teams.activity.query({ teamId: team.id }))).toEqual({
      code: "NOT_FOUND",
      message: MESSAGES.notFound,
    });
    expect(await refusal(bruno.client.teams.switchSpace.mutate({ teamId: "no-such-team" }))).toMatchObject({ code: "NOT_FOUND" });
    expect((await bruno.client.teams.mine.query()).current).toBeNull();
    const visitor = createStudioClient(server.url);
    expect(await refusal(visitor.client.teams.mine.query())).toMatchObject({ code: "UNAUTHORIZED" });
  });
});
