/**
 * The module boundaries in .dependency-cruiser.cjs bite: small trees planted in a temporary directory,
 * cruised by the project's own depcruise binary and config as `npm run lint` runs it. One tree plants
 * one violation per rule (each must be reported by its rule name, exit non-zero); the other holds only
 * the allowed forms (type-only server imports from the client and self-test, the render module's parts
 * using each other through their index.ts, services using kysely and the render index, routers using
 * the listing index and the types of @trpc/server) and must pass.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(".");
const depcruise = path.join(repo, "node_modules/.bin/depcruise");
const config = path.join(repo, ".dependency-cruiser.cjs");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

type Tree = Record<string, string>;

/** Stand-ins for the packages the rules name, so they resolve inside the planted tree as in the real one. */
const PACKAGES: Tree = {
  "node_modules/@trpc/server/package.json": '{ "name": "@trpc/server", "version": "0.0.0", "main": "index.js" }',
  "node_modules/@trpc/server/index.js": "export class TRPCError extends Error {}\n",
  "node_modules/@trpc/server/observable.js": "export function observable() {}\n",
  "node_modules/kysely/package.json": '{ "name": "kysely", "version": "0.0.0", "main": "index.js" }',
  "node_modules/kysely/index.js": "export const sql = () => {};\n",
};

