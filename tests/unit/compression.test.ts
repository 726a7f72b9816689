/**
 * endCompressible (src/server/http/compression.ts, decision 046) says what the compression middleware
 * would say about a body too small to compress: Vary gains Accept-Encoding once, unless it is "*", the
 * response may not be transformed, or its type is not compressible (events). Large bodies go through the
 * middleware itself (tests/integration/response-headers.test.ts).
 */
import http from "node:http";
import net from "node:net";
import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { endCompressible } from "../../src/server/http/compression";

function exchange(headers: Record<string, string>) {
  const req = new http.IncomingMessage(new net.Socket());
  req.method = "GET";
  req.headers = { "accept-encoding": "gzip" };
  const res = new http.ServerResponse(req);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  return { req: req as Request, res: res as unknown as Response };
}

describe("endCompressible, small bodies", () => {
  it.each([
    [{ "content-type": "application/json" }, "Accept-Encoding"],
    [{ "content-type": "application/json", vary: "trpc-accept, accept" }, "trpc-accept, accept, Accept-Encoding"],
    [{ "content-type": "application/json", vary: "accept, accept-encoding" }, "accept, accept-encoding"],
    [{ "content-type": "application/json", vary: "*" }, "*"],
    [{ "content-type": "application/json", vary: "X-Accept-Encoding-Like" }, "X-Accept-Encoding-Like, Accept-Encoding"],
    [{ "content-type": "application/json", "cache-control": "no-store, no-transform" }, undefined],
    [{ "content-type": "text/event-stream" }, undefined],
    [{ "content-type": "image/jpeg" }, undefined],
  ])("with %j, Vary is %j", (headers, vary) => {
    const { req, res } = exchange(headers);
    endCompressible(req, res, '{"result":{"data":{"json":1}}}');
    expect(res.getHeader("vary")).toBe(vary);
    expect(res.getHeader("content-length")).toBe(30);
    expect(res.getHeader("content-encoding")).toBeUndefined();
  });
});
