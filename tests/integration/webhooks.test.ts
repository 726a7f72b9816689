/**
 * Webhooks of the REST API (issue 31, decision 095), against real parts: the app on loopback, a
 * receiver (a real HTTP server) that checks every signature with its own implementation of the
 * Standard Webhooks scheme, a real SMTP server, and a clock the test moves (backoff is never slept).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { localProvider, PREVIEW_CAPABILITIES } from "../../src/server/render/engines/local";
import type { RenderProvider } from "../../src/server/render/engines/provider";
import { PASSWORD, roomPhoto, signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { startSmtpServer } from "../helpers/smtp";
import { TestClock } from "../helpers/test-clock";
import { placeOf } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely; each test says what it expects
type Json = Record<string, any>;

/** The Preview engine, except for notes asking it to hold: those wait until canceled. */
const holding: RenderProvider = {
  ...localProvider,
  capabilities: PREVIEW_CAPABILITIES,
  render: (request) =>
    request.prompt === "hold"
      ? new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }))
      : localProvider.render(request),
};

/** The receiver's own check of a Standard Webhooks signature (not the server's code). */
function verified(secret: string, headers: http.IncomingHttpHeaders, body: string, nowSeconds: number): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  if (!secret.startsWith("whsec_")) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    const given = Buffer.from(value ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

interface Received {
  id: string;
  body: Json;
  valid: boolean;
  host: string;
  /** The status the receiver answered, or null when it never did. */
  answered: number | null;
}

/** A webhook receiver on loopback; `answer` decides each request's fate (a status, or "hold": never answer). */
async function startReceiver(clock: TestClock) {
  const received: Received[] = [];
  const state = { secret: "", answer: (_count: number): number | "hold" => 204 };
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const entry: Received = {
        id: String(req.headers["webhook-id"]),
        body: JSON.parse(body) as Json,
        valid: verified(state.secret, req.headers, body, Math.floor(clock.now() / 1000)),
        host: String(req.headers.host),
        answered: null,
      };
      received.push(entry);
      const answer = state.answer(received.length);
      if (answer === "hold") return void held.push(res);
      entry.answered = answer;
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "thanks" : `no: ${"x".repeat(600)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    state,
    /** Accepted deliveries (answered 2xx), in arrival order. */
    accepted: () => received.filter((entry) => entry.answered !== null && entry.answered < 300),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const clock = new TestClock(Date.now());
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TestServer;
/** Names the test resolves itself: hooks.test goes wherever `where` says. */
const names = { where: "127.0.0.1" };
const lookup = async (hostname: string) => {
  if (hostname === "hooks.test") return [{ address: names.where, family: 4 }];
  throw new Error(`unknown name ${hostname}`);
};
const env = () => ({ WEBHOOKS_ALLOW_LOOPBACK: "true", SMTP_URL: smtp.url, API_REQUESTS_PER_MINUTE: "100000" });
const bootOptions = { clock, renderProvider: holding, webhooks: { pollMs: 20, lookup } };

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer(env(), bootOptions);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function call(path: string, token: string, init: { method?: string; json?: unknown; body?: Buffer } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.body) {
    headers["content-type"] = "image/jpeg";
    body = new Uint8Array(init.body);
  }
  const response = await fetch(`${server.url}/api/v1${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Json) : null };
}

async function developer() {
  const user = await signedInClient(server.url);
  const { token } = await user.client.developers.createKey.mutate({
    name: "Hooks",
    scopes: ["renders:write", "renders:read", "webhooks"],
    expiresInDays: null,
    teamId: null,
  });
  return { user, token };
}

async function register(token: string, url: string, events: string[]) {
  const created = await call("/webhooks", token, { json: { url, events } });
  expect(created.status).toBe(201);
  return created.json!;
}

async function deliveries(token: string, webhookId: string): Promise<Json[]> {
  return (await call(`/webhooks/${webhookId}/deliveries`, token)).json!.deliveries as Json[];
}