/** One planted violation (or two) per rule. */
const VIOLATING: Tree = {
  ...PACKAGES,
  // shared-is-leaf
  "src/shared/a.ts": 'import { b } from "../server/b";\nexport const a = b;\n',
  "src/server/b.ts": "export const b = 1;\n",
  // no-circular, through type-only imports
  "src/server/p.ts": 'import type { Q } from "./q";\nexport interface P { q?: Q }\n',
  "src/server/q.ts": 'import type { P } from "./p";\nexport interface Q { p?: P }\n',
  // edges-run-no-queries: a router importing the database module, an HTTP route importing kysely and schema types
  "src/server/db/client.ts": "export const db = {};\n",
  "src/server/db/schema.ts": "export interface Row { id: string }\n",
  "src/server/trpc/routers/r.ts": 'import { db } from "../../db/client";\nexport const r = db;\n',
  "src/server/http/h.ts": 'import { sql } from "kysely";\nimport type { Row } from "../db/schema";\nexport const h = (row: Row) => sql;\n',
  // trpc-context-no-db
  "src/server/trpc/context.ts": 'import { db } from "../db/client";\nexport const context = { db };\n',
  "src/server/trpc/init.ts": 'import type { sql } from "kysely";\nexport type Sql = typeof sql;\n',
  "src/server/trpc/root.ts": "export const appRouter = {};\n",
  // services-not-transport: a value import, and a type-only import of a subpath
  "src/server/services/s.ts": 'import { TRPCError } from "@trpc/server";\nexport const fail = () => new TRPCError();\n',
  "src/server/render/sse.ts": 'import type { observable } from "@trpc/server/observable";\nexport type O = typeof observable;\n',
  // routers-throw-domain-errors: a router making its own TRPCError
  "src/server/trpc/routers/e.ts": 'import { TRPCError } from "@trpc/server";\nexport const refuse = () => new TRPCError();\n',
  // render-not-router
  "src/server/render/routes.ts":
    'import { appRouter } from "../trpc/root";\nimport { examples } from "./figures/examples";\nexport const routes = [appRouter, examples];\n',
  // render-behind-its-index: a service, and boot.ts too
  "src/server/render/index.ts": 'export { worker } from "./worker";\n',
  "src/server/render/worker.ts": "export const worker = 1;\n",
  "src/server/services/jobs.ts": 'import { worker } from "../render/worker";\nexport const jobs = worker;\n',
  "src/server/boot.ts": 'import { queue } from "./render/jobs/queue";\nexport const boot = queue;\n',
  // render-<part>-behind-its-index: one part reaching into another's files (intake, live, engines from jobs;
  // jobs from figures; figures from routes.ts, planted below with render-not-router)
  "src/server/render/jobs/index.ts": "export const jobs = 1;\n",
  "src/server/render/jobs/queue.ts":
    'import { upload } from "../intake/uploads";\nimport { event } from "../live/events";\nimport { local } from "../engines/local";\n' +
    "export const queue = [upload, event, local];\n",
  "src/server/render/figures/index.ts": "export const figures = 1;\n",
  "src/server/render/figures/health.ts": 'import { queue } from "../jobs/queue";\nexport const health = queue;\n',
  // render-intake-below-jobs
  "src/server/render/intake/index.ts": "export const intake = 1;\n",
  "src/server/render/intake/uploads.ts": 'import { jobs } from "../jobs";\nexport const upload = jobs;\n',
  // render-live-below-the-parts
  "src/server/render/live/index.ts": "export const live = 1;\n",
  "src/server/render/live/events.ts": 'import { intake } from "../intake";\nexport const event = intake;\n',
  // render-engines-stand-alone
  "src/server/render/engines/index.ts": "export const engines = 1;\n",
  "src/server/render/engines/local.ts": 'import { ownerKey } from "../owner";\nexport const local = ownerKey;\n',
  "src/server/render/owner.ts": "export const ownerKey = 1;\n",
  // render-imports-no-service
  "src/server/render/figures/examples.ts": 'import { jobs } from "../../services/jobs";\nexport const examples = jobs;\n',
  // render-shared-below-the-parts
  "src/server/render/records.ts": 'import { engines } from "./engines";\nexport const records = engines;\n',
  // listing-owned-by-listing, listing-not-transport
  "src/server/listing/index.ts": 'export { createExport } from "./exports";\n',
  "src/server/listing/exports.ts":
    'import type { TRPCError } from "@trpc/server";\nexport const createExport = (error?: TRPCError) => error;\n',
  "src/server/listing/routes.ts": 'import { appRouter } from "../trpc/root";\nexport const routes = appRouter;\n',
  "src/server/services/listing-use.ts": 'import { createExport } from "../listing/exports";\nexport const use = createExport;\n',
  // review-owned-by-review, review-not-transport (a service too)
  "src/server/review/index.ts": 'export { createLink } from "./links";\n',
  "src/server/review/links.ts": 'import type { TRPCError } from "@trpc/server";\nexport const createLink = (error?: TRPCError) => error;\n',
  "src/server/review/routes.ts": 'import { jobs } from "../services/jobs";\nexport const routes = jobs;\n',
  "src/server/services/review-use.ts": 'import { createLink } from "../review/links";\nexport const use = createLink;\n',
  // measures-owned-by-measures, measures-not-transport
  "src/server/measures/index.ts": 'export { addMeasure } from "./measures";\n',
  "src/server/measures/measures.ts":
    'import type { TRPCError } from "@trpc/server";\nexport const addMeasure = (error?: TRPCError) => error;\n',
  "src/server/measures/routes.ts": 'import { jobs } from "../services/jobs";\nexport const routes = jobs;\n',
  "src/server/services/measure-use.ts": 'import { addMeasure } from "../measures/measures";\nexport const use = addMeasure;\n',
  // coordination-owned-by-coordination, coordination-is-a-leaf
  "src/server/coordination/index.ts": 'export { claim } from "./claims";\n',
  "src/server/coordination/claims.ts": 'import { jobs } from "../services/jobs";\nexport const claim = jobs;\n',
  "src/server/services/claim-use.ts": 'import { claim } from "../coordination/claims";\nexport const use = claim;\n',
  // api-behind-its-index, api-asks-through-ports (a service, and the webhooks module)
  "src/server/api/index.ts": 'export { keys } from "./keys";\n',
  "src/server/api/keys.ts":
    'import { jobs } from "../services/jobs";\nimport { hooks } from "../webhooks";\nexport const keys = [jobs, hooks];\n',
  "src/server/services/api-use.ts": 'import { keys } from "../api/keys";\nexport const use = keys;\n',
  // webhooks-behind-its-index, webhooks-asks-through-ports, render-not-webhooks
  "src/server/webhooks/index.ts": 'export { hooks } from "./outbox";\n',
  "src/server/webhooks/outbox.ts": 'import { h } from "../http/h";\nexport const hooks = h;\n',
  "src/server/services/hooks-use.ts": 'import { hooks } from "../webhooks/outbox";\nexport const use = hooks;\n',
  "src/server/render/hooks.ts": 'import { hooks } from "../webhooks";\nexport const renderHooks = hooks;\n',
  // styles-behind-its-index, styles-not-transport (the transport, @trpc/server, and a capability's files)
  "src/server/styles/index.ts": 'export { keep } from "./styles";\n',
  "src/server/styles/styles.ts":
    'import type { TRPCError } from "@trpc/server";\nimport { h } from "../http/h";\nimport { jobs } from "../services/jobs";\n' +
    "export const keep = (error?: TRPCError) => [error, h, jobs];\n",
  "src/server/services/styles-use.ts": 'import { keep } from "../styles/styles";\nexport const use = keep;\n',
  // community-behind-its-index, community-asks-through-ports (the transport, @trpc/server, a capability's files)
  "src/server/community/index.ts": 'export { publish } from "./publications";\n',
  "src/server/community/publications.ts":
    'import type { TRPCError } from "@trpc/server";\nimport { h } from "../http/h";\nimport { worker } from "../render";\n' +
    "export const publish = (error?: TRPCError) => [error, h, worker];\n",
  "src/server/services/community-use.ts": 'import { publish } from "../community/publications";\nexport const use = publish;\n',
  // marketplace-behind-its-index, marketplace-asks-through-ports (the transport, @trpc/server, the styles module)
  "src/server/marketplace/index.ts": 'export { list } from "./listings";\n',
  "src/server/marketplace/listings.ts":
    'import type { TRPCError } from "@trpc/server";\nimport { h } from "../http/h";\nimport { keep } from "../styles/index";\n' +
    "export const list = (error?: TRPCError) => [error, h, keep];\n",
  "src/server/services/market-use.ts": 'import { list } from "../marketplace/listings";\nexport const use = list;\n',
  // space-events-is-a-record: it imports nothing of the server but the database
  "src/server/space-events/index.ts":
    'import { db } from "../db/client";\nimport { jobs } from "../services/jobs";\nexport const events = [db, jobs];\n',
  // client-imports-server-types-only
  "src/server/y.ts": "export const y = 1;\n",
  "src/client/x.ts": 'import { y } from "../server/y";\nexport const x = y;\n',
  // selftest-imports-server-types-only, selftest-not-client (even a type)
  "src/selftest/t.ts": 'import { y } from "../server/y";\nimport type { x } from "../client/x";\nexport const t: typeof x = y;\n',
};

