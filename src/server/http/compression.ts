/**
 * Response compression: the `compression` middleware for everything the app sends, and, for answers
 * whose body is known before the headers go out (tRPC queries, decision 046), `endCompressible`, which
 * treats them exactly as the middleware would without wrapping every response: the middleware
 * replaces res.write/res.end/res.on and hooks writeHead on each request, about a tenth of a small
 * query's time, to find out at the end that a body under its threshold is sent as it is.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, Response } from "express";
import compression from "compression";

/** Bodies smaller than this are sent uncompressed (the middleware's default, made explicit). */
export const COMPRESSION_THRESHOLD = 1024;

/** Server-sent events must reach the browser as they happen, not when a compressed block fills. */
function shouldCompress(req: IncomingMessage, res: ServerResponse): boolean {
  // The middleware's filter reads the response's Content-Type only: Node's objects do (decision 055).
  return (
    !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req as Request, res as Response)
  );
}

export const compress = compression({ filter: shouldCompress, threshold: COMPRESSION_THRESHOLD });

/** `Cache-Control: no-transform` forbids compressing (the middleware's own test). */
function mayTransform(res: ServerResponse): boolean {
  const cacheControl = res.getHeader("Cache-Control");
  return typeof cacheControl !== "string" || !/(?:^|,)\s*?no-transform\s*?(?:,|$)/.test(cacheControl);
}

/** Vary lists Accept-Encoding already (a whole field of the list, any case). */
const VARIES_BY_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/** Adds Accept-Encoding to Vary unless it is there (or Vary is *), as the middleware's `vary` does. */
function varyOnEncoding(res: ServerResponse): void {
  const current = res.getHeader("Vary");
  const value = Array.isArray(current) ? current.join(", ") : current === undefined ? "" : String(current);
  if (value.trim() === "*" || VARIES_BY_ENCODING.test(value)) return;
  res.setHeader("Vary", value.trim() ? `${value}, Accept-Encoding` : "Accept-Encoding");
}

/**
 * Ends the response with `body` (Content-Type already set) as `compress` would: a body at or over the
 * threshold goes through the middleware; a smaller one is sent as it is, with the Vary the middleware adds.
 * A string, not a Buffer: Node then sends the head and the body in one write. The middleware, made for
 * Node's objects as much as for Express's, takes either (the edge's short road hands Node's: decision 055).
 */
export function endCompressible(req: IncomingMessage, res: ServerResponse, body: string): void {
  const length = Buffer.byteLength(body);
  res.setHeader("Content-Length", length);
  if (length >= COMPRESSION_THRESHOLD) {
    compress(req as Request, res as Response, () => res.end(body));
    return;
  }
  if (shouldCompress(req, res) && mayTransform(res)) varyOnEncoding(res);
  res.end(body);
}
