/**
 * The operator's side of HTTP (issue 16, decision 048): a request id on every request (the
 * X-Request-Id of a proxy when it looks like one, else a new one; sent back, and on every log line
 * written while the request is handled), one access-log line and the HTTP metrics per answer,
 * GET /metrics for Prometheus (Bearer METRICS_TOKEN), and GET /readyz.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseUrl } from "node:url";
import { Router, type Request } from "express";
import type { Services } from "../app-services";
import type { Env } from "../env";
import type { Logger } from "../logger";
import type { Metrics } from "../metrics";

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/** Random bytes per request id (12 base64url characters). */
const ID_BYTES = 9;
/**
 * Request ids are cut from a pool of random bytes refilled 512 ids at a time: one randomBytes call per
 * request cost several µs (a system call into the CSPRNG), a tenth of the whole tracking (decision 046).
 */
const ID_POOL_BYTES = ID_BYTES * 512;
let idPool = Buffer.alloc(0);
let idOffset = 0;

/** 12 random characters (base64url). */
export function newRequestId(): string {
  if (idOffset + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idOffset = 0;
  }
  const id = idPool.toString("base64url", idOffset, idOffset + ID_BYTES);
  idOffset += ID_BYTES;
  return id;
}
/** Answers too frequent or too dull for the info log (they still count in the metrics). */
const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics", "assets"]);

/**
 * A label of bounded cardinality for a request: the tRPC procedure (known names only), the
 * Express route pattern, "assets", or "other" (pages of the app, unknown paths).
 */
export function routeLabel(req: IncomingMessage, path: string, procedures: ReadonlySet<string>): string {
  if (path.startsWith("/trpc/")) {
    const names = path.slice("/trpc/".length).split(",");
    if (!names.every((name) => procedures.has(name))) return "trpc:unknown";
    return names.length === 1 ? `trpc:${names[0]}` : "trpc:batch";
  }
  // Express sets these while it routes (never on the edge's short road: decision 055).
  const { route, baseUrl } = req as Partial<Pick<Request, "route" | "baseUrl">>;
  const pattern = (route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === "string") return `${baseUrl}${pattern}`;
  if (path.startsWith("/assets/")) return "assets";
  return "other";
}

/** Characters after which parseurl (Express's req.path) leaves a URL to Node's url.parse. */
const NOT_PLAIN = /[\t\n\f\r #\u00a0\ufeff]/;

/** A request URL's path as Express's `req.path` reads it (parseurl: up to the query, or Node's url.parse for anything else). */
export function pathOf(url: string): string {
  if (url.charCodeAt(0) !== 0x2f || NOT_PLAIN.test(url)) return parseUrl(url).pathname ?? "";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** tRPC procedure labels by path: bounded by the procedures and the batches clients send (unknown names are not kept). */
const TRPC_LABELS_KEPT = 1000;

/**
 * A client's review link carries its secret in the path (/review/<token>, and its pictures under
 * /files/review/<token>/...): the access log keeps such paths without it, as it keeps no query string.
 */
const SECRET_IN_PATH = /^(\/(?:files\/)?review\/)[^/]+/;

export function loggedPath(path: string): string {
  return path.replace(SECRET_IN_PATH, "$1[token]");
}

/**
 * Starts the tracking of a request (Node's own or Express's): its id, sent back as X-Request-Id and
 * returned, for the caller to run the request in that log context; at the end, one access-log line and
 * the HTTP metrics.
 */
export function requestTracking(
  metrics: Metrics,
  procedures: ReadonlySet<string>,
  log: Logger,
): (req: IncomingMessage, res: ServerResponse) => string {
  const trpcLabels = new Map<string, string>();
  const labelOf = (req: IncomingMessage, path: string): string => {
    const known = trpcLabels.get(path);
    if (known !== undefined) return known;
    const label = routeLabel(req, path, procedures);
    if (label.startsWith("trpc:") && label !== "trpc:unknown" && trpcLabels.size < TRPC_LABELS_KEPT) trpcLabels.set(path, label);
    return label;
  };
  return (req, res) => {
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : newRequestId();
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    // As it arrived: routers mounted on a prefix (/trpc) shorten req.url while they run.
    const path = pathOf(req.url ?? "/");
    // A response finishes once: a plain listener (once() wraps it in another function per request).
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = labelOf(req, path);
      metrics.recordHttp(req.method ?? "", route, res.statusCode, seconds);
      // The path only: query strings can carry tokens (mail links).
      const fields = {
        requestId,
        method: req.method,
        path: loggedPath(path),
        route,
        status: res.statusCode,
        ms: Math.round(seconds * 10_000) / 10,
      };
      if (QUIET_ROUTES.has(route) && res.statusCode < 400) log.debug("request", fields);
      else log.info("request", fields);
    });
    return requestId;
  };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function operationsRoutes(env: Pick<Env, "METRICS_TOKEN">, services: Pick<Services, "system" | "metrics">): Router {
  const routes = Router();
  routes.get("/metrics", async (req, res) => {
    res.set("Cache-Control", "no-store");
    if (!env.METRICS_TOKEN) {
      res.status(404).json({ error: "Metrics are off on this server: set METRICS_TOKEN to turn them on." });
      return;
    }
    const given = /^Bearer\s+(\S+)$/i.exec(req.get("authorization") ?? "")?.[1];
    if (!given || !sameSecret(given, env.METRICS_TOKEN)) {
      res.set("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).json({ error: "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>." });
      return;
    }
    res.set("Content-Type", services.metrics.contentType);
    res.send(await services.metrics.text());
  });
  routes.get("/readyz", async (_req, res) => {
    const report = await services.system.readiness();
    res.set("Cache-Control", "no-store");
    res.status(report.ok ? 200 : 503).json(report);
  });
  return routes;
}
