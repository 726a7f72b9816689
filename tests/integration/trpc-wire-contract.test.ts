/**
 * tRPC's wire format, written by hand (issue 25, decision 053). Three parts of the app speak tRPC's
 * HTTP and SSE formats without tRPC's own code, for speed: the short road for GET queries
 * (trpc/fast-queries.ts, decision 044), the render.events fan-out (render's event-fan-out, decision
 * 043), and the first paint's reader (client/lib/queries.ts, decision 042), all over the output
 * transformer (trpc/transformer.ts, decision 046). This test holds each of them to what tRPC's own
 * handler does with the same router, context and transformer, so that a tRPC upgrade which changes
 * the format fails here instead of in browsers.
 *
 * The app (createApp, through startTestServer) and tRPC's own Express adapter over the same
 * appRouter, services and createContext (a bare Express app on another port) get the same requests:
 * same path and query, same cookies, same Host header. Compared exactly: the status, the
 * Content-Type, Vary and, for streams, tRPC's SSE headers, and the body's bytes. Normalised, and why:
 * - Accept-Encoding: identity is sent, so neither side compresses (the app compresses large
 *   answers, a separate layer; one case sends gzip and compares the decoded bodies). Vary is
 *   compared without the Accept-Encoding member the app's compression adds to it.
 * - Headers that are not tRPC's (security headers, X-Server-Time, Date, Set-Cookie, Content-Length
 *   versus chunked, Keep-Alive) are not compared; Content-Length is only used to tell which road
 *   answered in the app.
 * - For streams, the bytes are compared as one text: how they are cut into TCP writes differs (the
 *   fan-out writes the frames of one window at once), and is no part of the format. Live streams
 *   never end, so they are read up to an expected frame, plus a short quiet time in which no other
 *   frame may arrive. Pings would be timed differently, but none are configured (trpc/init.ts sets
 *   no `sse` options: tRPC sends none), so none are normalised.
 * The server runs on a clock that only moves when told (TestClock), so answers that carry times
 * (session deadlines, uptime, last seen) are the same for both requests.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import superjson from "superjson";
import { TRPCError } from "@trpc/server";
import * as trpcExpress from "@trpc/server/adapters/express";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { QueryState, SharedPath } from "../../src/client/lib/queries";
import { createContext } from "../../src/server/trpc/context";
import { appRouter, type AppRouter } from "../../src/server/trpc/root";
import { serializeOutput } from "../../src/server/trpc/transformer";
import { TestClock } from "../helpers/test-clock";
import { startTestServer, type TestServer } from "../helpers/server";
import { createStudioClient, roomPhoto, signedInClient, upload, waitForRenders, type StudioClient } from "../helpers/render";
import { waitUntil } from "../helpers/wait";

type Who = "nobody" | "visitor" | "ana" | "bob" | "admin";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: TestServer;
let appBase: URL;
let referenceBase: URL;
let closeReference: () => Promise<void>;
const clients = {} as Record<Exclude<Who, "nobody">, StudioClient & { userId?: string; email?: string }>;
/** Ids the cases use, filled in by beforeAll. */
const ids = {
  anaJob: "",
  anaVideo: "",
  anaListing: "",
  anaProject: "",
  anaPhoto: "",
  visitorUpload: "",
  shareToken: "",
  anaOwner: "",
  bobTeam: "",
  anaClient: "",
  anaWebhook: "",
  anaStyle: "",
  reviewToken: "",
  publication: "",
};

// ---- Raw HTTP: exact bytes, any header (Host included) ----

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === "gzip") return zlib.gunzipSync(body);
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  if (encoding === "deflate") return zlib.inflateSync(body);
  return body;
}