/**
 * Rule, from, to (for a cycle: the modules around it, reported once), as depcruise's err reporter
 * prints them, sorted.
 */
const EXPECTED_VIOLATIONS = [
  "api-asks-through-ports: src/server/api/keys.ts → src/server/services/jobs.ts",
  "api-asks-through-ports: src/server/api/keys.ts → src/server/webhooks/index.ts",
  "api-behind-its-index: src/server/services/api-use.ts → src/server/api/keys.ts",
  "client-imports-server-types-only: src/client/x.ts → src/server/y.ts",
  "community-asks-through-ports: src/server/community/publications.ts → node_modules/@trpc/server/index.js",
  "community-asks-through-ports: src/server/community/publications.ts → src/server/http/h.ts",
  "community-asks-through-ports: src/server/community/publications.ts → src/server/render/index.ts",
  "community-behind-its-index: src/server/services/community-use.ts → src/server/community/publications.ts",
  "coordination-is-a-leaf: src/server/coordination/claims.ts → src/server/services/jobs.ts",
  "coordination-owned-by-coordination: src/server/services/claim-use.ts → src/server/coordination/claims.ts",
  "edges-run-no-queries: src/server/http/h.ts → node_modules/kysely/index.js",
  "edges-run-no-queries: src/server/http/h.ts → src/server/db/schema.ts",
  "edges-run-no-queries: src/server/trpc/routers/r.ts → src/server/db/client.ts",
  "listing-not-transport: src/server/listing/exports.ts → node_modules/@trpc/server/index.js",
  "listing-not-transport: src/server/listing/routes.ts → src/server/trpc/root.ts",
  "listing-owned-by-listing: src/server/services/listing-use.ts → src/server/listing/exports.ts",
  "marketplace-asks-through-ports: src/server/marketplace/listings.ts → node_modules/@trpc/server/index.js",
  "marketplace-asks-through-ports: src/server/marketplace/listings.ts → src/server/http/h.ts",
  "marketplace-asks-through-ports: src/server/marketplace/listings.ts → src/server/styles/index.ts",
  "marketplace-behind-its-index: src/server/services/market-use.ts → src/server/marketplace/listings.ts",
  "measures-not-transport: src/server/measures/measures.ts → node_modules/@trpc/server/index.js",
  "measures-not-transport: src/server/measures/routes.ts → src/server/services/jobs.ts",
  "measures-owned-by-measures: src/server/services/measure-use.ts → src/server/measures/measures.ts",
  "no-circular: src/server/p.ts → src/server/q.ts → src/server/p.ts",
  "render-behind-its-index: src/server/boot.ts → src/server/render/jobs/queue.ts",
  "render-behind-its-index: src/server/services/jobs.ts → src/server/render/worker.ts",
  "render-engines-behind-its-index: src/server/render/jobs/queue.ts → src/server/render/engines/local.ts",
  "render-engines-stand-alone: src/server/render/engines/local.ts → src/server/render/owner.ts",
  "render-figures-behind-its-index: src/server/render/routes.ts → src/server/render/figures/examples.ts",
  "render-imports-no-service: src/server/render/figures/examples.ts → src/server/services/jobs.ts",
  "render-intake-behind-its-index: src/server/render/jobs/queue.ts → src/server/render/intake/uploads.ts",
  "render-intake-below-jobs: src/server/render/intake/uploads.ts → src/server/render/jobs/index.ts",
  "render-jobs-behind-its-index: src/server/render/figures/health.ts → src/server/render/jobs/queue.ts",
  "render-live-behind-its-index: src/server/render/jobs/queue.ts → src/server/render/live/events.ts",
  "render-live-below-the-parts: src/server/render/live/events.ts → src/server/render/intake/index.ts",
  "render-not-router: src/server/render/routes.ts → src/server/trpc/root.ts",
  "render-not-webhooks: src/server/render/hooks.ts → src/server/webhooks/index.ts",
  "render-shared-below-the-parts: src/server/render/records.ts → src/server/render/engines/index.ts",
  "review-not-transport: src/server/review/links.ts → node_modules/@trpc/server/index.js",
  "review-not-transport: src/server/review/routes.ts → src/server/services/jobs.ts",
  "review-owned-by-review: src/server/services/review-use.ts → src/server/review/links.ts",
  "routers-throw-domain-errors: src/server/trpc/routers/e.ts → node_modules/@trpc/server/index.js",
  "selftest-imports-server-types-only: src/selftest/t.ts → src/server/y.ts",
  "selftest-not-client: src/selftest/t.ts → src/client/x.ts",
  "services-not-transport: src/server/render/sse.ts → node_modules/@trpc/server/observable.js",
  "services-not-transport: src/server/services/s.ts → node_modules/@trpc/server/index.js",
  "shared-is-leaf: src/shared/a.ts → src/server/b.ts",
  "space-events-is-a-record: src/server/space-events/index.ts → src/server/services/jobs.ts",
  "styles-behind-its-index: src/server/services/styles-use.ts → src/server/styles/styles.ts",
  "styles-not-transport: src/server/styles/styles.ts → node_modules/@trpc/server/index.js",
  "styles-not-transport: src/server/styles/styles.ts → src/server/http/h.ts",
  "styles-not-transport: src/server/styles/styles.ts → src/server/services/jobs.ts",
  "trpc-context-no-db: src/server/trpc/context.ts → src/server/db/client.ts",
  "trpc-context-no-db: src/server/trpc/init.ts → node_modules/kysely/index.js",
  "webhooks-asks-through-ports: src/server/webhooks/outbox.ts → src/server/http/h.ts",
  "webhooks-behind-its-index: src/server/services/hooks-use.ts → src/server/webhooks/outbox.ts",
];

