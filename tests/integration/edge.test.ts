/**
 * The edge (src/server/http/edge.ts, decision 055) answers GET queries on Node's own request and response,
 * without Express. The app's /trpc mount still answers the GETs the edge leaves to Express (another spelling
 * of the prefix, for one), with the same road on Express's objects: the two must put the same status, the same
 * headers in the same order and spelling, and the same body on the wire (only the request id and Date differ),
 * whether the query needs Express's request (the address), clears a stale cookie, compresses, or fails.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import superjson from "superjson";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";
import { signedInClient } from "../helpers/render";

const clock = new TestClock();
let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000", TRUST_PROXY: "1" }, { clock });
  const user = await signedInClient(server.url);
  for (let index = 0; index < 12; index++) await user.client.projects.create.mutate({ name: `Project ${index} ${"x".repeat(80)}` });
  cookie = user.jar.header();
});
afterAll(async () => {
  await server?.stop();
});

interface RawAnswer {
  status: number;
  /** Header names and values in the order they were sent; the request id and the date blanked. */
  headers: string[];
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const raw = response.rawHeaders.map((value, index) =>
          index % 2 === 1 && /^(x-request-id|date)$/i.test(response.rawHeaders[index - 1]!) ? "…" : value,
        );
        resolve({ status: response.statusCode!, headers: raw, body: Buffer.concat(chunks) });
      });
    });
    request.on("error", reject);
  });
}

/** The same request to the edge's road (/trpc/…) and to the app's mount (/TRPC/…, which the edge leaves to Express). */
async function bothRoads(path: string, headers: Record<string, string> = {}) {
  const edge = await get(`/trpc/${path}`, headers);
  const express = await get(`/TRPC/${path}`, headers);
  return { edge, express };
}

const input = (value: unknown) => encodeURIComponent(JSON.stringify(superjson.serialize(value)));

describe("the edge's short road", () => {
  it.each([
    ["a signed-in query", "account.profile", () => ({ cookie })],
    ["a refused query (signed out)", "account.profile", () => ({})],
    ["a stale session cookie, which is cleared", "account.profile", () => ({ cookie: "session=nosuch.session" })],
    [
      "a query that reads the address (Express's req.ip behind a trusted proxy)",
      "render.allowance",
      () => ({ "x-forwarded-for": "203.0.113.9" }),
    ],
    ["a batch", `account.profile,system.landingStats?batch=1&input=${encodeURIComponent("{}")}`, () => ({ cookie })],
    ["a large answer, compressed", `projects.list?input=${input({ limit: 20 })}`, () => ({ cookie, "accept-encoding": "gzip" })],
    ["a large answer, not compressed", `projects.list?input=${input({ limit: 20 })}`, () => ({ cookie, "accept-encoding": "identity" })],
    ["a validation error", `projects.get?input=${input({ id: "" })}`, () => ({ cookie })],
  ])("answers %s byte for byte as the app's /trpc mount does", async (_, path, headers) => {
    const { edge, express } = await bothRoads(path, headers());
    expect(edge.status).toBeLessThan(500);
    expect(edge).toEqual(express);
  });

  it("reads the session cookie a proxy's X-Forwarded-Proto: https calls for (__Host-session), as Express's req.secure does", async () => {
    const [name, token] = cookie.split("=") as [string, string];
    expect(name).toBe("session");
    const secure = await bothRoads("account.profile", { cookie: `__Host-session=${token}`, "x-forwarded-proto": "https" });
    expect(secure.edge.status).toBe(200);
    expect(secure.edge).toEqual(secure.express);
    const plain = await bothRoads("account.profile", { cookie: `__Host-session=${token}` });
    expect(plain.edge.status).toBe(401);
    expect(plain.edge).toEqual(plain.express);
  });

  it("leaves to the app what is not a plain GET query, which then answers as before", async () => {
    const tooMany = await get(`/trpc/${Array(26).fill("system.landingStats").join(",")}?batch=1`);
    expect(tooMany.status).toBe(413);
    const mutation = await get(`/trpc/projects.create?input=${input({ name: "No" })}`, { cookie });
    expect(mutation.status).toBe(405);
  });

  it("hands a failure to the app's error handler, with the headers every answer carries", async () => {
    const sessions = server.services.sessions;
    const validate = sessions.validate;
    sessions.validate = () => Promise.reject(new Error("the database is gone"));
    try {
      const { edge, express } = await bothRoads("account.profile", { cookie });
      expect(edge.status).toBe(500);
      expect(JSON.parse(edge.body.toString())).toEqual({ error: "Internal error" });
      expect(edge).toEqual(express);
      expect(edge.headers).toContain("Content-Security-Policy");
    } finally {
      sessions.validate = validate;
    }
  });
});