function request(base: URL, path: string, headers: Record<string, string>, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: decoded(Buffer.concat(chunks), res.headers["content-encoding"]).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** An open response read as it arrives (server-sent events). */
class Stream {
  text = "";
  ended = false;
  private waiters: Array<() => void> = [];

  private constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    private readonly req: http.ClientRequest,
    res: http.IncomingMessage,
  ) {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      this.text += chunk;
      this.wake();
    });
    res.on("close", () => {
      this.ended = true;
      this.wake();
    });
  }

  static open(base: URL, path: string, headers: Record<string, string>, method = "GET"): Promise<Stream> {
    return new Promise((resolve, reject) => {
      const req = http.request(new URL(path, base), { method, headers }, (res) =>
        resolve(new Stream(res.statusCode!, res.headers, req, res)),
      );
      req.on("error", reject);
      req.end();
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** The frames received: blocks ending in tRPC's "\n\n\n". */
  get frames(): Array<{ event?: string; data?: string; id?: string }> {
    return this.text
      .split("\n\n\n")
      .slice(0, -1)
      .map((block) => {
        const frame: { event?: string; data?: string; id?: string } = {};
        for (const line of block.split("\n")) {
          const at = line.indexOf(": ");
          const field = line.slice(0, at);
          if (field === "event" || field === "data" || field === "id") frame[field] = line.slice(at + 2);
        }
        return frame;
      });
  }

  /** Waits until `done` holds (or the stream ends), then for `quietMs` in which nothing more may arrive. */
  async until(done: (stream: Stream) => boolean, quietMs = 150): Promise<string> {
    const deadline = Date.now() + 15_000;
    while (!done(this) && !this.ended) {
      if (Date.now() > deadline) throw new Error(`stream timed out with: ${JSON.stringify(this.text)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
    const seen = this.text;
    if (!this.ended) await new Promise((resolve) => setTimeout(resolve, quietMs));
    expect(this.text, "nothing more arrives").toBe(seen);
    return this.text;
  }

  /** Resolves once the server has ended the stream. */
  async end(): Promise<string> {
    return this.until((stream) => stream.ended, 0);
  }

  close(): void {
    this.req.destroy();
  }
}

// ---- Requests as a browser makes them ----

function headersOf(who: Who, extra: Record<string, string> = {}): Record<string, string> {
  const cookie = who === "nobody" ? "" : clients[who].jar.header();
  return { host: appBase.host, "accept-encoding": "identity", ...(cookie ? { cookie } : {}), ...extra };
}

/** `path?input=...` as httpLink writes a call's input. */
function call(path: string, input?: unknown): string {
  return input === undefined ? path : `${path}?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`;
}

/** `a,b?batch=1&input={"0":...,"1":...}` as httpBatchLink writes calls (an undefined input too). */
function batch(...calls: Array<[string, unknown?]>): string {
  const inputs = Object.fromEntries(calls.map(([, input], index) => [index, superjson.serialize(input)]));
  return `${calls.map(([path]) => path).join(",")}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`;
}

/** What is compared of an answer: status, tRPC's headers, the body. */
function wire(answer: Answer, sse = false) {
  const vary = String(answer.headers.vary ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part && part.toLowerCase() !== "accept-encoding")
    .join(", ");
  return {
    status: answer.status,
    contentType: answer.headers["content-type"],
    vary,
    ...(sse
      ? {
          cacheControl: answer.headers["cache-control"],
          accelBuffering: answer.headers["x-accel-buffering"],
          connection: answer.headers.connection,
        }
      : {}),
    body: answer.body.replace(LIVE_READINGS, '"$1":0'),
  };
}

/**
 * admin.overview's readings of the machine, taken anew for each of the two requests: the disk's free
 * bytes move with whatever else writes to the disk, and the uptime may cross a second in between.
 * Their place and type are compared, not their value.
 */
const LIVE_READINGS = /"(diskFreeBytes|uptimeSeconds)":\d+/g;

/** Every superjson value the app sent (answers and events): the transformer must round-trip each. */
const sent: unknown[] = [];

/** The output transformer writes what superjson writes for it, and superjson reads it back as the client does. */
function expectRoundTrip(data: unknown): void {
  const value = superjson.deserialize(data as Parameters<typeof superjson.deserialize>[0]);
  expect(JSON.stringify(serializeOutput(value))).toBe(JSON.stringify(superjson.serialize(value)));
  expect(JSON.stringify(superjson.serialize(value))).toBe(JSON.stringify(data));
  sent.push(data);
}

/** The same request to the app and to tRPC's own handler (tRPC's first: it is the reference). */
async function both(path: string, who: Who, extra: Record<string, string> = {}) {
  const reference = await request(referenceBase, `/trpc/${path}`, headersOf(who, extra));
  const app = await request(appBase, `/trpc/${path}`, headersOf(who, extra));
  return { app, reference };
}

/**
 * Waits for a finished render's last event: its structure score follows "succeeded" once the
 * worker's slot is free, so the events of a render are all stored only then.
 */
async function scored(jobId: string): Promise<void> {
  const read = () =>
    server.deps.db.selectFrom("render_events").select("id").where("job_id", "=", jobId).where("type", "=", "scored").executeTakeFirst();
  await waitUntil(read, { message: `the structure score of ${jobId}`, timeoutMs: 20_000 });
}

beforeAll(async () => {
  const clock = new TestClock();
  server = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "10000", DEMO_RENDERS_PER_IP_PER_DAY: "100" }, { clock });
  appBase = new URL(server.url);

  // tRPC's own handler over the same router, services and context.
  const reference = express();
  reference.set("trust proxy", server.deps.env.TRUST_PROXY);
  reference.use(
    "/trpc",
    trpcExpress.createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => createContext(server.services, server.deps.env, req, res),
    }),
  );
  // The same handler when every call fails before its procedure (the client's reading of errors).
  reference.use(
    "/failing/trpc",
    trpcExpress.createExpressMiddleware({
      router: appRouter,
      createContext: () => {
        throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "The studio is down for maintenance" });
      },
    }),
  );
  const listening = reference.listen(0, "127.0.0.1");
  await new Promise((resolve) => listening.once("listening", resolve));
  referenceBase = new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}`);
  closeReference = () => new Promise((resolve) => listening.close(() => resolve()));

  const ana = await signedInClient(server.url);
  const photo = await upload(server.url, ana.jar, await roomPhoto(400, 300));
  ids.anaProject = photo.body.projectId;
  ids.anaPhoto = photo.body.imageId;
  const { jobs } = await ana.client.render.create.mutate({ projectId: ids.anaProject, imageId: photo.body.imageId, style: "scandinavian" });
  ids.anaJob = jobs[0]!.id;
  await waitForRenders(ana, [ids.anaJob]);
  await scored(ids.anaJob);
  const { shareUrl } = await ana.client.render.setSharing.mutate({ id: ids.anaJob, link: true });
  ids.shareToken = new URL(shareUrl!, server.url).searchParams.get("share")!;
  ids.publication = (await ana.client.community.publish.mutate({ jobId: ids.anaJob, title: "Calm", layout: "before-after" })).id;
  await ana.client.community.savePortfolio.mutate({ handle: "ana-wire", displayName: "Ana" });
  const row = await server.deps.db.selectFrom("render_events").select("owner").where("job_id", "=", ids.anaJob).executeTakeFirstOrThrow();
  ids.anaOwner = row.owner;
  ids.anaClient = (await ana.client.clients.create.mutate({ name: "Marta Ruiz", phone: "+34 91 555 0101" })).id;
  await ana.client.clients.setProjectClient.mutate({ projectId: ids.anaProject, clientId: ids.anaClient });
  ids.anaWebhook = (
    await ana.client.webhooks.create.mutate({
      url: "https://93.184.216.34/hooks",
      events: ["render.succeeded"],
      description: "",
      teamId: null,
    })
  ).endpoint.id;
  ids.anaStyle = (
    await ana.client.styles.create.mutate({
      name: "Warm loft",
      description: "Exposed brick and oak floors",
      palette: ["#a0522d"],
      tone: "warm",
      teamId: null,
    })
  ).id;
  // A marketplace listing of that style (decision 104), installed in Ana's own space too.
  ids.anaListing = (
    await ana.client.marketplace.publish.mutate({
      teamId: null,
      title: "Loft",
      styleIds: [ids.anaStyle],
      coverJobId: ids.anaJob,
      exampleJobIds: [ids.anaJob],
    })
  ).id;
  await ana.client.marketplace.install.mutate({ listingId: ids.anaListing, teamId: null });
  ids.reviewToken = (await ana.client.review.create.mutate({ projectId: ids.anaProject })).path.slice("/review/".length);
  ids.anaVideo = (
    await ana.client.listing.createVideo.mutate({
      projectId: ids.anaProject,
      jobIds: [ids.anaJob],
      format: "landscape",
      seconds: 3,
      language: "en",
    })
  ).id;
  // A measure made in AR (decision 092): listed by measures.ofProject and on the review page.
  await ana.client.measures.addAr.mutate({ projectId: ids.anaProject, a: { x: 0, y: 0, z: 0 }, b: { x: 1.5, y: 0, z: -2 }, label: "Wall" });

  const admin = await signedInClient(server.url);
  await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: clock.now() }).execute();
  const visitor = createStudioClient(server.url);
  ids.visitorUpload = (await upload(server.url, visitor.jar, await roomPhoto(300, 200))).body.imageId;
  const bob = await signedInClient(server.url);
  ids.bobTeam = (await bob.client.teams.create.mutate({ name: "Bob's studio" })).id;
  Object.assign(clients, { ana, bob, admin, visitor });
});

afterAll(async () => {
  await closeReference?.();
  await server?.stop();
});

// ---- Queries: the short road (trpc/fast-queries.ts) ----

interface QueryCase {
  /** The procedure a success case covers. */
  procedure?: string;
  who: Who;
  path: () => string;
  /** Which road answers in the app: the short road, or (what it leaves) tRPC's adapter. */
  road?: "fast" | "trpc";
  headers?: Record<string, string>;
  /** The status both answer with, where the case is about one. */
  status?: number;
}

/** One success case per query procedure. */
const successes: Record<string, Omit<QueryCase, "procedure">> = {
  "system.landingStats": { who: "nobody", path: () => "system.landingStats" },
  "system.performance": { who: "nobody", path: () => "system.performance" },
  "system.info": { who: "nobody", path: () => "system.info" },
  "system.legalText": { who: "nobody", path: () => call("system.legalText", { page: "terms" }) },
  "auth.session": { who: "ana", path: () => "auth.session" },
  "auth.providers": { who: "nobody", path: () => "auth.providers" },
  "auth.validateLogin": { who: "nobody", path: () => call("auth.validateLogin", { email: clients.ana.email }) },
  "auth.resetLinkState": { who: "nobody", path: () => call("auth.resetLinkState", { token: "no-such-token" }) },
  "account.roles": { who: "admin", path: () => "account.roles" },
  "account.sessions": { who: "ana", path: () => "account.sessions" },
  "account.profile": { who: "ana", path: () => "account.profile" },
  "render.allowance": { who: "visitor", path: () => "render.allowance" },
  "render.storage": { who: "ana", path: () => "render.storage" },
  "render.activity": { who: "ana", path: () => call("render.activity", { timeZone: "Europe/Madrid" }) },
  "render.upload": { who: "visitor", path: () => call("render.upload", { id: ids.visitorUpload }) },
  "render.job": { who: "ana", path: () => call("render.job", { id: ids.anaJob }) },
  "render.list": { who: "ana", path: () => call("render.list", { limit: 10 }) },
  "render.versions": { who: "ana", path: () => call("render.versions", { id: ids.anaJob }) },
  "render.projectPhotos": { who: "ana", path: () => call("render.projectPhotos", { projectId: ids.anaProject }) },
  "render.sets": { who: "ana", path: () => call("render.sets", { projectId: ids.anaProject }) },
  "render.paintOffer": { who: "ana", path: () => "render.paintOffer" },
  "render.paintColours": { who: "ana", path: () => call("render.paintColours", { projectId: ids.anaProject }) },
  "render.shared": { who: "nobody", path: () => call("render.shared", { token: ids.shareToken }) },
  "render.gallery": { who: "nobody", path: () => "render.gallery" },
  "projects.list": { who: "ana", path: () => call("projects.list", { limit: 5 }) },
  "projects.get": { who: "ana", path: () => call("projects.get", { id: ids.anaProject }) },
  "billing.packages": { who: "nobody", path: () => "billing.packages" },
  "billing.purchases": { who: "ana", path: () => "billing.purchases" },
  "admin.overview": { who: "admin", path: () => "admin.overview" },
  "admin.users": { who: "admin", path: () => call("admin.users", { search: "example.com", limit: 10 }) },
  "admin.teams": { who: "admin", path: () => call("admin.teams", { search: "studio", limit: 10 }) },
  "admin.jobs": { who: "admin", path: () => "admin.jobs" },
  "admin.creditPackages": { who: "admin", path: () => "admin.creditPackages" },
  "admin.studioSettings": { who: "admin", path: () => "admin.studioSettings" },
  "admin.paintSettings": { who: "admin", path: () => "admin.paintSettings" },
  "admin.engineStatuses": { who: "admin", path: () => "admin.engineStatuses" },
  "admin.housekeeping": { who: "admin", path: () => "admin.housekeeping" },
  "admin.backups": { who: "admin", path: () => "admin.backups" },
  "admin.paymentHolds": { who: "admin", path: () => "admin.paymentHolds" },
  "admin.outbox": { who: "admin", path: () => call("admin.outbox", { limit: 3 }) },
  "admin.analyticsSummary": { who: "admin", path: () => call("admin.analyticsSummary", { days: 7 }) },
  "selfTest.profile": { who: "ana", path: () => call("selfTest.profile", { columns: "id" }) },
  "selfTest.runs": { who: "admin", path: () => "selfTest.runs" },
  "listing.forJob": { who: "ana", path: () => call("listing.forJob", { jobId: ids.anaJob }) },
  "listing.projectCount": { who: "ana", path: () => call("listing.projectCount", { projectId: ids.anaProject }) },
  "listing.video": { who: "ana", path: () => call("listing.video", { id: ids.anaVideo }) },
  "listing.videos": { who: "ana", path: () => call("listing.videos", { projectId: ids.anaProject }) },
  "teams.mine": { who: "bob", path: () => "teams.mine" },
  "teams.activity": { who: "bob", path: () => call("teams.activity", { teamId: ids.bobTeam }) },
  "teams.credits": { who: "bob", path: () => call("teams.credits", { teamId: ids.bobTeam }) },
  "clients.list": { who: "ana", path: () => "clients.list" },
  "clients.get": { who: "ana", path: () => call("clients.get", { id: ids.anaClient }) },
  "clients.ofProject": { who: "ana", path: () => call("clients.ofProject", { projectId: ids.anaProject }) },
  "review.list": { who: "ana", path: () => call("review.list", { projectId: ids.anaProject }) },
  "review.page": { who: "nobody", path: () => call("review.page", { token: ids.reviewToken }) },
  "measures.ofPhoto": { who: "ana", path: () => call("measures.ofPhoto", { uploadId: ids.anaPhoto }) },
  "measures.ofProject": { who: "ana", path: () => call("measures.ofProject", { projectId: ids.anaProject }) },
  "developers.keys": { who: "ana", path: () => call("developers.keys", { teamId: null }) },
  "webhooks.list": { who: "ana", path: () => call("webhooks.list", { teamId: null }) },
  "webhooks.deliveries": { who: "ana", path: () => call("webhooks.deliveries", { id: ids.anaWebhook }) },
  "styles.list": { who: "ana", path: () => call("styles.list", { teamId: null }) },
  "styles.get": { who: "ana", path: () => call("styles.get", { id: ids.anaStyle }) },
  "community.gallery": { who: "nobody", path: () => "community.gallery" },
  "community.get": { who: "nobody", path: () => call("community.get", { id: ids.publication }) },
  "community.feed": { who: "ana", path: () => call("community.feed", { sort: "liked", limit: 5 }) },
  "community.ofRender": { who: "ana", path: () => call("community.ofRender", { jobId: ids.anaJob }) },
  "community.following": { who: "ana", path: () => "community.following" },
  "community.mine": { who: "ana", path: () => "community.mine" },
  "community.myPortfolio": { who: "ana", path: () => "community.myPortfolio" },
  "community.portfolio": { who: "nobody", path: () => call("community.portfolio", { handle: "ana-wire" }) },
  "admin.communityReports": { who: "admin", path: () => "admin.communityReports" },
  "marketplace.browse": { who: "bob", path: () => call("marketplace.browse", { tone: "warm" }) },
  "marketplace.get": { who: "bob", path: () => call("marketplace.get", { listingId: ids.anaListing, teamId: null }) },
  "marketplace.mine": { who: "ana", path: () => call("marketplace.mine", { teamId: null }) },
  "marketplace.installs": { who: "ana", path: () => call("marketplace.installs", { teamId: null }) },
  "developers.usage": { who: "ana", path: () => call("developers.usage", { teamId: null, days: 30 }) },
  "teams.details": { who: "bob", path: () => call("teams.details", { teamId: ids.bobTeam }) },
  "teams.invitation": { who: "nobody", path: () => call("teams.invitation", { token: "no-such-invitation" }) },
};

const errors: Array<[string, QueryCase]> = [
  ["bad input: an unknown enum value", { status: 400, who: "nobody", path: () => call("system.legalText", { page: "nope" }) }],
  ["bad input: an empty id", { status: 400, who: "ana", path: () => call("projects.get", { id: "" }) }],
  ["bad input: a refined string", { status: 400, who: "ana", path: () => call("render.activity", { timeZone: "Mars/Olympus_Mons" }) }],
  ["bad input: no input where one is needed", { status: 400, who: "ana", path: () => "render.job" }],
  ["bad input: a malformed address", { status: 400, who: "nobody", path: () => call("auth.validateLogin", { email: "not-an-address" }) }],
  ["unauthorised: signed out (protectedProcedure)", { status: 401, who: "nobody", path: () => "account.profile" }],
  [
    "unauthorised: signed out (the procedure's own check and message)",
    { status: 401, who: "nobody", path: () => call("listing.forJob", { jobId: "x" }) },
  ],
  ["forbidden: not an admin", { status: 403, who: "ana", path: () => "admin.overview" }],
  ["forbidden: not an admin (teams)", { status: 403, who: "bob", path: () => call("admin.teams", { search: "studio" }) }],
  ["not found: another owner's job", { status: 404, who: "bob", path: () => call("render.job", { id: ids.anaJob }) }],
  ["not found: another user's project", { status: 404, who: "bob", path: () => call("projects.get", { id: ids.anaProject }) }],
  ["not found: no owner at all", { status: 404, who: "nobody", path: () => call("render.upload", { id: ids.visitorUpload }) }],
  ["not found: an unknown share token", { status: 404, who: "nobody", path: () => call("render.shared", { token: "x".repeat(24) }) }],
];

const batches: Array<[string, QueryCase]> = [
  [
    "the first paint's batch (lib/queries.ts), signed out",
    {
      who: "nobody",
      path: () => "auth.session,render.allowance,render.gallery,system.landingStats?batch=1",
      headers: { "x-ui-language": "fr" },
    },
  ],
  [
    "the first paint's batch, signed in",
    { who: "ana", path: () => "auth.session,render.allowance,render.gallery,system.landingStats?batch=1" },
  ],
  ["a batch of one", { who: "ana", path: () => batch(["render.job", { id: ids.anaJob }]) }],
  [
    "a batch with inputs and an undefined input, as httpBatchLink sends them",
    { who: "ana", path: () => batch(["projects.list", { limit: 2 }], ["render.list"], ["render.job", { id: ids.anaJob }]) },
  ],
  [
    "a mixed batch (207)",
    { status: 207, who: "ana", path: () => batch(["projects.list"], ["projects.get", { id: "nope" }], ["render.job", {}]) },
  ],
  [
    "a batch whose calls all fail the same way (401)",
    { status: 401, who: "nobody", path: () => batch(["account.profile"], ["billing.purchases"]) },
  ],
  [
    "a batch whose calls fail in different ways (207)",
    { status: 207, who: "nobody", path: () => batch(["account.profile"], ["render.upload", { id: "x" }]) },
  ],
  [
    "a batch whose input leaves a call out",
    { status: 207, who: "ana", path: () => `render.job,projects.list?batch=1&input=${encodeURIComponent('{"1":{"json":{"limit":1}}}')}` },
  ],
  // Left to tRPC's adapter in the app: the answer must still be the same.
  [
    "a batch with a mutation (left to tRPC)",
    { who: "ana", road: "trpc", path: () => batch(["projects.list"], ["projects.create", { name: "No" }]) },
  ],
  [
    "a batch with an unknown procedure (left to tRPC)",
    { who: "ana", road: "trpc", path: () => batch(["projects.list"], ["projects.nothing"]) },
  ],
  [
    "a batch whose input is not an object (left to tRPC)",
    { status: 400, who: "ana", road: "trpc", path: () => `render.job?batch=1&input=${encodeURIComponent('[{"json":{"id":"x"}}]')}` },
  ],
  [
    "a batch whose input is not JSON (left to tRPC)",
    { who: "ana", road: "trpc", path: () => "render.job,projects.list?batch=1&input=%7Bnope" },
  ],
];

const leftToTRPC: Array<[string, QueryCase]> = [
  ["a mutation over GET", { who: "ana", road: "trpc", path: () => call("projects.create", { name: "No" }) }],
  ["an unknown procedure", { who: "ana", road: "trpc", path: () => "projects.nothing" }],
  ["input that is not JSON", { who: "ana", road: "trpc", path: () => "projects.get?input=%7Bnope" }],
  ["input that superjson cannot read", { who: "ana", road: "trpc", path: () => "projects.get?input=null" }],
  [
    "a streaming batch (trpc-accept: application/jsonl)",
    { who: "ana", road: "trpc", path: () => batch(["projects.list"]), headers: { "trpc-accept": "application/jsonl" } },
  ],
  [
    "a query asked for as a stream by Accept (tRPC refuses it unbatched)",
    { who: "ana", road: "trpc", path: () => "projects.list", headers: { accept: "application/jsonl" } },
  ],
  [
    "a batch asked for as a stream by Accept",
    { who: "ana", road: "trpc", path: () => batch(["projects.list"]), headers: { accept: "text/html, application/jsonl" } },
  ],
  [
    "a GET with a multipart body type (tRPC refuses it)",
    { who: "ana", road: "trpc", path: () => "projects.list", headers: { "content-type": "multipart/form-data; boundary=x" } },
  ],
  [
    "a GET with an octet-stream body type (tRPC refuses it)",
    { who: "ana", road: "trpc", path: () => "projects.list", headers: { "content-type": "application/octet-stream" } },
  ],
];

async function expectSameAnswer(testCase: QueryCase) {
  const { app, reference } = await both(testCase.path(), testCase.who, testCase.headers);
  expect(wire(app)).toEqual(wire(reference));
  if (testCase.status !== undefined) expect(reference.status).toBe(testCase.status);
  // The short road sends a Content-Length; tRPC's adapter streams its body (chunked).
  expect(app.headers["content-length"] !== undefined ? "fast" : "trpc", "the road that answered in the app").toBe(testCase.road ?? "fast");
  return reference;
}

function results(body: unknown): Array<{ result?: { data: unknown }; error?: unknown }> {
  return (Array.isArray(body) ? body : [body]) as Array<{ result?: { data: unknown }; error?: unknown }>;
}

describe("queries: the short road answers as tRPC's handler does", () => {
  it("has a success case for every query procedure of the router", () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
    const queries = Object.keys(procedures).filter((name) => procedures[name]!._def.type === "query");
    expect(Object.keys(successes).sort()).toEqual(queries.sort());
  });

  it.each(Object.entries(successes))("%s", async (procedure, testCase) => {
    const [item] = results(JSON.parse((await expectSameAnswer(testCase)).body));
    expect(item, `${procedure} answers a result`).toHaveProperty("result.data");
    expectRoundTrip(item!.result!.data);
  });

  it.each(errors)("%s", async (_, testCase) => {
    expect(results(JSON.parse((await expectSameAnswer(testCase)).body))[0]).toHaveProperty("error");
  });

  it.each(batches)("%s", async (_, testCase) => {
    for (const item of results(JSON.parse((await expectSameAnswer(testCase)).body))) if (item.result) expectRoundTrip(item.result.data);
  });

  it.each(leftToTRPC)("%s is left to tRPC's adapter, with the same answer", async (_, testCase) => {
    await expectSameAnswer(testCase);
  });

  it("a large answer compressed by the app decodes to the same bytes", async () => {
    const path = "auth.session,render.allowance,render.gallery,system.landingStats,render.list,account.sessions,admin.outbox?batch=1";
    const headers = { ...headersOf("admin"), "accept-encoding": "gzip" };
    const reference = await request(referenceBase, `/trpc/${path}`, headers);
    const app = await request(appBase, `/trpc/${path}`, headers);
    expect(app.headers["content-encoding"]).toBe("gzip");
    expect(Buffer.byteLength(app.body)).toBeGreaterThan(1024);
    expect(wire(app)).toEqual(wire(reference));
  });
});

