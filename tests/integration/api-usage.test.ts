/**
 * API usage by day (issue 31, decision 097): every request of a known key is counted on its UTC
 * day (renders ordered, refusals and failures apart), an idempotent replay orders nothing, a space
 * sees its own keys only, GET /api/v1/usage and /developers' tRPC query agree, and the housekeeping
 * removes days older than the 90 kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_USAGE, utcDay, type UsageReport } from "../../src/shared/api-usage";
import { refusal } from "../helpers/failure";
import { roomPhoto, signedInClient } from "../helpers/render";
import { inviteToken } from "../helpers/teams";
import { startTestServer, type TestServer } from "../helpers/server";
import { DAY, TestClock } from "../helpers/test-clock";
import { waitUntil } from "../helpers/wait";

const clock = new TestClock(Date.now());
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { clock });
});
afterAll(async () => {
  await server?.stop();
});

function call(token: string, path: string, init: { method?: string; body?: BodyInit; type?: string; idempotencyKey?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.type) headers["content-type"] = init.type;
  if (init.idempotencyKey) headers["idempotency-key"] = init.idempotencyKey;
  return fetch(`${server.url}/api/v1${path}`, { method: init.method ?? "GET", headers, body: init.body });
}

async function developer() {
  const user = await signedInClient(server.url);
  const { key, token } = await user.client.developers.createKey.mutate({
    name: "Counted",
    scopes: ["renders:write", "renders:read"],
    expiresInDays: null,
    teamId: null,
  });
  return { user, key, token };
}

describe("API usage by day", () => {
  it("counts each request on its day: renders ordered, refusals apart, a replay orders none; pruned after 90 days", async () => {
    const { user, key, token } = await developer();
    const stranger = await developer();
    const today = utcDay(clock.now());

    const uploaded = (await (
      await call(token, "/uploads", { method: "POST", body: new Uint8Array(await roomPhoto(640, 480)), type: "image/jpeg" })
    ).json()) as {
      id: string;
    };
    const order = { method: "POST", type: "application/json", idempotencyKey: "order-1" };
    const body = JSON.stringify({ imageId: uploaded.id, style: ["modern", "coastal"] });
    expect((await call(token, "/renders", { ...order, body })).status).toBe(201);
    const replay = await call(token, "/renders", { ...order, body });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await call(token, "/renders/nothing-here")).status).toBe(404);
    expect((await call(token, "/credits")).status).toBe(403); // no credits:read scope
    expect((await call("rck_unknownunkno_aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "/credits")).status).toBe(401); // no key: nobody's usage
    await call(stranger.token, "/renders");

    const expected = { requests: 5, renders: 2, clientErrors: 2, serverErrors: 0 };
    const report = await waitUntil(() => user.client.developers.usage.query({ teamId: null, days: 3 }), {
      message: "the five requests counted",
      until: (usage) => usage.keys[0]?.total.requests === 5,
    });
    expect(report.days).toHaveLength(3);
    expect(report.to).toBe(today);
    expect(report.days.at(-1)).toEqual({ day: today, ...expected });
    expect(report.days.slice(0, 2).every((day) => day.requests === 0)).toBe(true);
    expect(report.keys).toEqual([
      { id: key.id, name: "Counted", prefix: key.prefix, revoked: false, total: expected, days: [{ day: today, ...expected }] },
    ]);

    // The stranger's space sees only its own key.
    const theirs = await stranger.user.client.developers.usage.query({ teamId: null, days: 2 });
    expect(theirs.keys.map((k) => k.id)).toEqual([stranger.key.id]);

    // The next day (the web session has lapsed; the key has not): counted apart, and GET
    // /api/v1/usage answers the same report as the page's query, with its own request counted after.
    clock.advance(DAY);
    const tomorrow = utcDay(clock.now());
    const answered = await call(token, "/usage?days=2");
    expect(answered.status).toBe(200);
    const viaApi = (await answered.json()) as UsageReport;
    expect(viaApi.days).toEqual([
      { day: today, ...expected },
      { day: tomorrow, requests: 0, renders: 0, clientErrors: 0, serverErrors: 0 },
    ]);
    expect(viaApi.keys).toEqual(report.keys);
    await waitUntil(
      () =>
        server.deps.db.selectFrom("api_usage").selectAll().where("api_key_id", "=", key.id).where("day", "=", tomorrow).executeTakeFirst(),
      { message: "the usage request counted on its own day", until: (row) => row?.requests === 1 },
    );
    expect((await call(token, "/usage?days=0")).status).toBe(400);
    expect((await call(token, `/usage?days=${API_USAGE.daysMax + 1}`)).status).toBe(400);

    // Kept 90 days: the first day goes once it is 90 days old, the second stays a day longer.
    clock.advance((API_USAGE.keepDays - 1) * DAY);
    await server.services.housekeeping.runNow("schedule");
    const rows = await server.deps.db.selectFrom("api_usage").select(["day"]).where("api_key_id", "=", key.id).execute();
    expect(rows.map((row) => row.day)).toEqual([tomorrow]);
  });

  it("shows a team's usage to its Owner and Admins, not to a Member; a team key's GET /usage answers the team's", async () => {
    const owner = await signedInClient(server.url);
    const team = await owner.client.teams.create.mutate({ name: "Studio usage" });
    const member = await signedInClient(server.url);
    await owner.client.teams.invite.mutate({ teamId: team.id, email: member.email, role: "member" });
    await member.client.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, member.email) });
    const { key, token } = await owner.client.developers.createKey.mutate({
      name: "Team",
      scopes: ["renders:read"],
      expiresInDays: null,
      teamId: team.id,
    });
    await owner.client.developers.createKey.mutate({ name: "Mine", scopes: ["renders:read"], expiresInDays: null, teamId: null });

    expect((await call(token, "/renders")).status).toBe(200);
    const usage = await waitUntil(() => owner.client.developers.usage.query({ teamId: team.id, days: 1 }), {
      message: "the team key's request counted",
      until: (report) => report.days[0]?.requests === 1,
    });
    expect(usage.keys.map((k) => k.id)).toEqual([key.id]);
    expect((await owner.client.developers.usage.query({ teamId: null, days: 1 })).keys).toEqual([]);
    expect((await refusal(member.client.developers.usage.query({ teamId: team.id, days: 1 }))).code).toBe("FORBIDDEN");
    const viaKey = (await (await call(token, "/usage?days=1")).json()) as UsageReport;
    expect(viaKey.keys.map((k) => k.id)).toEqual([key.id]);
  });
});
