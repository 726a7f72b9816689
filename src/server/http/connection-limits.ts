/**
 * What one client may hold of the HTTP server (issue 27, probe finding 11: 50 clients sending a body at
 * one byte a second and 50 sending their headers slowly all stayed connected for minutes; decision 063):
 *
 * - its headers within `headersTimeoutMs` (Node's headersTimeout; answered 408 and closed);
 * - a body at no less than `bodyMinBytesPerSecond`, measured over each window of `headersTimeoutMs`: a
 *   flat timeout short enough for a dribbler would cut a phone's honest 10 MB upload on a slow link
 *   (200 s at 50 KB/s), a rate does not. Node's requestTimeout stays as the outer bound, sized for the
 *   largest body the server takes at that minimum rate;
 * - at most `maxConnectionsPerAddress` connections at once from one address (more are answered 429 and
 *   closed at once), except from a trusted proxy (TRUST_PROXY), whose connections carry many clients.
 */
import type http from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";
import express from "express";
import { UPLOAD } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import type { Env } from "../env";
import type { Logger } from "../logger";
import { MAX_BODY_LIMIT } from "./body-limit";

export interface ConnectionLimits {
  headersTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  keepAliveTimeoutMs: number;
  maxConnectionsPerAddress: number;
  /** True for the address of a trusted reverse proxy (not capped). */
  isTrustedProxy(address: string): boolean;
}

/** Idle keep-alive connections close after this (Node's default, said here). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** The limits the environment sets; the proxies it trusts are Express's own reading of TRUST_PROXY. */
export function connectionLimitsOf(
  env: Pick<Env, "TRUST_PROXY" | "HTTP_HEADERS_TIMEOUT_MS" | "HTTP_BODY_MIN_BYTES_PER_SECOND" | "HTTP_MAX_CONNECTIONS_PER_ADDRESS">,
): ConnectionLimits {
  const trust = express().set("trust proxy", env.TRUST_PROXY).get("trust proxy fn") as (address: string, hop: number) => boolean;
  return {
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    bodyMinBytesPerSecond: env.HTTP_BODY_MIN_BYTES_PER_SECOND,
    keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerAddress: env.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    // The peer of a connection is hop 0 of X-Forwarded-For's chain.
    isTrustedProxy: (address) => trust(address, 0),
  };
}

/** The largest body any route takes: an upload. */
const LARGEST_BODY_BYTES = Math.max(UPLOAD.maxBytes, MAX_BODY_LIMIT);

/** Options for http.createServer. */
export function serverOptions(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // The outer bound: the largest body at the minimum rate (the rate rule cuts a slower body long before).
    requestTimeout: limits.headersTimeoutMs + Math.ceil((LARGEST_BODY_BYTES / limits.bodyMinBytesPerSecond) * 1000),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node checks the two timeouts above (by default every 30 s, which would let a slow client stay 30 s longer).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 10))),
  };
}

/** "::ffff:10.0.0.1" and "10.0.0.1" are one client. */
const addressOf = (socket: Socket) => socket.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");

const TOO_MANY = JSON.stringify({ error: MESSAGES.tooManyRequests });
const REFUSAL = `HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(TOO_MANY)}\r\n\r\n${TOO_MANY}`;

/** Caps the connections one address holds at once. */
export function capConnectionsPerAddress(server: http.Server, limits: ConnectionLimits, log: Pick<Logger, "warn">): void {
  const open = new Map<string, number>();
  // Addresses told of in the log since they reached their cap (said once, not per refused connection).
  const warned = new Set<string>();
  // Before Node's own listener, so that a refused connection never reaches the HTTP parser's request handler.
  server.prependListener("connection", (socket: Socket) => {
    const address = addressOf(socket);
    if (address === undefined) {
      socket.destroy();
      return;
    }
    if (limits.isTrustedProxy(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      if (!warned.has(address)) {
        warned.add(address);
        log.warn("too many connections from one address: refusing more until some close", {
          address,
          cap: limits.maxConnectionsPerAddress,
        });
      }
      socket.end(REFUSAL);
      socket.destroySoon();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = open.get(address)! - 1;
      if (left > 0) open.set(address, left);
      else {
        open.delete(address);
        warned.delete(address);
      }
    });
  });
}

/**
 * Watches a request's body: in each window of `headersTimeoutMs` the client must send at least
 * `bodyMinBytesPerSecond` × the window, or finish; otherwise it is answered 408 and its connection closed.
 * Bytes waiting unread in the request (the app not reading yet) are the server's delay, not the client's.
 */
export function watchBodyRate(req: http.IncomingMessage, res: http.ServerResponse, limits: ConnectionLimits, log: Pick<Logger, "warn">) {
  const socket = req.socket;
  const windowMs = limits.headersTimeoutMs;
  const minimum = (limits.bodyMinBytesPerSecond * windowMs) / 1000;
  let read = socket.bytesRead;
  let due = performance.now() + windowMs;
  const check = () => {
    // Also after an early answer (a refusal before the body was read): the rest of the body still holds the connection.
    if (req.complete || socket.destroyed) return;
    const now = performance.now();
    // A check that comes late means this process was busy (its own event loop held the bytes back): measure again.
    const onTime = now - due < windowMs / 2;
    const received = socket.bytesRead - read;
    if (onTime && received < minimum && req.readableLength === 0) {
      log.warn("request body arriving too slowly: connection closed", {
        method: req.method,
        address: addressOf(socket),
        bytesPerSecond: Math.round((received * 1000) / windowMs),
        minimum: limits.bodyMinBytesPerSecond,
      });
      if (res.headersSent) socket.destroy();
      else {
        const body = JSON.stringify({ error: MESSAGES.requestTooSlow });
        res.writeHead(408, { connection: "close", "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body, () => socket.destroy());
      }
      return;
    }
    read = socket.bytesRead;
    due = now + windowMs;
    timer = setTimeout(check, windowMs);
  };
  let timer = setTimeout(check, windowMs);
  req.once("close", () => clearTimeout(timer));
}

/** True when a request says it carries a body. */
export function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return (length !== undefined && length !== "0") || req.headers["transfer-encoding"] !== undefined;
}
