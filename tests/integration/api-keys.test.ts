/**
 * The public REST API's keys and its first routes (issue 31, decision 094), against the real server:
 * a key made on /developers (tRPC) works as a bearer token, never through cookies; scopes, revoking,
 * expiry and team roles hold; every error has the one shape; the OpenAPI document validates as 3.1.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEYS } from "../../src/shared/api";
import { MESSAGES } from "../../src/shared/messages";
import { refusal } from "../helpers/failure";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { inviteToken } from "../helpers/teams";
import { TestClock } from "../helpers/test-clock";

let server: TestServer;
const clock = new TestClock();

beforeAll(async () => {
  server = await startTestServer({}, { clock });
});
afterAll(async () => {
  await server?.stop();
});

async function call(path: string, init: { token?: string; cookie?: string; method?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.cookie = init.cookie;
  const response = await fetch(`${server.url}/api/v1${path}`, { method: init.method ?? "GET", headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const errorOf = (code: string, message: string) => ({ error: { code, message } });

describe("API keys", () => {
  it("makes a key whose secret is shown once and stored only as a hash; it reads the space's credits, as a bearer token only", async () => {
    const user = await signedInClient(server.url);
    const { key, token } = await user.client.developers.createKey.mutate({
      name: "Listing site",
      scopes: ["credits:read"],
      expiresInDays: null,
      teamId: null,
    });
    expect(token).toMatch(/^rck_[a-z2-7]{12}_[a-z2-7]{48}$/);
    expect(token.startsWith(`${key.prefix}_`)).toBe(true);
    const [listed] = await user.client.developers.keys.query({ teamId: null });
    expect(listed).toEqual(key);
    expect(JSON.stringify(listed)).not.toContain(token.slice(key.prefix.length + 1));
    const row = await server.deps.db.selectFrom("api_keys").selectAll().where("id", "=", key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token.slice(key.prefix.length + 1));

    const { credits } = await user.client.render.allowance.query();
    expect(await call("/credits", { token })).toEqual({ status: 200, body: { balance: credits } });
    // The browser's session cookie is not a key.
    const cookie = user.jar.header();
    expect(cookie).not.toBe("");
    expect(await call("/credits", { cookie })).toEqual({ status: 401, body: errorOf("unauthenticated", MESSAGES.apiKeyMissing) });
    expect(await call("/credits", { token: `${token}x` })).toEqual({
      status: 401,
      body: errorOf("unauthenticated", MESSAGES.apiKeyInvalid),
    });
    expect(await call("/credits", { token: "rck_aaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" })).toEqual({
      status: 401,
      body: errorOf("unauthenticated", MESSAGES.apiKeyInvalid),
    });
    // When it was last used, for the list.
    expect((await user.client.developers.keys.query({ teamId: null }))[0]!.lastUsedAt).toBe(clock.now());
  });

  it("refuses a route whose scope the key lacks, naming it; answers unknown routes and POSTs in the API's shape, CSRF aside", async () => {
    const user = await signedInClient(server.url);
    const { token } = await user.client.developers.createKey.mutate({
      name: "Reader",
      scopes: ["renders:read"],
      expiresInDays: 30,
      teamId: null,
    });
    expect(await call("/credits", { token })).toEqual({
      status: 403,
      body: errorOf("forbidden", MESSAGES.apiScopeMissing.replace("{{scope}}", "credits:read")),
    });
    expect(await call("/catalogue", { token })).toMatchObject({
      status: 200,
      body: { styles: expect.arrayContaining(["modern", "japandi"]), customStyles: [] },
    });
    // The key's space's own styles are in the catalogue, with what a render names them by.
    const own = await user.client.styles.create.mutate({
      teamId: null,
      name: "Casa Azul",
      description: "cobalt blue tiled walls, whitewashed plaster",
      palette: ["#1f4e9c"],
      tone: "bold",
    });
    expect((await call("/catalogue", { token })).body).toMatchObject({
      customStyles: [
        { id: own.id, name: "Casa Azul", description: own.description, avoid: "", palette: ["#1f4e9c"], tone: "bold", hasReference: false },
      ],
    });
    expect(await call("/no-such-thing", { token })).toEqual({ status: 404, body: errorOf("not-found", MESSAGES.apiNotFound) });
    // No Origin, no cookie: a POST reaches the API (which has no such route), not the browser's CSRF refusal.
    expect(await call("/no-such-thing", { token, method: "POST" })).toEqual({
      status: 404,
      body: errorOf("not-found", MESSAGES.apiNotFound),
    });
  });

  it("stops a key at once when it is revoked, and when it expires", async () => {
    const user = await signedInClient(server.url);
    const revoked = await user.client.developers.createKey.mutate({
      name: "Old",
      scopes: ["credits:read"],
      expiresInDays: null,
      teamId: null,
    });
    expect((await call("/credits", { token: revoked.token })).status).toBe(200);
    const after = await user.client.developers.revokeKey.mutate({ id: revoked.key.id });
    expect(after.revokedAt).toBe(clock.now());
    expect(await call("/credits", { token: revoked.token })).toEqual({
      status: 401,
      body: errorOf("unauthenticated", MESSAGES.apiKeyInvalid),
    });

    const expiring = await user.client.developers.createKey.mutate({
      name: "Week",
      scopes: ["credits:read"],
      expiresInDays: 7,
      teamId: null,
    });
    expect((await call("/credits", { token: expiring.token })).status).toBe(200);
    clock.advance(7 * 24 * 60 * 60_000);
    expect((await call("/credits", { token: expiring.token })).status).toBe(401);

    // Another user cannot see or revoke it.
    const other = await signedInClient(server.url);
    expect(await other.client.developers.keys.query({ teamId: null })).toEqual([]);
    expect(await refusal(other.client.developers.revokeKey.mutate({ id: expiring.key.id }))).toEqual({
      message: MESSAGES.notFound,
      code: "NOT_FOUND",
    });
  });

  it("stops a key while an admin has its maker's account disabled, and lets it work again once enabled", async () => {
    const user = await signedInClient(server.url);
    const { token } = await user.client.developers.createKey.mutate({
      name: "Feed",
      scopes: ["credits:read"],
      expiresInDays: null,
      teamId: null,
    });
    expect((await call("/credits", { token })).status).toBe(200);
    const admin = await signedInClient(server.url);
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: clock.now() }).execute();
    await admin.client.admin.setDisabled.mutate({ userId: user.userId, disabled: true });
    expect(await call("/credits", { token })).toEqual({ status: 401, body: errorOf("unauthenticated", MESSAGES.apiKeyInvalid) });
    await admin.client.admin.setDisabled.mutate({ userId: user.userId, disabled: false });
    expect((await call("/credits", { token })).status).toBe(200);
  });

  it("checks names, scopes and expiry, and keeps at most the allowed number of live keys per space", async () => {
    const user = await signedInClient(server.url);
    const make = (input: Partial<Parameters<typeof user.client.developers.createKey.mutate>[0]>) =>
      user.client.developers.createKey.mutate({ name: "Key", scopes: ["projects"], expiresInDays: null, teamId: null, ...input });
    expect((await refusal(make({ name: " " }))).message).toContain(MESSAGES.apiKeyNameInvalid);
    expect((await refusal(make({ scopes: [] }))).message).toContain(MESSAGES.apiKeyScopesRequired);
    expect((await refusal(make({ expiresInDays: 366 }))).message).toContain(MESSAGES.apiKeyExpiryInvalid);
    const made = [];
    for (let n = 0; n < API_KEYS.perSpaceMax; n++) made.push(await make({ name: `Key ${n}` }));
    expect(await refusal(make({ name: "One too many" }))).toEqual({ message: MESSAGES.tooManyApiKeys, code: "CONFLICT" });
    // A revoked key makes room.
    await user.client.developers.revokeKey.mutate({ id: made[0]!.key.id });
    expect((await make({ name: "In its place" })).key.name).toBe("In its place");
  });
});

describe("a team's keys", () => {
  it("are made by its Owner and Admins only, read the team's credits, and stop when their maker leaves the team", async () => {
    const owner = await signedInClient(server.url);
    const team = await owner.client.teams.create.mutate({ name: "Estudio API" });
    const admin = await signedInClient(server.url);
    const member = await signedInClient(server.url);
    for (const [person, role] of [
      [admin, "admin"],
      [member, "member"],
    ] as const) {
      await owner.client.teams.invite.mutate({ teamId: team.id, email: person.email, role });
      await person.client.teams.acceptInvitation.mutate({ token: await inviteToken(server.deps.db, person.email) });
    }
    const input = { name: "CRM", scopes: ["credits:read" as const], expiresInDays: null, teamId: team.id };
    expect((await refusal(member.client.developers.createKey.mutate(input))).code).toBe("FORBIDDEN");
    expect((await refusal(member.client.developers.keys.query({ teamId: team.id }))).code).toBe("FORBIDDEN");
    const { key, token } = await admin.client.developers.createKey.mutate(input);
    expect(key.teamId).toBe(team.id);
    expect((await owner.client.developers.keys.query({ teamId: team.id })).map((k) => k.id)).toEqual([key.id]);
    // Not among the admin's personal keys.
    expect(await admin.client.developers.keys.query({ teamId: null })).toEqual([]);
    const { balance } = await owner.client.teams.credits.query({ teamId: team.id });
    expect(await call("/credits", { token })).toEqual({ status: 200, body: { balance } });

    await owner.client.teams.removeMember.mutate({ teamId: team.id, userId: admin.userId });
    expect(await call("/credits", { token })).toEqual({ status: 401, body: errorOf("unauthenticated", MESSAGES.apiKeyInvalid) });
  });
});

describe("requests per key", () => {
  it("allow API_REQUESTS_PER_MINUTE a minute per key, say where the key stands on every answer, then 429 with Retry-After until the minute ends", async () => {
    const limited = await startTestServer({ API_REQUESTS_PER_MINUTE: "3" }, { clock });
    try {
      const user = await signedInClient(limited.url);
      const { token } = await user.client.developers.createKey.mutate({
        name: "Busy",
        scopes: ["credits:read"],
        expiresInDays: null,
        teamId: null,
      });
      const { token: other } = await user.client.developers.createKey.mutate({
        name: "Calm",
        scopes: ["credits:read"],
        expiresInDays: null,
        teamId: null,
      });
      const get = (key: string) => fetch(`${limited.url}/api/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
      for (const remaining of ["2", "1", "0"]) {
        const answer = await get(token);
        expect(answer.status).toBe(200);
        expect([
          answer.headers.get("ratelimit-limit"),
          answer.headers.get("ratelimit-remaining"),
          answer.headers.get("ratelimit-reset"),
        ]).toEqual(["3", remaining, "60"]);
      }
      const refused = await get(token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("60");
      expect(await refused.json()).toEqual(errorOf("rate-limited", MESSAGES.apiRateLimited));
      // Another key of the same user has its own count.
      expect((await get(other)).status).toBe(200);
      clock.advance(30_000);
      expect((await get(token)).headers.get("retry-after")).toBe("30");
      clock.advance(30_000);
      expect((await get(token)).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe("the OpenAPI document", () => {
  it("is served without a key, validates as OpenAPI 3.1, and describes the routes, the bearer key and the error shape", async () => {
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      tags: Array<{ name: string }>;
      paths: Record<string, Record<string, { tags?: string[] }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { scheme: string }> };
    };
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    // Every path the document describes, listed here once more on purpose.
    expect(Object.keys(document.paths).sort()).toEqual([
      "/catalogue",
      "/credits",
      "/credits/ledger",
      "/edits/{id}",
      "/engines",
      "/listing-exports/{id}/image",
      "/projects",
      "/projects/{id}",
      "/renders",
      "/renders/{id}",
      "/renders/{id}/cancel",
      "/renders/{id}/edits",
      "/renders/{id}/image",
      "/renders/{id}/listing-exports",
      "/renders/{id}/reroll",
      "/renders/{id}/upscale",
      "/uploads",
      "/usage",
      "/webhooks",
      "/webhooks/{id}",
      "/webhooks/{id}/deliveries",
      "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
      "/webhooks/{id}/rotate-secret",
      "/webhooks/{id}/test",
    ]);
    // The reference's sections: every operation under one of them, each section used.
    const sections = document.tags.map((tag) => tag.name);
    const tagOf = (path: string) => Object.values(document.paths[path]!).flatMap((operation) => operation.tags ?? []);
    for (const path of Object.keys(document.paths)) expect(sections).toEqual(expect.arrayContaining(tagOf(path)));
    expect(new Set(Object.keys(document.paths).flatMap(tagOf))).toEqual(new Set(sections));
    expect(
      ["/renders/{id}/edits", "/edits/{id}", "/renders/{id}/listing-exports", "/renders/{id}/reroll", "/credits", "/credits/ledger"].map(
        tagOf,
      ),
    ).toEqual([
      ["Edits"],
      ["Edits"],
      ["Listing exports", "Listing exports"],
      ["Renders"],
      ["Credits and engines"],
      ["Credits and engines"],
    ]);
    expect(document.components.securitySchemes.apiKey!.scheme).toBe("bearer");
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["Error", "Catalogue", "Credits", "Upload", "RenderRequest", "Render", "RenderList"]),
    );
  });
});
