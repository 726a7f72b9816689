/**
 * The server's first step for every request (decision 055): its id, access line and metrics (decision
 * 048), helmet's headers and the server's time (046), then either the short road for GET queries under
 * /trpc/ (trpc/fast-queries.ts) or the Express app for everything else, in the request's log context.
 *
 * The short road runs on Node's own request and response. Express, before its first middleware, gives
 * both its prototypes; V8 then gives each request and response a map of its own and every property read
 * on them misses its inline cache, in Express, in Node's HTTP code and in ours (http/exchange.ts). A GET
 * query needs nothing Express adds: its context gets Express's request only if a procedure asks for the
 * address, the language or a cookie. A failure on the short road is answered by the app's error handler,
 * as when the road was an Express middleware.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { SERVER_TIME_HEADER, TRPC_MAX_BATCH_CALLS } from "../../shared/constants";
import { withRequestId } from "../logger";
import type { FastQueries } from "../trpc/fast-queries";
import type { SecurityHeaders } from "./security-headers";

/** Where tRPC is mounted, with the slash that starts a procedure's name. */
const TRPC_PREFIX = "/trpc/";

/** URLs that Express's parser (parseurl) would not read as path?query: left to Express. */
const NOT_PLAIN = /[\t\n\f\r #\u00a0\ufeff]/;

export interface EdgeOptions {
  /** Starts the request's tracking; its id (http/operations.ts requestTracking). */
  track(req: IncomingMessage, res: ServerResponse): string;
  security: SecurityHeaders;
  /** The server's clock, in milliseconds (X-Server-Time). */
  now(): number;
  /** The short road: false when the request is not one for it. */
  queries: FastQueries["take"];
  /** Answers a failure of the short road (the app's error handler). */
  fail(error: unknown, req: IncomingMessage, res: ServerResponse): void;
  /** Everything else: the Express app. */
  app(req: IncomingMessage, res: ServerResponse): void;
}

/** How many calls a path names ("a,b,c": 3). */
function callsIn(procedures: string): number {
  let calls = 1;
  for (let at = procedures.indexOf(","); at !== -1; at = procedures.indexOf(",", at + 1)) calls++;
  return calls;
}

export function createEdge(options: EdgeOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { security, fail } = options;

  /**
   * A GET under /trpc/ with a plain URL, no body and no more calls than a batch may hold goes to the short
   * road; everything else, and what the road declines, to the app, whose /trpc mount answers the odd ones
   * as before (413 for too many calls or too long a body, other spellings of the prefix).
   */
  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url!;
    const headers = req.headers;
    if (
      req.method === "GET" &&
      url.startsWith(TRPC_PREFIX) &&
      headers["content-length"] === undefined &&
      headers["transfer-encoding"] === undefined &&
      !NOT_PLAIN.test(url)
    ) {
      const query = url.indexOf("?");
      const procedures = query === -1 ? url.slice(TRPC_PREFIX.length) : url.slice(TRPC_PREFIX.length, query);
      const search = query === -1 ? "" : url.slice(query + 1);
      try {
        if (callsIn(procedures) <= TRPC_MAX_BATCH_CALLS && options.queries(req, res, procedures, search, fail)) return;
      } catch (error) {
        // Express catches what its middleware throws; a throw here would otherwise reach Node's request event.
        fail(error, req, res);
        return;
      }
    }
    options.app(req, res);
  }

  return (req, res) => {
    const requestId = options.track(req, res);
    // Security headers and the server's time on every response (decision 046). The server's time tells the
    // client's idle timer the server's clock in milliseconds (it measures session deadlines with it); from
    // the injected clock, like every deadline the server hands out.
    security.apply(res);
    res.setHeader(SERVER_TIME_HEADER, String(options.now()));
    withRequestId(requestId, route, req, res);
  };
}