// ---- render.events: the fan-out (render's event-fan-out.ts) ----

/** The render.events URL for an input, as httpSubscriptionLink writes it. */
function events(input: unknown, query = ""): string {
  return `/trpc/render.events?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}${query}`;
}

/** The owner's stored event ids (all jobs, or one job's rows), oldest first. */
async function storedIds(jobId?: string): Promise<number[]> {
  let query = server.deps.db.selectFrom("render_events").select("id").where("owner", "=", ids.anaOwner).orderBy("id");
  if (jobId) query = query.where("job_id", "=", jobId);
  return (await query.execute()).map((row) => row.id);
}

const open: Stream[] = [];
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});

async function streams(path: string, who: Who, extra: Record<string, string> = {}) {
  const reference = await Stream.open(referenceBase, path, headersOf(who, extra));
  const app = await Stream.open(appBase, path, headersOf(who, extra));
  open.push(reference, app);
  return { app, reference };
}

/** The head as compared: status and tRPC's SSE headers. */
function head(stream: Stream) {
  return wire({ status: stream.status, headers: stream.headers, body: "" }, true);
}

/** Same status and SSE headers; the fan-out answered (its own marker), or tRPC's adapter did. */
function expectSameHead(app: Stream, reference: Stream, road: "fan-out" | "trpc") {
  expect(head(app)).toEqual(head(reference));
  expect(app.headers["x-event-stream"] === "shared" ? "fan-out" : "trpc", "the road that answered in the app").toBe(road);
}