describe("webhooks", () => {
  it("registers an endpoint with a secret shown once, and signs every event; each arrives exactly once across a restart mid-delivery", async () => {
    const receiver = await startReceiver(clock);
    try {
      const { token } = await developer();
      const hook = await register(token, receiver.url, ["render.succeeded", "render.canceled"]);
      expect(hook).toMatchObject({ url: receiver.url, events: ["render.succeeded", "render.canceled"], enabled: true });
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      receiver.state.secret = hook.secret as string;
      // Shown once: never again.
      expect((await call(`/webhooks/${hook.id}`, token)).json).not.toHaveProperty("secret");
      expect((await call("/webhooks", token)).json!.webhooks).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);

      // The first delivery is held by the receiver (no answer) while the server stops.
      receiver.state.answer = (count) => (count === 1 ? "hold" : 204);
      const upload = await call("/uploads", token, { body: await roomPhoto(640, 480) });
      const first = await call("/renders?wait=30", token, { json: { imageId: upload.json!.id, style: "japandi" } });
      const held = await call("/renders", token, { json: { imageId: upload.json!.id, style: "modern", note: "hold" } });
      const heldId = held.json!.renders[0].id as string;
      await waitUntil(() => receiver.received.length, { message: "the first delivery to reach the receiver", until: (n) => n === 1 });
      // Canceled while the first is unanswered: its event waits behind it.
      expect((await call(`/renders/${heldId}/cancel`, token, { method: "POST" })).status).toBe(200);

      await server.stop();
      server = await startTestServer({ ...env(), ...placeOf(server.deps.env) }, { ...bootOptions, fresh: true });

      await waitUntil(() => receiver.accepted().length, { message: "both events to be accepted", until: (n) => n === 2 });
      const accepted = receiver.accepted();
      expect(accepted.map((entry) => [entry.body.type, entry.body.data.id])).toEqual([
        ["render.succeeded", first.json!.renders[0].id],
        ["render.canceled", heldId],
      ]);
      // Every request signed; the held one was sent again with the same webhook-id, and nothing else twice.
      expect(receiver.received.every((entry) => entry.valid)).toBe(true);
      expect(receiver.received.map((entry) => entry.id)).toEqual([accepted[0]!.id, accepted[0]!.id, accepted[1]!.id]);
      expect(accepted[0]!.body).toMatchObject({
        type: "render.succeeded",
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        data: { status: "succeeded", style: "japandi", result: { imageUrl: `/api/v1/renders/${first.json!.renders[0].id}/image` } },
      });
      const log = await deliveries(token, hook.id as string);
      expect(log.map((delivery) => [delivery.type, delivery.status])).toEqual([
        ["render.canceled", "succeeded"],
        ["render.succeeded", "succeeded"],
      ]);
      // The stopped try was given back untried: one attempt, the one that was answered.
      expect(log[1]!.attempts).toEqual([expect.objectContaining({ status: 204, error: null })]);
    } finally {
      await receiver.close();
    }
  });

  it("retries a receiver that fails twice with growing waits, in order, then it succeeds; redelivers on request", async () => {
    const receiver = await startReceiver(clock);
    try {
      const { token } = await developer();
      const hook = await register(token, receiver.url, ["render.succeeded"]);
      receiver.state.secret = hook.secret as string;
      receiver.state.answer = (count) => (count <= 2 ? 500 : 200);

      const test = await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      expect(test).toMatchObject({ status: 201, json: { type: "webhook.test", status: "pending" } });
      const second = await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      await waitUntil(() => receiver.received.length, { message: "the first try", until: (n) => n === 1 });
      const afterFirst = await waitUntil(async () => (await deliveries(token, hook.id as string)).find((d) => d.id === test.json!.id)!, {
        message: "the first try to be logged",
        until: (delivery) => delivery.attempts.length === 1,
      });
      expect(afterFirst.attempts[0]).toMatchObject({ status: 500, answer: `no: ${"x".repeat(508)}` });
      expect(Date.parse(afterFirst.nextAttemptAt as string) - Date.parse(afterFirst.attempts[0].at as string)).toBe(5_000);

      clock.advance(5_000);
      const afterSecond = await waitUntil(async () => (await deliveries(token, hook.id as string)).find((d) => d.id === test.json!.id)!, {
        message: "the second try to be logged",
        until: (delivery) => delivery.attempts.length === 2,
      });
      expect(Date.parse(afterSecond.nextAttemptAt as string) - Date.parse(afterSecond.attempts[1].at as string)).toBe(10_000);
      clock.advance(10_000);
      await waitUntil(() => receiver.accepted().length, { message: "both test events accepted", until: (n) => n === 2 });
      // The second event waited behind the first while it was retried.
      expect(receiver.received.map((entry) => [entry.id, entry.answered])).toEqual([
        [test.json!.id, 500],
        [test.json!.id, 500],
        [test.json!.id, 200],
        [second.json!.id, 200],
      ]);
      expect(receiver.received.every((entry) => entry.valid)).toBe(true);
      expect(receiver.received[0]!.body).toMatchObject({ type: "webhook.test", data: { endpointId: hook.id } });

      const again = await call(`/webhooks/${hook.id}/deliveries/${test.json!.id}/redeliver`, token, { method: "POST" });
      expect(again).toMatchObject({ status: 201, json: { type: "webhook.test", status: "pending" } });
      expect(again.json!.id).not.toBe(test.json!.id);
      await waitUntil(() => receiver.accepted().length, { message: "the redelivery", until: (n) => n === 3 });
      expect(receiver.received.at(-1)!.body).toEqual(receiver.received[0]!.body);

      // A new secret is in force at once: the next request is signed with it, not with the old one.
      const rotated = await call(`/webhooks/${hook.id}/rotate-secret`, token, { method: "POST" });
      expect(rotated).toMatchObject({ status: 200, json: { id: hook.id, secret: expect.stringMatching(/^whsec_/) } });
      expect(rotated.json!.secret).not.toBe(hook.secret);
      const before = receiver.received.length;
      await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      await waitUntil(() => receiver.received.length, { message: "the test after the rotation", until: (n) => n === before + 1 });
      expect(receiver.received[before]!.valid).toBe(false);
      receiver.state.secret = rotated.json!.secret as string;
      await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      await waitUntil(() => receiver.received.length, { message: "another test", until: (n) => n === before + 2 });
      expect(receiver.received[before + 1]!.valid).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("refuses private, loopback-like and plain-http URLs, and checks the address again before each delivery", async () => {
    const { token } = await developer();
    const refused = { status: 400, json: { error: { code: "invalid", message: MESSAGES.webhookUrlRefused } } };
    for (const url of ["https://10.1.2.3/x", "https://169.254.169.254/latest/meta-data", "https://[fd00::1]/x", "https://0.0.0.0/x"])
      expect(await call("/webhooks", token, { json: { url, events: ["render.succeeded"] } }), url).toMatchObject(refused);
    expect(await call("/webhooks", token, { json: { url: "http://93.184.216.34/x", events: ["render.succeeded"] } })).toMatchObject({
      status: 400,
      json: { error: { message: MESSAGES.webhookUrlNotHttps } },
    });
    expect(await call("/webhooks", token, { json: { url: "ftp://hooks.test/x", events: ["render.succeeded"] } })).toMatchObject({
      status: 400,
    });

    // A name that resolved to this machine when registered, then to a private address: refused at delivery, nothing sent.
    const receiver = await startReceiver(clock);
    try {
      names.where = "127.0.0.1";
      const hook = await register(token, `http://hooks.test:${receiver.port}/hooks`, ["render.succeeded"]);
      receiver.state.secret = hook.secret as string;
      // The delivery connects to the address it checked (the system could not resolve hooks.test).
      await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      await waitUntil(() => receiver.accepted().length, { message: "the test event", until: (n) => n === 1 });
      expect(receiver.received[0]).toMatchObject({ valid: true, host: `hooks.test:${receiver.port}` });

      names.where = "10.0.0.7";
      const test = await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      const logged = await waitUntil(async () => (await deliveries(token, hook.id as string)).find((d) => d.id === test.json!.id)!, {
        message: "the refused try to be logged",
        until: (delivery) => delivery.attempts.length === 1,
      });
      expect(logged.attempts[0]).toMatchObject({ status: null, error: MESSAGES.webhookUrlRefused });
      expect(receiver.received).toHaveLength(1);
    } finally {
      names.where = "127.0.0.1";
      await receiver.close();
    }
  });

  it("turns off an endpoint that failed every delivery for a day, and mails its maker", async () => {
    const receiver = await startReceiver(clock);
    try {
      const { user, token } = await developer();
      const hook = await register(token, receiver.url, ["render.succeeded"]);
      receiver.state.secret = hook.secret as string;
      receiver.state.answer = () => 503;
      const test = await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      const started = clock.now();
      let tries = 0;
      for (;;) {
        const delivery = await waitUntil(async () => (await deliveries(token, hook.id as string)).find((d) => d.id === test.json!.id)!, {
          message: `try ${tries + 1} to be logged`,
          until: (found) => found.attempts.length === tries + 1,
        });
        tries += 1;
        if (delivery.status !== "pending") {
          expect(delivery.status).toBe("failed");
          break;
        }
        clock.advance(Date.parse(delivery.nextAttemptAt as string) - clock.now());
      }
      expect(clock.now() - started).toBeGreaterThanOrEqual(24 * 3_600_000);
      expect(tries).toBeGreaterThan(10);
      expect(tries).toBeLessThan(40);
      expect((await call(`/webhooks/${hook.id}`, token)).json).toMatchObject({ enabled: false, disabledReason: "failing" });
      const mail = await waitUntil(() => smtp.mails.find((sent) => sent.to.includes(user.email) && sent.subject.includes("webhook")), {
        message: "the mail saying the webhook was turned off",
      });
      expect(mail!.subject).toBe("A RoomCanvas webhook was turned off");
      expect(mail!.text).toContain(receiver.url);

      // Off: a test event waits; turned on again from the page, it is sent.
      receiver.state.answer = () => 200;
      await call(`/webhooks/${hook.id}/test`, token, { method: "POST" });
      // (A day has passed: the session ended; signed in again.)
      await user.client.auth.signIn.mutate({ email: user.email, password: PASSWORD });
      await user.client.webhooks.setEnabled.mutate({ id: hook.id as string, enabled: true });
      await waitUntil(() => receiver.accepted().length, { message: "the test event after turning it on", until: (n) => n === 1 });
    } finally {
      await receiver.close();
    }
  });

  it("keeps endpoints to their space and the scope webhooks", async () => {
    const { token } = await developer();
    const other = await developer();
    const hook = await register(token, "https://127.0.0.1:9/x", ["render.failed"]);
    const notFound = { status: 404, json: { error: { code: "not-found" } } };
    expect(await call(`/webhooks/${hook.id}`, other.token)).toMatchObject(notFound);
    expect(await call(`/webhooks/${hook.id}/deliveries`, other.token)).toMatchObject(notFound);
    expect(await call(`/webhooks/${hook.id}/test`, other.token, { method: "POST" })).toMatchObject(notFound);
    expect(await call(`/webhooks/${hook.id}`, other.token, { method: "DELETE" })).toMatchObject(notFound);
    await expect(other.user.client.webhooks.remove.mutate({ id: hook.id as string })).rejects.toThrow();

    const { token: noScope } = await other.user.client.developers.createKey.mutate({
      name: "Renders only",
      scopes: ["renders:read"],
      expiresInDays: null,
      teamId: null,
    });
    expect(await call("/webhooks", noScope)).toMatchObject({ status: 403, json: { error: { code: "forbidden" } } });

    expect(await call(`/webhooks/${hook.id}`, token, { method: "DELETE" })).toMatchObject({ status: 204 });
    expect(await call(`/webhooks/${hook.id}`, token)).toMatchObject(notFound);
  });

  it("sends credits.low once when a change takes the balance below the endpoint's threshold, and listing.created with the export", async () => {
    const receiver = await startReceiver(clock);
    try {
      const { user, token } = await developer();
      const refused = await call("/webhooks", token, { json: { url: receiver.url, events: ["credits.low"], creditsLowBelow: 0 } });
      expect(refused).toMatchObject({ status: 400, json: { error: { message: MESSAGES.webhookCreditsLowInvalid } } });
      const hook = await register(token, receiver.url, ["credits.low", "listing.created"]);
      expect(hook.creditsLowBelow).toBe(10);
      await call(`/webhooks/${hook.id}`, token, { method: "DELETE" });
      const created = await call("/webhooks", token, {
        json: { url: receiver.url, events: ["credits.low", "listing.created"], creditsLowBelow: 3 },
      });
      expect(created.json).toMatchObject({ creditsLowBelow: 3 });
      receiver.state.secret = created.json!.secret as string;
      // Only the render events' endpoint says nothing of credits.
      const renders = await register(token, receiver.url.replace("/hooks", "/renders"), ["render.failed"]);
      expect(renders.creditsLowBelow).toBeNull();

      await server.deps.db.updateTable("profiles").set({ credits_remaining: 4 }).where("user_id", "=", user.userId).execute();
      const upload = await call("/uploads", token, { body: await roomPhoto(640, 480) });
      const order = async () =>
        (await call("/renders?wait=30", token, { json: { imageId: upload.json!.id, style: "coastal" } })).json!.renders[0];
      // 4 → 3: not below 3. 3 → 2: below, once. 2 → 1: it was below already.
      const first = await order();
      await order();
      await order();
      const balance = await server.deps.db
        .selectFrom("profiles")
        .select("credits_remaining")
        .where("user_id", "=", user.userId)
        .executeTakeFirstOrThrow();
      expect(balance.credits_remaining).toBe(1);
      const made = await call(`/renders/${first.id}/listing-exports`, token, { json: {} });
      expect(made.status).toBe(201);

      await waitUntil(() => receiver.accepted().length, { message: "credits.low and listing.created", until: (n) => n >= 2 });
      expect(receiver.received.map((entry) => [entry.body.type, entry.valid])).toEqual([
        ["credits.low", true],
        ["listing.created", true],
      ]);
      expect(receiver.received[0]!.body.data).toEqual({ teamId: null, balance: 2, threshold: 3 });
      expect(receiver.received[1]!.body.data).toEqual(made.json);
    } finally {
      await receiver.close();
    }
  });

  it("gives a team's endpoints to its Owner and Admins only, and the team's render events to them", async () => {
    const receiver = await startReceiver(clock);
    try {
      const owner = await signedInClient(server.url);
      const team = await owner.client.teams.create.mutate({ name: "Estudio Webhooks" });
      const [admin, member] = [await signedInClient(server.url), await signedInClient(server.url)];
      for (const [person, role] of [
        [admin, "admin"],
        [member, "member"],
      ] as const)
        await server.deps.db
          .insertInto("team_members")
          .values({ team_id: team.id, user_id: person.userId, role, monthly_cap: null, joined_at: clock.now() })
          .execute();
      const input = {
        url: receiver.url,
        events: ["render.succeeded" as const, "credits.low" as const],
        creditsLowBelow: 5,
        description: "",
        teamId: team.id,
      };
      await expect(member.client.webhooks.create.mutate(input)).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
      await expect(member.client.webhooks.list.query({ teamId: team.id })).rejects.toMatchObject({ data: { code: "FORBIDDEN" } });
      const { endpoint, secret } = await admin.client.webhooks.create.mutate(input);
      receiver.state.secret = secret;
      expect(endpoint.teamId).toBe(team.id);
      expect((await owner.client.webhooks.list.query({ teamId: team.id })).map((found) => found.id)).toEqual([endpoint.id]);
      // The member's personal endpoint hears nothing of the team's work.
      await member.client.webhooks.create.mutate({ ...input, teamId: null });

      const { token } = await admin.client.developers.createKey.mutate({
        name: "Team",
        scopes: ["renders:write"],
        expiresInDays: null,
        teamId: team.id,
      });
      // The team's balance (a new team has none), as the credit ledger keeps it.
      await server.deps.db.updateTable("teams").set({ credits_remaining: 5 }).where("id", "=", team.id).execute();
      const upload = await call("/uploads", token, { body: await roomPhoto(640, 480) });
      const ordered = await call("/renders?wait=30", token, { json: { imageId: upload.json!.id, style: "coastal" } });
      expect(ordered.json!.renders[0].status).toBe("succeeded");
      await waitUntil(() => receiver.accepted().length, { message: "the team's render and credit events", until: (n) => n >= 2 });
      // The team's balance went from 5 to 4 (below the Admin's threshold of 5); the two streams may arrive in either order.
      expect(
        receiver.received.map((entry) => [entry.body.type, entry.body.data.id ?? entry.body.data.balance, entry.valid]).sort(),
      ).toEqual([
        ["credits.low", 4, true],
        ["render.succeeded", ordered.json!.renders[0].id, true],
      ]);
      expect(receiver.received.find((entry) => entry.body.type === "credits.low")!.body.data).toEqual({
        teamId: team.id,
        balance: 4,
        threshold: 5,
      });
    } finally {
      await receiver.close();
    }
  });
});
