/**
 * The application: the edge (request id, access line and metrics, security headers, GET queries on the
 * short road: decision 055) in front of the Express app: compression, /healthz, /trpc, the built client
 * with immutable hashed assets, and the SPA for every client route (404 status for unknown paths).
 */
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express, { type ErrorRequestHandler } from "express";
import type { TRPCError } from "@trpc/server";
import * as trpcExpress from "@trpc/server/adapters/express";
import { MESSAGES } from "../shared/messages";
import { isAppPath } from "../shared/routes";
import type { Services } from "./app-services";
import { DomainError } from "./errors";
import { compress, endCompressible } from "./http/compression";
import { csrfProtection } from "./http/csrf";
import { createEdge } from "./http/edge";
import { asExpress, nodeExchange } from "./http/exchange";
import { googleRoutes } from "./http/google-routes";
import { operationsRoutes, requestTracking } from "./http/operations";
import { identifyRequest } from "./http/identity";
import { pageLanguage, readInlineScriptHashes, readPrerenderedLanding } from "./http/prerendered-pages";
import { helmetOptions, securityHeaders } from "./http/security-headers";
import { shareRoutes } from "./http/share-routes";
import { withPageHead } from "./http/social-tags";
import { brandedPages, studioRoutes } from "./http/studio-pages";
import { stripeWebhookRoutes } from "./http/stripe-webhook";
import { uploadRoutes } from "./http/upload-route";
import { marketplacePictureRoutes } from "./http/marketplace-pictures-route";
import { stylePackRoutes } from "./http/style-pack-route";
import { styleReferenceRoutes } from "./http/style-reference-route";
import type { Infra } from "./infra";
import { MAX_BODY_LIMIT, trpcBodyLimit } from "./http/body-limit";
import { contextOf, createContext } from "./trpc/context";
import { fastQueries } from "./trpc/fast-queries";
import { appRouter } from "./trpc/root";

export const DEFAULT_CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/client");

export interface AppOptions {
  /** Directory of the Vite build (index.html and assets/). Not served when it does not exist. */
  clientDir?: string;
}