/** Everything the rules allow. */
const CLEAN: Tree = {
  ...PACKAGES,
  "src/shared/constants.ts": "export const LIMIT = 3;\n",
  "src/server/db/client.ts": "export const db = {};\n",
  "src/server/db/schema.ts": "export interface Row { id: string }\n",
  "src/server/trpc/root.ts":
    'import { LIMIT } from "../../shared/constants";\nimport { jobsRouter } from "./routers/jobs";\n' +
    "export const appRouter = { LIMIT, jobsRouter };\nexport type AppRouter = typeof appRouter;\n",
  "src/server/trpc/init.ts": 'import { TRPCError } from "@trpc/server";\nexport const fail = () => new TRPCError();\n',
  "src/server/trpc/routers/jobs.ts":
    'import type { TRPCError } from "@trpc/server";\nimport { listJobs, type JobView } from "../../services/jobs";\n' +
    "export const jobsRouter = (error?: TRPCError): JobView[] => listJobs() ?? [error].map(() => ({ id: '' }));\n",
  "src/server/services/jobs.ts":
    'import { sql } from "kysely";\nimport { db } from "../db/client";\nimport type { Row } from "../db/schema";\n' +
    'import { startWorker } from "../render";\n' +
    "export interface JobView { id: string }\nexport const listJobs = (): JobView[] => [db, sql, startWorker].map((): Row => ({ id: '' }));\n",
  // The render module: parts use each other through their index.ts; shared files beside index.ts; live and
  // engines import no other part; context.ts may name the live part's types.
  "src/server/render/index.ts":
    'import { routes } from "./routes";\nexport { startWorker } from "./jobs";\nexport const surface = routes;\n',
  "src/server/render/routes.ts": 'import { examples } from "./figures";\nexport const routes = examples;\n',
  "src/server/render/context.ts": 'import type { Bus } from "./live";\nexport interface Context { bus: Bus }\n',
  "src/server/render/owner.ts": "export const ownerKey = 1;\n",
  "src/server/render/records.ts":
    'import type { Context } from "./context";\nimport { ownerKey } from "./owner";\nexport const find = (context?: Context) => [context, ownerKey];\n',
  "src/server/render/jobs/index.ts": 'export { startWorker } from "./worker";\n',
  "src/server/render/jobs/worker.ts":
    'import { local } from "../engines";\nimport { record } from "../live";\nimport { upload } from "../intake";\nimport { find } from "../records";\n' +
    "export const startWorker = () => [local, record, upload, find];\n",
  "src/server/render/engines/index.ts": 'export { local } from "./local";\n',
  "src/server/render/engines/local.ts": "export const local = 1;\n",
  "src/server/render/live/index.ts": 'export { record, type Bus } from "./events";\n',
  "src/server/render/live/events.ts": 'import { ownerKey } from "../owner";\nexport type Bus = string;\nexport const record = ownerKey;\n',
  "src/server/render/intake/index.ts": 'export { upload } from "./uploads";\n',
  "src/server/render/intake/uploads.ts":
    'import { record } from "../live";\nimport { find } from "../records";\nexport const upload = [record, find];\n',
  "src/server/render/figures/index.ts": 'export { examples } from "./examples";\n',
  "src/server/render/figures/examples.ts": 'import { local } from "../engines";\nexport const examples = local;\n',
  "src/server/boot.ts": 'import { startWorker } from "./render";\nexport const boot = [startWorker];\n',
  "src/server/listing/index.ts":
    'import { LIMIT } from "../../shared/constants";\nimport { startWorker } from "../render";\nexport const listing = [LIMIT, startWorker];\n',
  "src/server/trpc/routers/listing.ts": 'import { listing } from "../../listing";\nexport const listingRouter = listing;\n',
  "src/server/coordination/index.ts": 'export { claims } from "./claims";\n',
  "src/server/coordination/claims.ts": 'import { db } from "../db/client";\nexport const claims = db;\n',
  "src/server/services/limits.ts": 'import { claims } from "../coordination";\nexport const limits = claims;\n',
  "src/client/a.ts": 'import type { AppRouter } from "../server/trpc/root";\nexport type A = AppRouter;\n',
  "src/client/b.ts": 'import { type AppRouter } from "../server/trpc/root";\nexport type B = AppRouter;\n',
  "src/client/c.ts": 'export type C = import("../server/trpc/root").AppRouter;\n',
  "src/selftest/suite.ts":
    'import type { AppRouter } from "../server/trpc/root";\nimport { LIMIT } from "../shared/constants";\n' +
    "export type Suite = { router?: AppRouter; limit: typeof LIMIT };\n",
};

