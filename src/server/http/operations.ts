/**
 * The operator's side of HTTP (issue 16, decision 048): a request id on every request (the
 * X-Request-Id of a proxy when it looks like one, else a new one; sent back, and on every log line
 * written while the request is handled), one access-log line and the HTTP metrics per answer,
 * GET /metrics for Prometheus (Bearer METRICS_TOKEN), and GET /readyz.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { Router, type Request, type RequestHandler } from "express";
import type { Services } from "../app-services";
import type { Env } from "../env";
import { withLogContext, type Logger } from "../logger";
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
export function routeLabel(req: Request, path: string, procedures: ReadonlySet<string>): string {
  if (path.startsWith("/trpc/")) {
    const names = path.slice("/trpc/".length).split(",");
    if (!names.every((name) => procedures.has(name))) return "trpc:unknown";
    return names.length === 1 ? `trpc:${names[0]}` : "trpc:batch";
  }
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === "string") return `${req.baseUrl}${pattern}`;
  if (path.startsWith("/assets/")) return "assets";
  return "other";
}

export function requestTracking(metrics: Metrics, procedures: ReadonlySet<string>, log: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get("x-request-id");
    const requestId = given && REQUEST_ID.test(given) ? given : newRequestId();
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    // As it arrived: routers mounted on a prefix (/trpc) shorten req.path while they run.
    const path = req.path;
    // A response finishes once: a plain listener (once() wraps it in another function per request).
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req, path, procedures);
      metrics.recordHttp(req.method, route, res.statusCode, seconds);
      // The path only: query strings can carry tokens (mail links).
      const fields = {
        requestId,
        method: req.method,
        path,
        route,
        status: res.statusCode,
        ms: Math.round(seconds * 10_000) / 10,
      };
      if (QUIET_ROUTES.has(route) && res.statusCode < 400) log.debug("request", fields);
      else log.info("request", fields);
    });
    withLogContext({ requestId }, next);
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
