/**
 * What every response of the real app carries after decision 046 (security headers applied in one pass,
 * GET queries answered before the compression middleware): helmet's headers with our policy on every kind
 * of answer, the server's time, compression of large query answers exactly as the middleware does, and
 * the session's idle timeout still extended by a query on the short road.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import helmet from "helmet";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readInlineScriptHashes } from "../../src/server/http/prerendered-pages";
import { helmetOptions } from "../../src/server/http/security-headers";
import { COMPRESSION_THRESHOLD } from "../../src/server/http/compression";
import { startTestServer, type TestServer } from "../helpers/server";
import { MINUTE, TestClock } from "../helpers/test-clock";
import { createBrowserLikeClient } from "../helpers/trpc-client";

const clock = new TestClock();
let server: TestServer;
/** The headers helmet itself sets with our options (the build's inline scripts allowed), on a bare Express app. */
let helmetHeaders: Record<string, string>;
let signedIn: ReturnType<typeof createBrowserLikeClient>;
let userId: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { clock });
  const reference = express();
  reference.disable("x-powered-by");
  reference.use(helmet(helmetOptions(readInlineScriptHashes(inject("clientDir")))));
  reference.get("/", (_req, res) => {
    res.end();
  });
  const listening = reference.listen(0, "127.0.0.1");
  await new Promise((resolve) => listening.once("listening", resolve));
  const answer = await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/`);
  await new Promise((resolve) => listening.close(resolve));
  helmetHeaders = Object.fromEntries(
    [...answer.headers].filter(([name]) => !["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(name)),
  );

  signedIn = createBrowserLikeClient(server.url);
  const email = `headers.${Date.now()}@example.com`;
  await signedIn.client.auth.signUp.mutate({ email, password: "Correct-Horse1", fullName: "Ana Header" });
  await signedIn.client.auth.signIn.mutate({ email, password: "Correct-Horse1" });
  userId = (await signedIn.client.auth.session.query()).user!.id;
});
afterAll(async () => {
  await server?.stop();
});

/** A raw GET (or POST) that leaves the body as sent: no decompression. */
function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.request(`${server.url}${path}`, { method: options.method ?? "GET", headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

describe("response headers", () => {
  it("are helmet's, with the server's time, on every kind of answer", async () => {
    expect(Object.keys(helmetHeaders)).toContain("content-security-policy");
    // The pre-rendered landing page's two inline scripts by their hash (decision 056), and nothing looser.
    expect(helmetHeaders["content-security-policy"]).toMatch(/script-src 'self' 'sha256-[\w+/]{43}=' 'sha256-[\w+/]{43}=';/);
    expect(helmetHeaders["content-security-policy"]).not.toMatch(/script-src[^;]*unsafe/);
    const cookie = signedIn.jar.header();
    const answers = {
      "a query on the short road": await raw("/trpc/account.profile", { headers: { cookie } }),
      "a refused query on the short road": await raw("/trpc/account.profile"),
      "a batch of queries": await raw("/trpc/system.landingStats,account.profile?batch=1&input=%7B%7D", { headers: { cookie } }),
      "an unknown procedure (tRPC's adapter)": await raw("/trpc/nothing.here"),
      "a mutation": await raw("/trpc/auth.signOut", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
      "a cross-site mutation": await raw("/trpc/auth.signOut", { method: "POST", headers: { origin: "https://evil.example" }, body: "{}" }),
      "the health check": await raw("/healthz"),
      "the app": await raw("/"),
      "a missing file": await raw("/assets/missing-123.js"),
      "a picture route": await raw("/files/renders/nothing/thumb"),
    };
    for (const [name, answer] of Object.entries(answers)) {
      for (const [header, value] of Object.entries(helmetHeaders)) {
        if (header === "content-type") continue;
        expect(answer.headers[header], `${name}: ${header}`).toBe(value);
      }
      expect(answer.headers["x-powered-by"], name).toBeUndefined();
      expect(Number(answer.headers["x-server-time"]), name).toBe(clock.now());
    }
    expect(answers["a query on the short road"].status).toBe(200);
    expect(answers["a refused query on the short road"].status).toBe(401);
    expect(answers["a cross-site mutation"].status).toBe(403);
  });
});

describe("compression of query answers", () => {
  it("compresses a large answer when the client accepts gzip, and sends it as it is otherwise", async () => {
    for (let index = 0; index < 12; index++) await signedIn.client.projects.create.mutate({ name: `Project ${index} ${"x".repeat(80)}` });
    const cookie = signedIn.jar.header();
    const path = `/trpc/projects.list?input=${encodeURIComponent(JSON.stringify({ json: { limit: 20 } }))}`;
    const plain = await raw(path, { headers: { cookie, "accept-encoding": "identity" } });
    const gzipped = await raw(path, { headers: { cookie, "accept-encoding": "gzip" } });
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThanOrEqual(COMPRESSION_THRESHOLD);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers["content-length"]).toBeUndefined();
    expect(zlib.gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    for (const answer of [plain, gzipped]) expect(answer.headers.vary).toBe("trpc-accept, accept, Accept-Encoding");
  });

  it("sends a small answer as it is, saying it varies by Accept-Encoding as the middleware does", async () => {
    const small = await raw("/trpc/account.profile", { headers: { cookie: signedIn.jar.header(), "accept-encoding": "gzip" } });
    expect(small.body.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(Number(small.headers["content-length"])).toBe(small.body.length);
    expect(small.headers.vary).toBe("trpc-accept, accept, Accept-Encoding");
    expect(small.headers["content-type"]).toBe("application/json");
  });
});

describe("sessions on the short road", () => {
  it("a GET query records activity, which moves the idle deadline", async () => {
    const before = (await server.services.sessions.list(userId))[0]!;
    clock.advance(5 * MINUTE);
    const answer = await raw("/trpc/account.profile", { headers: { cookie: signedIn.jar.header() } });
    expect(answer.status).toBe(200);
    const after = (await server.services.sessions.list(userId))[0]!;
    expect(after.lastActiveAt).toBe(clock.now());
    expect(after.expiresAt).toBe(clock.now() + 30 * MINUTE);
    expect(after.expiresAt).toBeGreaterThan(before.expiresAt);
  });
});