let root: string;

function plant(name: string, tree: Tree): string {
  const dir = path.join(root, name);
  // The repository's compiler options, as depcruise reads them from tsconfig.json.
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(repo, "tsconfig.json"), path.join(dir, "tsconfig.json"));
  for (const [file, text] of Object.entries(tree)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

function cruise(cwd: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  return new Promise((resolve) => {
    execFile(depcruise, ["src", "--config", config], { cwd, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The err reporter's violations, one string each: "rule: from → to" (a cycle's continuation lines joined). */
function violations(stdout: string): string[] {
  const found: string[] = [];
  for (const line of stdout.split("\n")) {
    const start = line.match(/^\s*error (.*)$/);
    if (start) found.push(start[1]!.trim());
    else if (/^\s{4,}\S/.test(line) && found.length > 0) found[found.length - 1] += " " + line.trim();
  }
  return found.map((violation) => violation.replace(/\s+/g, " ").replace(/ →$/, "")).sort();
}

let violating: Promise<Run>;
let clean: Promise<Run>;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "boundaries-"));
  // Both cruises at once: each is mostly Node and TypeScript starting up.
  violating = cruise(plant("violating", VIOLATING));
  clean = cruise(plant("clean", CLEAN));
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

// depcruise runs as two processes (Node and TypeScript starting up): their time grows with the machine's load.
describe("dependency-cruiser boundaries (.dependency-cruiser.cjs)", { timeout: 60_000 }, () => {
  it("reports each planted violation by its rule name, and nothing else, and exits non-zero", async () => {
    const run = await violating;
    expect(run.stderr).toBe("");
    expect(violations(run.stdout)).toEqual(EXPECTED_VIOLATIONS);
    // depcruise exits with the number of errors.
    expect(run.code).toBe(EXPECTED_VIOLATIONS.length);
  });

  it("passes a tree holding only allowed imports", async () => {
    const run = await clean;
    expect(run.stderr).toBe("");
    expect(violations(run.stdout)).toEqual([]);
    // The phrase `npm run lint` looks for to pass (depcruise's exit status alone wraps at 256 errors).
    expect(run.stdout).toContain("no dependency violations found");
    expect(run.code).toBe(0);
  });
});
