/**
 * Request bodies are capped before they are read (security probe, item 1): a body that says it is
 * too long is answered 413 at once, without waiting for it; a chunked one is cut off at the largest
 * limit; a studio edit may carry its mask, nothing else may carry as much.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT, MAX_BODY_LIMIT, bodyLimitOf } from "../../src/server/http/body-limit";
import { EDIT } from "../../src/shared/edits";
import { MESSAGES } from "../../src/shared/messages";
import { STUDIO_LIMITS } from "../../src/shared/studio-settings";
import { signedInClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

/** Sends only the headers and `sent` bytes of a body that claims `length`, and returns the status as soon as it comes. */
function claimLongBody(path: string, length: number | null, sent: Buffer): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: server.url,
        ...(length === null ? { "transfer-encoding": "chunked" } : { "content-length": String(length) }),
      },
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString(), ms: performance.now() - started });
        request.destroy();
      });
    });
    request.on("error", (error) => (error.message.includes("EPIPE") || error.message.includes("ECONNRESET") ? undefined : reject(error)));
    request.write(sent);
  });
}

describe("request body limits", () => {
  it("gives each procedure its limit: the studio's edit carries a mask, a studio logo its picture, analytics very little, a batch the largest of its calls", () => {
    expect(bodyLimitOf("/render.edit")).toBeGreaterThan(EDIT.maskDataUrlMax);
    expect(bodyLimitOf("/admin.setStudioLogo")).toBe(MAX_BODY_LIMIT);
    expect(bodyLimitOf("/admin.setStudioLogo")).toBeGreaterThan((STUDIO_LIMITS.logoBytesMax * 4) / 3);
    expect(bodyLimitOf("/analytics.track")).toBeLessThan(DEFAULT_BODY_LIMIT);
    expect(bodyLimitOf("/auth.signIn")).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitOf("/analytics.track,render.edit")).toBe(bodyLimitOf("/render.edit"));
  });

  it("answers 413 to a body that says it is 100 MB before reading it, in the user's words", async () => {
    const answer = await claimLongBody("/trpc/analytics.track", 100_000_000, Buffer.from('{"event":'));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.message).toBe(MESSAGES.requestTooLarge);
    expect(answer.ms).toBeLessThan(2_000);
  });

  it("cuts off a chunked body past the largest limit, and the server stays healthy", async () => {
    const big = Buffer.alloc(MAX_BODY_LIMIT + 100_000, "a");
    const answer = await claimLongBody("/trpc/auth.signIn", null, big);
    expect(answer.status).toBe(413);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("refuses 200 KB to an ordinary procedure but lets a studio edit carry a large mask to its own checks", async () => {
    const user = await signedInClient(server.url);
    const padded = JSON.stringify({ email: `${"x".repeat(200_000)}@example.com`, password: "x" });
    const tooBig = await user.jar.fetch(`${server.url}/trpc/auth.signIn`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: padded,
    });
    expect(tooBig.status).toBe(413);
    // 600 KB of mask reaches the edit's own validation (no such picture), not the body limit.
    const mask = `data:image/png;base64,${"A".repeat(600_000)}`;
    const edit = await user.jar.fetch(`${server.url}/trpc/render.edit`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ json: { uploadId: "nonexistent-upload-id", mask, instruction: "x" } }),
    });
    expect(edit.status).toBe(404);
  });
});
