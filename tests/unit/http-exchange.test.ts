/**
 * What the edge's short road (decision 055) reads without Express must be what Express reads: whether a
 * request came over HTTPS (req.protocol, with the app's trust proxy setting), and a request URL's path
 * (req.path, for the access line and the metrics).
 */
import type { IncomingMessage } from "node:http";
import express, { type Request } from "express";
import { describe, expect, it } from "vitest";
import { requestProtocol } from "../../src/server/http/exchange";
import { pathOf } from "../../src/server/http/operations";

/** A request as Express's getters see it: app's prototype, a socket and headers. */
function expressRequest(app: express.Express, socket: object, headers: Record<string, string>): Request {
  const req = Object.create(app.request) as Request;
  Object.assign(req, { socket, headers });
  return req;
}

describe("requestProtocol", () => {
  const trustSettings: unknown[] = [false, true, 1, 2, "loopback", "10.0.0.0/8", ["127.0.0.1", "10.0.0.1"]];
  const peers = ["127.0.0.1", "10.1.2.3", "203.0.113.9", "::1", undefined];
  const forwarded = [undefined, "https", "http", "https, http", " https ", "HTTPS", "", "wss,https"];
  it("answers as Express's req.protocol for every trust setting, peer, TLS or not, and X-Forwarded-Proto", () => {
    let compared = 0;
    for (const trust of trustSettings) {
      const app = express();
      app.set("trust proxy", trust);
      for (const remoteAddress of peers) {
        for (const encrypted of [false, true]) {
          for (const proto of forwarded) {
            const socket = { remoteAddress, encrypted };
            const headers: Record<string, string> = proto === undefined ? {} : { "x-forwarded-proto": proto };
            const expected = expressRequest(app, socket, headers).protocol;
            const raw = { socket, headers } as unknown as IncomingMessage;
            expect(requestProtocol(raw, app.get("trust proxy fn") as never), JSON.stringify({ trust, socket, headers })).toBe(expected);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(trustSettings.length * peers.length * 2 * forwarded.length);
  });
});

describe("pathOf", () => {
  it.each([
    "/",
    "/trpc/account.profile",
    "/trpc/account.profile?input=%7B%7D",
    "/trpc/a,b?batch=1&input=x?y",
    "/assets/app-123.js",
    "/a%20b/c",
    "/a#fragment?x",
    "/a?b#c",
    "/a\u00a0b",
    "*",
    "http://example.com/abs/path?q=1",
    "//double/slash",
  ])("reads %j as Express's req.path does", (url) => {
    const app = express();
    const req = Object.create(app.request) as Request;
    Object.assign(req, { url });
    expect(pathOf(url)).toBe(req.path);
  });
});
