/**
 * A malformed percent sequence in a path (issue 27, probe finding 1: `GET /trpc/%ff` answered 500 and
 * logged a stack) is the client's mistake: 400 with a clear message, never a 5xx, nothing above the
 * access line in the log. Every mounted route prefix is probed with every method.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/server/logger";
import { MANIFEST_PATH } from "../../src/shared/constants";
import { MESSAGES } from "../../src/shared/messages";
import { UPLOAD_ENDPOINT } from "../../src/shared/render";
import { APP_ROUTES } from "../../src/shared/routes";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
const lines: string[] = [];
beforeAll(async () => {
  const log = createLogger("debug", { destination: { write: (line: string) => void lines.push(line) } });
  // The webhooks are mounted only with their secrets.
  server = await startTestServer({ REPLICATE_WEBHOOK_SECRET: "whsec_dGVzdA==", STRIPE_WEBHOOK_SECRET: "whsec_test" }, { log });
});
afterAll(async () => {
  await server.stop();
});

/** Sends `path` exactly as written (fetch would re-encode it). */
function send(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(server.url, {
      method,
      path,
      headers: { origin: server.url, "content-type": "application/json", ...(body === undefined ? {} : { "content-length": body.length }) },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const MALFORMED = ["%ff", "%E0%A4%A", "%", "a%zz"];
const METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH"];

describe("malformed percent sequences in paths", () => {
  it("answer /trpc (single calls, batches, every method) with 400 in tRPC's error shape, and log no error", async () => {
    for (const method of METHODS) {
      for (const bad of MALFORMED) {
        for (const path of [
          `/trpc/${bad}`,
          `/trpc/auth.session,${bad}`,
          `/trpc/a,${bad}?batch=1&input=%7B%7D`,
          `/trpc/auth.session${bad}`,
        ]) {
          const answer = await send(method, path, method === "GET" || method === "HEAD" ? undefined : "{}");
          expect(answer.status, `${method} ${path}`).toBe(400);
          if (method === "HEAD") continue;
          expect(JSON.parse(answer.body), `${method} ${path}`).toEqual({
            error: { message: MESSAGES.malformedAddress, code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } },
          });
        }
      }
    }
    const levels = lines.map((line) => (JSON.parse(line) as { level: string }).level);
    expect(levels.filter((level) => level === "error" || level === "fatal")).toEqual([]);
    expect(lines.join("")).not.toContain("URIError");
  });

  it("never answer 5xx on any mounted route prefix, the app's pages or the static files", async () => {
    const prefixes = [
      "/trpc",
      "/healthz",
      "/readyz",
      "/metrics",
      "/auth/confirm",
      "/auth/google",
      "/auth/google/callback",
      "/studio/logo",
      MANIFEST_PATH,
      UPLOAD_ENDPOINT,
      "/api",
      "/render/events",
      "/files/uploads/x",
      "/files/renders/x",
      "/files/renders/x/download",
      "/files/shared/x",
      "/files/gallery/x",
      "/files/examples/x",
      "/files/listing/x",
      "/files/listing/projects/x/zip",
      "/l",
      "/l/x",
      "/files/published/x",
      "/embed",
      "/embed/x",
      "/s",
      "/webhooks/stripe",
      "/webhooks/replicate",
      "/assets",
      "/favicon.ico",
      ...APP_ROUTES.map((route) => route.path),
    ];
    const failures: string[] = [];
    // Every method was tried on /trpc above; here the ones routes are mounted for, and two kinds of bad sequence.
    for (const prefix of prefixes) {
      const base = prefix === "/" ? "" : prefix;
      for (const bad of MALFORMED.slice(0, 2)) {
        for (const path of [`${base}/${bad}`, `${base}${bad}`, `${base}/${bad}/x?q=${bad}`]) {
          for (const method of ["GET", "POST", "HEAD"]) {
            const answer = await send(method, path, method === "POST" || method === "PUT" ? "{}" : undefined);
            if (answer.status >= 500) failures.push(`${method} ${path}: ${answer.status}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(lines.some((line) => line.includes('"level":"error"'))).toBe(false);
    // A path parameter that cannot be decoded says so too.
    const listing = await send("GET", "/l/%ff");
    expect(listing.status).toBe(400);
    expect(JSON.parse(listing.body)).toEqual({ error: MESSAGES.malformedAddress });
  });
});
