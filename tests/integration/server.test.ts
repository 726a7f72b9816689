import { databaseLane } from "../helpers/test-env";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server";
import { createHttpClient } from "../helpers/trpc-client";
import { brandPage } from "../../src/server/http/studio-pages";
import { DEFAULT_PUBLIC_STUDIO } from "../../src/shared/studio";

let server: TestServer;

beforeAll(async () => {
  // A fresh DATA_DIR without a database: boot must create and migrate it.
  server = await startTestServer({}, { fresh: true });
});
afterAll(async () => {
  await server?.stop();
});

describe("server", () => {
  it("creates the database under DATA_DIR and migrates it at boot", () => {
    // In the PostgreSQL lane the database is DATABASE_URL's, and no file is made.
    expect(fs.existsSync(server.deps.env.DATABASE_FILE)).toBe(databaseLane() === "sqlite");
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers /healthz after a real database query", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ ok: true, db: "ok", version: server.deps.version });
  });

  it("answers a tRPC query over HTTP", async () => {
    const client = createHttpClient(server.url);
    const info = await client.system.info.query();
    expect(info).toMatchObject({ productName: "RoomCanvas", version: server.deps.version, databaseOk: true });
    expect(await client.auth.session.query()).toEqual({ user: null, session: null });
  });

  it("returns a tRPC error, not a 500, for a procedure that does not exist", async () => {
    const response = await fetch(`${server.url}/trpc/system.doesNotExist`);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { json: { data: { code: string }; message: string } } };
    expect(body.error.json.data.code).toBe("NOT_FOUND");
  });

  it("serves the app for client routes (200) and for unknown paths (404, the app's own 404 page)", async () => {
    // The build's page with the studio's brand filled in (the shipped one here: no settings saved).
    const index = brandPage(fs.readFileSync(path.join(inject("clientDir"), "index.html"), "utf8"), DEFAULT_PUBLIC_STUDIO);
    for (const route of ["/pricing", "/dashboard", "/auth?reset=true", "/upload/"]) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status, route).toBe(200);
      expect(await response.text()).toBe(index);
    }
    // The landing page comes pre-rendered (tests/integration/landing-prerender.test.ts).
    const landing = await fetch(`${server.url}/`);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('data-prerendered="en"');
    const unknown = await fetch(`${server.url}/nope/deeper`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/text\/html/);
    expect(await unknown.text()).toBe(index);
  });

  it("caches hashed assets for a year and index.html never", async () => {
    // The app's shell (the pre-rendered / names its entry for boot.js instead).
    const html = await (await fetch(`${server.url}/features`)).text();
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await fetch(`${server.url}/`)).headers.get("cache-control")).toBe("no-cache");
    expect((await fetch(`${server.url}/theme-init.js`)).headers.get("cache-control")).toBe("no-cache");
  });

  it("answers a missing asset with 404, not with the app", async () => {
    const response = await fetch(`${server.url}/assets/missing-abc123.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/json/);
  });

  it("sends security headers with a CSP the built app satisfies (inline scripts only by their hash)", async () => {
    const response = await fetch(`${server.url}/`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const directives = new Map(
      csp.split(";").map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );
    // 'self' and the SHA-256 of the pre-rendered page's theme and boot scripts (decision 056); never 'unsafe-inline'.
    const scriptSources = directives.get("script-src")!.split(" ");
    expect(scriptSources[0]).toBe("'self'");
    expect(scriptSources.slice(1)).toHaveLength(2);
    for (const source of scriptSources.slice(1)) expect(source).toMatch(/^'sha256-[\w+/]{43}='$/);
    expect(directives.get("default-src")).toBe("'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-powered-by")).toBeNull();
    const html = await response.text();
    for (const [, attributes, body] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      // The studio's settings travel as a JSON data block, which is never run.
      if (attributes!.includes('type="application/json"')) continue;
      expect(scriptSources).toContain(`'sha256-${crypto.createHash("sha256").update(body!).digest("base64")}'`);
    }
    // The app's other pages keep their scripts in files.
    const shell = await (await fetch(`${server.url}/features`)).text();
    for (const [, attributes, body] of shell.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (attributes!.includes('type="application/json"')) continue;
      expect(attributes).toMatch(/src="\//);
      expect(body!.trim()).toBe("");
    }
  });

  it("compresses responses", async () => {
    const html = await fetch(`${server.url}/features`);
    const asset = (await html.text()).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    const response = await fetch(`${server.url}${asset}`, { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
});