/** The data frames' superjson values round-trip through the transformer. */
function expectEventsRoundTrip(stream: Stream) {
  const data = stream.frames.filter((frame) => frame.id !== undefined);
  expect(data.length).toBeGreaterThan(0);
  for (const frame of data) expectRoundTrip(JSON.parse(frame.data!));
}

const frameCount = (count: number) => (stream: Stream) => stream.frames.length >= count;

describe("render.events: the fan-out streams as tRPC's handler does", () => {
  it("the connected frame and every stored event after lastEventId (input)", async () => {
    const stored = await storedIds();
    expect(stored.length).toBeGreaterThan(3);
    const { app, reference } = await streams(events({ lastEventId: String(stored[1]) }), "ana");
    expectSameHead(app, reference, "fan-out");
    const expected = 1 + stored.length - 2;
    expect(await app.until(frameCount(expected))).toBe(await reference.until(frameCount(expected)));
    expect(app.frames[0]).toEqual({ event: "connected", data: "{}" });
    expect(app.frames.slice(1).map((frame) => Number(frame.id))).toEqual(stored.slice(2));
    expectEventsRoundTrip(app);
  });

  it("every stored event when there is no lastEventId", async () => {
    const stored = await storedIds();
    const { app, reference } = await streams(events({}), "ana");
    expectSameHead(app, reference, "fan-out");
    expect(await app.until(frameCount(1 + stored.length))).toBe(await reference.until(frameCount(1 + stored.length)));
  });

  it("the Last-Event-ID header and the lastEventId query parameter take the place of input.lastEventId", async () => {
    const stored = await storedIds();
    const expected = 1 + stored.length - 3;
    for (const [path, headers] of [
      [events({ lastEventId: null }), { "last-event-id": String(stored[2]) }],
      [events({ lastEventId: "1" }, `&lastEventId=${stored[2]}`), {}],
      [events({}, `&Last-Event-Id=${stored[2]}`), {}],
    ] as const) {
      const { app, reference } = await streams(path, "ana", headers);
      expectSameHead(app, reference, "fan-out");
      expect(await app.until(frameCount(expected))).toBe(await reference.until(frameCount(expected)));
      expect(Number(app.frames[1]!.id)).toBe(stored[3]);
    }
  });

  it("one job's stored events (jobId)", async () => {
    const own = await storedIds(ids.anaJob);
    const { app, reference } = await streams(events({ jobId: ids.anaJob }), "ana");
    expectSameHead(app, reference, "fan-out");
    expect(await app.until(frameCount(1 + own.length))).toBe(await reference.until(frameCount(1 + own.length)));
  });

  it("live events, from a render started after the streams opened", async () => {
    const before = await storedIds();
    const live = { jobId: "" };
    const { app, reference } = await streams(events({ lastEventId: String(before.at(-1)) }), "ana");
    expectSameHead(app, reference, "fan-out");
    await Promise.all([app.until(frameCount(1)), reference.until(frameCount(1))]);
    const photo = await upload(server.url, clients.ana.jar, await roomPhoto(320, 240));
    const { jobs } = await clients.ana.client.render.create.mutate({
      projectId: ids.anaProject,
      imageId: photo.body.imageId,
      style: "japandi",
    });
    live.jobId = jobs[0]!.id;
    await waitForRenders(clients.ana, [live.jobId]);
    await scored(live.jobId);
    const after = await storedIds();
    const expected = 1 + after.length - before.length;
    expect(after.length - before.length).toBeGreaterThan(2);
    expect(await app.until(frameCount(expected))).toBe(await reference.until(frameCount(expected)));
    expect(app.frames.slice(1).map((frame) => Number(frame.id))).toEqual(after.slice(before.length));
    expectEventsRoundTrip(app);
  });

  it.each<[string, Who, () => string]>([
    ["a job the caller does not own", "bob", () => events({ jobId: ids.anaJob })],
    ["a caller who owns nothing (no session, no visitor cookie)", "nobody", () => events({})],
    ["bad input: a lastEventId too long", "ana", () => events({ lastEventId: "9".repeat(21) })],
    ["bad input: an empty jobId", "ana", () => events({ jobId: "" })],
    ["input that superjson cannot read", "ana", () => "/trpc/render.events?input=null"],
    ["no input at all (the procedure needs an object)", "ana", () => "/trpc/render.events"],
  ])("an error frame for %s (left to tRPC's procedure)", async (_, who, path) => {
    const { app, reference } = await streams(path(), who);
    expectSameHead(app, reference, "trpc");
    expect(await app.end()).toBe(await reference.end());
    expect(app.frames.map((frame) => frame.event)).toEqual(["connected", "serialized-error"]);
  });

  it.each<[string, string]>([
    ["a batched subscription", `/trpc/render.events?batch=1&input=${encodeURIComponent('{"0":{"json":{}}}')}`],
    ["input that is not JSON", "/trpc/render.events?input=%7Bnope"],
  ])("%s is answered by tRPC's handler (left to it)", async (_, path) => {
    const reference = await request(referenceBase, path, headersOf("ana"));
    const app = await request(appBase, path, headersOf("ana"));
    expect(wire(app)).toEqual(wire(reference));
    expect(app.headers["x-event-stream"]).toBeUndefined();
  });
});