/** The server's request listener: the edge, with the Express app behind it. */
export type AppHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createApp(
  deps: Pick<Infra, "env" | "log" | "clock" | "version">,
  services: Services,
  options: AppOptions = {},
): AppHandler {
  const clientDir = options.clientDir ?? DEFAULT_CLIENT_DIR;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.env.TRUST_PROXY);

  // tRPC queries over GET first (decision 046): they need nothing of what follows (CSRF passes GET; the
  // fan-out answers subscriptions only), and they compress their own answer once its size is known. They
  // take a shorter road than tRPC's Fetch-based adapter (decision 044), on Node's own request and response
  // from the edge (decision 055); whatever they do not take goes on. Mounted here too, for the GETs the edge
  // leaves to Express (another spelling of /trpc, a body, too many calls: 413 first).
  const onTRPCError = ({ error, path: procedure }: { error: TRPCError; path: string | undefined }) => {
    if (error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof DomainError)) {
      deps.log.error("tRPC procedure failed", { procedure, error: error.cause ?? error });
    }
  };
  const queries = fastQueries({
    router: appRouter,
    createContext: (req, res) => contextOf(services, deps.env, nodeExchange(app, req, res)),
    onError: onTRPCError,
    send: endCompressible,
  });
  app.use("/trpc", (req, res, next) => (req.method === "GET" ? trpcBodyLimit(req, res, () => queries(req, res, next)) : next()));

  app.use(compress);

  app.get("/healthz", async (_req, res) => {
    const database = await services.system.health();
    res.set("Cache-Control", "no-store");
    res.status(database.ok ? 200 : 503).json({ ok: database.ok, db: database.ok ? "ok" : "error", version: deps.version });
  });
  app.use(operationsRoutes(deps.env, services));
  app.use(studioRoutes(services.settings));
  // Share pages and embeds: public, before anything that reads or sets a cookie (decision 106).
  app.use(shareRoutes({ env: deps.env, community: services.community, studio: services.settings }));

  // The public REST API before the CSRF check: it takes a bearer key, never a cookie (decision 094).
  app.use(services.api.routes());

  app.use(csrfProtection(deps.env));

  // The link of the sign-up mail: confirms the address, then lands on the landing page (spec section 2).
  app.get("/auth/confirm", async (req, res) => {
    const token = typeof req.query.token === "string" ? req.query.token : "";
    const outcome = await services.accounts.confirmEmail(token);
    res.set("Cache-Control", "no-store");
    // A link opened again after it worked says so ("already"), not that confirming failed.
    res.redirect(303, `/?emailConfirmed=${{ confirmed: "1", "already-confirmed": "already", failed: "0" }[outcome]}`);
  });

  // The rest of the API next: each router passed on the way costs every call a little.
  const identity = { sessions: services.sessions, env: deps.env };
  const ownerOfRequest = async (req: express.Request, res: express.Response) => (await identifyRequest(identity, req, res)).owner;
  // Live render events first: the shared fan-out (decision 043) answers render.events before tRPC would.
  app.use(services.render.eventRoutes(ownerOfRequest));
  app.use(
    "/trpc",
    trpcBodyLimit,
    trpcExpress.createExpressMiddleware({
      router: appRouter,
      maxBodySize: MAX_BODY_LIMIT,
      createContext: ({ req, res }) => createContext(services, deps.env, req, res),
      onError: onTRPCError,
    }),
  );

  app.use(googleRoutes({ env: deps.env, log: deps.log, accounts: services.accounts }));
  app.use(uploadRoutes({ ...identity, render: services.render, rateLimits: services.rateLimits }));
  app.use(styleReferenceRoutes({ ...identity, styles: services.styles, rateLimits: services.rateLimits }));
  app.use(stylePackRoutes({ ...identity, styles: services.styles, rateLimits: services.rateLimits }));
  app.use(marketplacePictureRoutes({ ...identity, marketplace: services.marketplace }));
  app.use(services.render.routes(ownerOfRequest));
  app.use(services.listing.routes(async (req, res) => (await identifyRequest(identity, req, res)).user?.id ?? null));
  app.use(services.review.routes());
  app.use(services.community.routes());
  app.use(services.measures.routes(ownerOfRequest));
  app.use(stripeWebhookRoutes({ env: deps.env, log: deps.log, clock: deps.clock, payments: services.payments }));

  const indexFile = path.join(clientDir, "index.html");
  if (fs.existsSync(indexFile)) {
    // Hashed file names never change content: cache for a year.
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
    // Other public files (icons, theme script) keep their names: revalidate each time.
    app.use(express.static(clientDir, { index: false, maxAge: 0, setHeaders: (res) => res.set("Cache-Control", "no-cache") }));
    // Every page carries the studio's brand (/admin → Studio), filled in again when a setting changes.
    const landing = readPrerenderedLanding(clientDir);
    const pages = brandedPages(
      fs.readFileSync(indexFile, "utf8"),
      landing,
      () => services.settings.publicStudio(),
      () => services.settings.revision,
    );
    app.get("/{*splat}", (req, res) => {
      res.set("Cache-Control", "no-cache");
      if (req.path === "/" && landing.size > 0) {
        // The landing page's HTML is in the page already (issue 15); which language depends on these.
        res.vary("Cookie").vary("Accept-Language");
        res.type("html").send(pages.landing(pageLanguage(req)) ?? pages.index());
        return;
      }
      // A page's own route may have answered for it first (a revoked review link: 404, with the app's page;
      // a share page's Open Graph tags: res.locals.pageHead).
      const pageStatus = typeof res.locals.pageStatus === "number" ? res.locals.pageStatus : undefined;
      res
        .status(pageStatus ?? (isAppPath(req.path) ? 200 : 404))
        .type("html")
        .send(withPageHead(pages.index(), res.locals));
    });
  } else {
    deps.log.warn("client build not found; serving the API only", { clientDir });
  }

  app.use((_req, res) => {
    res.status(404).json({ error: "Not found" });
  });

  const handleError: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    const status = typeof error === "object" && error !== null && "status" in error ? Number(error.status) : 500;
    if (status >= 500) deps.log.error("request failed", { error });
    if (res.headersSent) return;
    // A path parameter with a malformed percent sequence (Express's router: a URIError with status 400) says so.
    const message = error instanceof URIError && status === 400 ? MESSAGES.malformedAddress : undefined;
    res
      .status(status >= 400 && status < 600 ? status : 500)
      .json({ error: message ?? (status === 404 ? "Not found" : status < 500 ? "Bad request" : "Internal error") });
  };
  app.use(handleError);

  // Every request starts at the edge (decision 055); a failure on the short road reaches the error handler
  // above with Express's request and response, as it did when the road was a middleware of this app.
  return createEdge({
    track: requestTracking(services.metrics, new Set(Object.keys(appRouter._def.procedures)), deps.log),
    // The CSP allows the pre-rendered landing page's inline scripts by the hashes the build listed (decision 056).
    security: securityHeaders(helmetOptions(readInlineScriptHashes(clientDir))),
    now: () => deps.clock.now(),
    queries: queries.take,
    fail: (error, req, res) => {
      const http = asExpress(app, req, res);
      handleError(error, http.req, http.res, () => {});
    },
    app,
  });
}