// ---- Differences this test found in the fan-out, now fixed (decision 053) ----

describe("render.events: the edges where the fan-out once differed from tRPC", () => {
  it("the Content-Type is tRPC's, without a charset", async () => {
    const { app, reference } = await streams(events({}), "ana");
    expect(app.headers["x-event-stream"]).toBe("shared");
    expect(head(app)).toEqual(head(reference));
  });

  it("a HEAD request is answered 204 without a body, as tRPC does", async () => {
    const reference = await request(referenceBase, events({}), headersOf("ana"), "HEAD");
    const app = await Stream.open(appBase, events({}), headersOf("ana"), "HEAD");
    open.push(app);
    expect(app.status).toBe(reference.status);
  });

  it("a repeated lastEventId query parameter: tRPC reads the first", async () => {
    const stored = await storedIds();
    const { app, reference } = await streams(events({}, `&lastEventId=${stored[2]}&lastEventId=${stored[3]}`), "ana");
    const expected = 1 + stored.length - 3;
    expect(await app.until(frameCount(expected), 300)).toBe(await reference.until(frameCount(expected)));
  });

  it("a GET with a multipart body type is refused (405), as tRPC does", async () => {
    const headers = headersOf("ana", { "content-type": "multipart/form-data; boundary=x" });
    const reference = await request(referenceBase, events({}), headers);
    const app = await Stream.open(appBase, events({}), headers);
    open.push(app);
    expect(app.status).toBe(reference.status);
  });

  it("Accept: application/jsonl is refused unbatched (400), as tRPC does", async () => {
    const headers = headersOf("ana", { accept: "application/jsonl" });
    const reference = await request(referenceBase, events({}), headers);
    const app = await Stream.open(appBase, events({}), headers);
    open.push(app);
    expect(app.status).toBe(reference.status);
  });
});

// ---- The client's reader (client/lib/queries.ts) ----

/**
 * lib/queries.ts runs in the browser with React: here with fetch pointed at tRPC's own handler and
 * a stand-in for the three React functions useSharedQuery calls (state, effect, transition), so
 * that what it reads can be compared with what tRPC's own client reads from the same answers.
 */
describe("the client's first-paint reader reads what tRPC's handler writes", () => {
  const realFetch = globalThis.fetch;
  const shared: SharedPath[] = ["auth.session", "render.allowance", "render.gallery", "system.landingStats"];

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.doUnmock("react");
    vi.resetModules();
  });

  /** lib/queries.ts with its fetch sent to `base` (with `who`'s cookies); each reader's states are recorded. */
  async function loadReader(base: string, who: Who) {
    vi.resetModules();
    let record: (state: QueryState<unknown>) => void = () => {};
    vi.doMock("react", () => ({
      startTransition: (run: () => void) => run(),
      useEffect: (effect: () => void) => void effect(),
      // Each reader's setter records into the recorder in place when it was mounted.
      useState: (initial: unknown) => {
        const mine = record;
        return [typeof initial === "function" ? (initial as () => unknown)() : initial, (next: QueryState<unknown>) => mine(next)];
      },
    }));
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", { documentElement: { lang: "en" } });
    const cookie = who === "nobody" ? undefined : clients[who].jar.header();
    vi.stubGlobal("fetch", (url: string, init: RequestInit) =>
      realFetch(new URL(url.replace(/^\/trpc\//, ""), `${base}/`), {
        ...init,
        headers: { ...(init.headers as object), ...(cookie ? { cookie } : {}) },
      }),
    );
    const queries = await import("../../src/client/lib/queries");
    /** Follows every shared query as a mounted part would, and resolves with what each settled on. */
    return async () => {
      const states = new Map<SharedPath, QueryState<unknown>>();
      for (const path of shared) {
        record = (state) => void states.set(path, state);
        queries.useSharedQuery(path);
      }
      return waitUntil(() => states, {
        message: "every shared query to settle",
        until: (all) => shared.every((path) => all.get(path)?.isLoading === false),
      });
    };
  }

  function trpcClient(base: string, who: Who) {
    const cookie = who === "nobody" ? undefined : clients[who].jar.header();
    return createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: base, transformer: superjson, fetch: realFetch, headers: cookie ? { cookie } : {} })],
    });
  }

  it.each<Who>(["nobody", "ana"])("answers (%s): the same data as tRPC's client", async (who) => {
    const settled = await (await loadReader(`${referenceBase.origin}/trpc`, who))();
    const client = trpcClient(`${referenceBase.origin}/trpc`, who);
    const expected = await Promise.all([
      client.auth.session.query(),
      client.render.allowance.query(),
      client.render.gallery.query(),
      client.system.landingStats.query(),
    ]);
    expect(shared.map((path) => settled.get(path)!.error)).toEqual([null, null, null, null]);
    expect(shared.map((path) => settled.get(path)!.data)).toStrictEqual(expected);
    if (who === "ana") expect((expected[0] as { user: { id: string } | null }).user?.id).toBe(clients.ana.userId);
  });

  it("errors: the same message as tRPC's client", async () => {
    const settled = await (await loadReader(`${referenceBase.origin}/failing/trpc`, "nobody"))();
    const failure = await trpcClient(`${referenceBase.origin}/failing/trpc`, "nobody")
      .auth.session.query()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TRPCClientError);
    for (const path of shared) {
      expect(settled.get(path)!.data).toBeUndefined();
      expect((settled.get(path)!.error as Error).message).toBe((failure as TRPCClientError<AppRouter>).message);
    }
  });
});

// ---- The transformer, over everything sent above ----

describe("the output transformer", () => {
  it("round-tripped every value the app sent in this file (answers and events) as superjson does", () => {
    // Each was checked where it was received (expectRoundTrip); this says they were many and of what kinds.
    expect(sent.length).toBeGreaterThan(50);
  });
});

// ---- Shutdown: last, it closes the app's event streams ----

describe("render.events at shutdown", () => {
  it("ends each stream with tRPC's return frame", async () => {
    const stored = await storedIds();
    const { app, reference } = await streams(events({ lastEventId: String(stored.at(-1)) }), "ana");
    expectSameHead(app, reference, "fan-out");
    await Promise.all([app.until(frameCount(1)), reference.until(frameCount(1))]);
    server.services.render.closeEventStreams();
    expect(await app.end()).toBe(await reference.end());
    expect(app.frames.map((frame) => frame.event)).toEqual(["connected", "return"]);
  });
});
