/**
 * The self-test suite (src/selftest/suite.ts) against the real running server over HTTP,
 * as the command line runs it (real tRPC client and cookies, a sharp PNG, no pauses): every step
 * passes on a healthy server, and each reports its spec text when its fault is injected by
 * changing the real system (rows, triggers, directories, configuration, the clock), never by
 * mocking the suite.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { AppDatabase } from "../../src/server/db/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import {
  AUTH_TESTS,
  SELF_TEST_COMPLETE,
  SELF_TEST_REPORTS,
  SYSTEM_TESTS,
  englishCheckDetail,
  runSelfTests,
  type SelfTestEnvironment,
  type SelfTestItem,
  type SelfTestSuiteName,
} from "../../src/selftest/suite";
import { checkDiskSpace, checkMailTransport, checkRenderProvider } from "../../src/server/services/system-checks";
import { createRateCounts, rateCountKey } from "../../src/server/coordination";
import { createStudioClient, PASSWORD, roomPhoto, signedInClient, uniqueEmail, upload, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { databaseLane } from "../helpers/test-env";
import { startSmtpServer } from "../helpers/smtp";
import { MINUTE, TestClock } from "../helpers/test-clock";

type SignedIn = StudioClient & { email: string; userId: string };

async function makeAdmin(server: TestServer): Promise<SignedIn> {
  const studio = await signedInClient(server.url, uniqueEmail());
  await server.deps.db.insertInto("user_roles").values({ user_id: studio.userId, role: "admin", created_at: Date.now() }).execute();
  return studio;
}

const testPng = () =>
  sharp({ create: { width: 100, height: 100, channels: 3, background: { r: 79, g: 70, b: 229 } } })
    .png()
    .toBuffer();

/** The command line's environment, with the pauses recorded instead of slept. */
function nodeEnvironment(
  server: TestServer,
  studio: StudioClient,
  extra: Partial<SelfTestEnvironment> = {},
): SelfTestEnvironment & { pauses: number[] } {
  const pauses: number[] = [];
  return {
    client: studio.client,
    baseUrl: server.url,
    fetch: studio.jar.fetch,
    makeTestPng: testPng,
    sleep: async (ms) => {
      pauses.push(ms);
    },
    visitorClient: createStudioClient(server.url).client,
    pauses,
    ...extra,
  };
}

/**
 * Runs a suite and checks that everything it says can be shown in the admin's language (issue 17):
 * an item's message is the English of its texts (a server check's with "<Step> error: " before
 * it), or one of the spec's report texts, with what was found under it as texts too.
 */
async function runTranslatable(...args: Parameters<typeof runSelfTests>): Promise<SelfTestItem[]> {
  const items = await runSelfTests(...args);
  const reports: string[] = Object.values(SELF_TEST_REPORTS);
  for (const item of items.filter((item) => item.status !== "pending")) {
    const said = item.message?.replace(/^Error: /, "") ?? "";
    if (reports.includes(said)) {
      if (item.detailTexts) expect(item.detail, item.id).toBe(englishCheckDetail(item.detailTexts));
      continue;
    }
    expect(item.texts?.length, `${item.id} has no texts: ${item.message}`).toBeGreaterThan(0);
    expect(said.endsWith(englishCheckDetail(item.texts!)), `${item.id}: ${said}`).toBe(true);
  }
  return items;
}

async function run(suite: SelfTestSuiteName, env: SelfTestEnvironment, only?: string[]): Promise<Record<string, SelfTestItem>> {
  const items = await runTranslatable(suite, env, undefined, only ? { only } : {});
  return Object.fromEntries(items.map((item) => [item.id, item]));
}

const failures = (items: readonly SelfTestItem[]) =>
  items.filter((item) => item.status !== "passed").map((item) => `${item.id}: ${item.message}`);

/** Moves the real DATA_DIR/storage/project-uploads aside and puts a FILE in its place (root ignores chmod). */
function breakStorage(server: TestServer): () => void {
  const bucket = path.join(server.deps.env.DATA_DIR, "storage", "project-uploads");
  const aside = `${bucket}.aside`;
  fs.mkdirSync(bucket, { recursive: true });
  fs.renameSync(bucket, aside);
  fs.writeFileSync(bucket, "not a directory");
  return () => {
    fs.rmSync(bucket, { force: true });
    fs.renameSync(aside, bucket);
  };
}

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A small stand-in for the engines' APIs: Replicate GET /v1/account and OpenAI GET /v1/models/<id>. */
async function startFakeEngineApi(options: { token: string; models: string[]; hang?: boolean }) {
  const server = http.createServer((req, res) => {
    if (options.hang) return;
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${options.token}`) return send(401, { title: "Unauthenticated", detail: "Invalid token" });
    const url = new URL(req.url ?? "/", "http://fake");
    if (req.method === "GET" && url.pathname === "/v1/account") return send(200, { type: "user", username: "studio", name: "Studio" });
    const model = /^\/v1\/models\/([^/]+)$/.exec(url.pathname)?.[1];
    if (req.method === "GET" && model) {
      return options.models.includes(decodeURIComponent(model))
        ? send(200, { id: model, object: "model" })
        : send(404, { error: { message: `The model '${model}' does not exist` } });
    }
    send(404, { detail: "Not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Makes the database refuse every new row of `table` with `message` (a trigger), until the returned
 * function removes it: SQLite's RAISE, or on PostgreSQL a trigger function that raises.
 */
async function refuseInserts(db: AppDatabase, table: string, message: string): Promise<() => Promise<void>> {
  const name = `self_test_no_${table}`;
  if (databaseLane() === "postgres") {
    await sql
      .raw(`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '${message}'; END $$ LANGUAGE plpgsql`)
      .execute(db);
    await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`).execute(db);
    return async () => {
      await sql.raw(`DROP TRIGGER ${name} ON ${table}`).execute(db);
      await sql.raw(`DROP FUNCTION ${name}()`).execute(db);
    };
  }
  await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, '${message}'); END`).execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER ${name}`).execute(db);
  };
}

describe("self-test suite against a healthy server", () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let admin: SignedIn;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer({
      STRIPE_SECRET_KEY: "sk_test_selftest",
      SMTP_URL: smtp.url,
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      BACKUP_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "rc-selftest-backups-")),
    });
    admin = await makeAdmin(server);
    // A backup taken, so the backups check passes (with none ever taken it warns).
    await server.services.backups.runIfDue();
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  it("runs every system item one after another (pending → running → passed) with 500 ms pauses, and all pass", async () => {
    const env = nodeEnvironment(server, admin);
    const snapshots: Array<readonly SelfTestItem[]> = [];
    const items = await runTranslatable("system", env, (live) => snapshots.push(live));

    expect(failures(items)).toEqual([]);
    expect(items.map((item) => item.id)).toEqual(SYSTEM_TESTS.map((test) => test.id));
    expect(env.pauses).toEqual(Array.from({ length: SYSTEM_TESTS.length - 1 }, () => 500));
    // First everything pending; never two running at once; each item goes pending → running → passed.
    expect(snapshots[0]!.every((item) => item.status === "pending")).toBe(true);
    expect(snapshots.every((snapshot) => snapshot.filter((item) => item.status === "running").length <= 1)).toBe(true);
    for (const [index, test] of SYSTEM_TESTS.entries()) {
      const history = snapshots.map((snapshot) => snapshot[index]!.status).filter((status, at, all) => at === 0 || all[at - 1] !== status);
      expect(history, test.id).toEqual(["pending", "running", "passed"]);
    }
    // One after another: an item starts only once the one before it has finished.
    for (const snapshot of snapshots) {
      const running = snapshot.findIndex((item) => item.status === "running");
      if (running > 0) expect(snapshot.slice(0, running).every((item) => item.status === "passed")).toBe(true);
    }
    const byId = Object.fromEntries(items.map((item) => [item.id, item]));
    expect(byId["ai-render-validation"]!.message).toContain(MESSAGES.missingRequiredFields);
    expect(byId["purchase-credits"]!.message).toContain(MESSAGES.notAuthenticated);
    expect(byId["purchase-credits"]!.message).toContain("Stripe key configured");
    expect(byId["mail-transport"]!.message).toMatch(/^SMTP server smtp:\/\/127\.0\.0\.1:\d+ accepted the connection$/);
    expect(byId["render-provider"]!.message).toBe("Preview engine (offline)");
    expect(items.every((item) => typeof item.durationMs === "number")).toBe(true);
    // Nothing of the checks is left behind: no throw-away project, no upload.
    expect(
      (await admin.client.projects.list.query({ limit: 100 })).projects.filter((project) => project.name.startsWith("Self-test")),
    ).toEqual([]);
    const uploads = await server.deps.db.selectFrom("uploads").select("id").where("user_id", "=", admin.userId).execute();
    expect(uploads).toEqual([]);
  });

  it("runs every auth item with 1000 ms pauses, as the browser (current session) and with credentials (a real sign-in)", async () => {
    const browser = nodeEnvironment(server, admin, { expectedUser: { id: admin.userId, email: admin.email } });
    const asBrowser = await runTranslatable("auth", browser);
    expect(failures(asBrowser)).toEqual([]);
    expect(asBrowser.map((item) => item.id)).toEqual(AUTH_TESTS.map((test) => test.id));
    expect(browser.pauses).toEqual(Array.from({ length: AUTH_TESTS.length - 1 }, () => 1000));
    expect(asBrowser.find((item) => item.id === "sign-up-existing")!.message).toBe(
      `Refused: "${MESSAGES.userAlreadyRegistered}" (expected)`,
    );
    expect(asBrowser.find((item) => item.id === "sign-in")!.message).toContain("current session");
    expect(asBrowser.find((item) => item.id === "roles-read")!.message).toBe("Roles: admin (admin)");

    const cli = nodeEnvironment(server, admin, { credentials: { email: admin.email, password: PASSWORD } });
    const withCredentials = await runTranslatable("auth", cli);
    expect(failures(withCredentials)).toEqual([]);
    expect(withCredentials.find((item) => item.id === "sign-in")!.message).toBe(`Signed in as ${admin.email}`);
    expect(SELF_TEST_COMPLETE).toEqual({ system: "Testing Complete", auth: "Authentication Testing Complete" });
  });

  it("records runs for /admin (source browser unless told), lists them newest first", async () => {
    const env = nodeEnvironment(server, admin);
    const items = await runTranslatable("auth", env, undefined, { record: "cli" });
    const later = Date.now() + 60_000;
    await admin.client.selfTest.recordRun.mutate({
      suite: "system",
      startedAt: later - 1000,
      finishedAt: later,
      items: [{ id: "x", name: "X", status: "failed", message: "Error: boom" }],
    });
    const runs = await admin.client.selfTest.runs.query({ limit: 10 });
    expect(runs[0]).toMatchObject({ suite: "system", source: "browser", passed: 0, failed: 1, userEmail: admin.email });
    const cliRun = runs.find((entry) => entry.source === "cli")!;
    expect(cliRun).toMatchObject({ suite: "auth", passed: items.length, failed: 0, userEmail: admin.email });
    expect(cliRun.items.map((item) => item.id)).toEqual(AUTH_TESTS.map((test) => test.id));
  });

  it("refuses the admin checks to a non-admin (FORBIDDEN) and a visitor (UNAUTHORIZED); the user's own checks still pass", async () => {
    const user = await signedInClient(server.url, uniqueEmail());
    for (const call of [
      () => user.client.selfTest.check.mutate({ name: "disk-space" }),
      () => user.client.selfTest.runs.query(),
      () =>
        user.client.selfTest.recordRun.mutate({
          suite: "auth",
          startedAt: 1,
          finishedAt: 2,
          items: [{ id: "x", name: "X", status: "passed" }],
        }),
    ]) {
      await expect(call()).rejects.toMatchObject({ message: MESSAGES.adminRequired, data: { code: "FORBIDDEN" } });
    }
    const visitor = createStudioClient(server.url);
    await expect(visitor.client.selfTest.check.mutate({ name: "disk-space" })).rejects.toMatchObject({ data: { code: "UNAUTHORIZED" } });
    await expect(visitor.client.selfTest.profile.query({ columns: "all" })).rejects.toMatchObject({ message: MESSAGES.notAuthenticated });

    const items = await run("system", nodeEnvironment(server, user));
    for (const id of ["database-integrity", "disk-space", "mail-transport", "render-provider", "render-queue"]) {
      expect(items[id]!.status, id).toBe("failed");
    }
    expect(items["database-integrity"]!.message).toBe(`Error: Database integrity error: ${SELF_TEST_REPORTS.accessDenied}`);
    expect(items["render-queue"]!.message).toBe(`Error: Render queue error: ${SELF_TEST_REPORTS.accessDenied}`);
    for (const id of [
      "profile-read",
      "project-crud",
      "route-protection",
      "storage",
      "ai-render-validation",
      "purchase-credits",
      "unknown-function",
    ]) {
      expect(items[id]!.status, `${id}: ${items[id]!.message}`).toBe("passed");
    }
  });

  describe("faults", () => {
    it('profile row missing → "User profile not found" and "Profile not created automatically"', async () => {
      const owner = await makeAdmin(server);
      const db = server.deps.db;
      await db.deleteFrom("profiles").where("user_id", "=", owner.userId).execute();

      expect((await run("system", nodeEnvironment(server, owner), ["profile-read"]))["profile-read"]).toMatchObject({
        status: "failed",
        message: `Error: ${SELF_TEST_REPORTS.profileNotFound}`,
      });
      const browser = await run("auth", nodeEnvironment(server, owner), ["sign-in", "sign-in-profile"]);
      expect(browser["sign-in"]!.status).toBe("passed");
      expect(browser["sign-in-profile"]).toMatchObject({ status: "failed", message: `Error: ${SELF_TEST_REPORTS.profileNotCreated}` });

      // Signing in creates the missing profile (spec section 4)...
      const credentials = { email: owner.email, password: PASSWORD };
      expect(
        (await run("auth", nodeEnvironment(server, owner, { credentials }), ["sign-in", "sign-in-profile"]))["sign-in-profile"]!.status,
      ).toBe("passed");
      // ...unless the database refuses it: then the check says so.
      await db.deleteFrom("profiles").where("user_id", "=", owner.userId).execute();
      const allowInserts = await refuseInserts(db, "profiles", "profiles are read-only");
      try {
        const cli = await run("auth", nodeEnvironment(server, owner, { credentials }), ["sign-in", "sign-in-profile"]);
        expect(cli["sign-in"]!.status).toBe("passed");
        expect(cli["sign-in-profile"]).toMatchObject({ status: "failed", message: `Error: ${SELF_TEST_REPORTS.profileNotCreated}` });
      } finally {
        await allowInserts();
      }
    });

    it('the session changes to another user → "Session/user state mismatch"; no session → "Session read error: ..."', async () => {
      const owner = await makeAdmin(server);
      const other = await signedInClient(server.url, uniqueEmail());
      // Another tab signs in as someone else: the cookie now belongs to `other`.
      await owner.client.auth.signIn.mutate({ email: other.email, password: PASSWORD });
      const mismatch = await run("auth", nodeEnvironment(server, owner, { expectedUser: { id: owner.userId, email: owner.email } }), [
        "session-read",
        "session-user",
      ]);
      expect(mismatch["session-read"]!.status).toBe("passed");
      expect(mismatch["session-user"]).toMatchObject({ status: "failed", message: `Error: ${SELF_TEST_REPORTS.sessionMismatch}` });
      expect(mismatch["session-user"]!.detail).toContain(other.email);

      await owner.client.auth.signOut.mutate();
      const signedOut = await run("auth", nodeEnvironment(server, owner), ["session-read"]);
      expect(signedOut["session-read"]).toMatchObject({
        status: "failed",
        message: `Error: Session read error: ${MESSAGES.notAuthenticated}`,
      });
    });

    it('a wrong password → "Sign in error: Invalid login credentials"', async () => {
      const owner = await makeAdmin(server);
      const items = await run(
        "auth",
        nodeEnvironment(server, owner, { credentials: { email: owner.email, password: "Wrong-Password1" } }),
        ["sign-in"],
      );
      expect(items["sign-in"]).toMatchObject({ status: "failed", message: `Error: Sign in error: ${MESSAGES.invalidCredentials}` });
    });

    it('projects cannot be written → "Project error: ..." (and the storage test\'s project with it)', async () => {
      const db = server.deps.db;
      const allowInserts = await refuseInserts(db, "projects", "projects are read-only");
      try {
        const items = await run("system", nodeEnvironment(server, admin), ["project-crud", "storage"]);
        expect(items["project-crud"]).toMatchObject({ status: "failed", message: `Error: Project error: ${MESSAGES.internalError}` });
        expect(items["storage"]).toMatchObject({ status: "failed", message: `Error: Storage error: ${MESSAGES.internalError}` });
      } finally {
        await allowInserts();
      }
    });

    it('the uploads bucket is not writable → "Storage error: ..." with the server\'s reason, and nothing left behind', async () => {
      const restore = breakStorage(server);
      try {
        const items = await run("system", nodeEnvironment(server, admin), ["storage"]);
        expect(items["storage"]!.status).toBe("failed");
        expect(items["storage"]!.message).toMatch(/^Error: Storage error: upload answered HTTP 500 \(Internal error\); ENOTDIR/);
      } finally {
        restore();
      }
      expect(
        (await admin.client.projects.list.query({ limit: 100 })).projects.filter((project) => project.name.startsWith("Self-test")),
      ).toEqual([]);
      expect((await run("system", nodeEnvironment(server, admin), ["storage"]))["storage"]!.status).toBe("passed");
    });

    it('the person testing is signed out → "Route protection error: User not authenticated"', async () => {
      const owner = await makeAdmin(server);
      await owner.client.auth.signOut.mutate();
      const items = await run("system", nodeEnvironment(server, owner), ["route-protection"]);
      expect(items["route-protection"]).toMatchObject({
        status: "failed",
        message: `Error: Route protection error: ${MESSAGES.notAuthenticated}`,
      });
    });

    it('the roles table cannot be read → "Roles read error: ..."', async () => {
      const db = server.deps.db;
      await sql`ALTER TABLE user_roles RENAME TO user_roles_hidden`.execute(db);
      try {
        const items = await run("auth", nodeEnvironment(server, admin), ["roles-read"]);
        expect(items["roles-read"]).toMatchObject({ status: "failed", message: `Error: Roles read error: ${MESSAGES.internalError}` });
      } finally {
        await sql`ALTER TABLE user_roles_hidden RENAME TO user_roles`.execute(db);
      }
    });

    // SQLite's foreign_keys pragma; PostgreSQL never lets a row past its foreign key (its own check follows).
    it.skipIf(databaseLane() === "postgres")('a broken foreign key in the database → "Database integrity error: ..."', async () => {
      const db = server.deps.db;
      await sql`PRAGMA foreign_keys = OFF`.execute(db);
      await sql`INSERT INTO projects (id, user_id, name, project_type, settings, created_at, updated_at) VALUES ('orphanproject', 'no-such-user', 'Orphan', 'room_rendering', '{}', 0, 0)`.execute(
        db,
      );
      await sql`PRAGMA foreign_keys = ON`.execute(db);
      try {
        const items = await run("system", nodeEnvironment(server, admin), ["database-integrity"]);
        expect(items["database-integrity"]!.status).toBe("failed");
        expect(items["database-integrity"]!.message).toMatch(
          /^Error: Database integrity error: 1 foreign key violation: projects row \d+ → users$/,
        );
      } finally {
        await db.deleteFrom("projects").where("id", "=", "orphanproject").execute();
      }
    });

    it.skipIf(databaseLane() !== "postgres")('an index PostgreSQL marks invalid → "Database integrity error: ..."', async () => {
      const db = server.deps.db;
      // What a failed CREATE INDEX CONCURRENTLY leaves (the lane's cluster runs as a superuser).
      await sql`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'projects_user_id_idx'::regclass`.execute(db);
      try {
        const items = await run("system", nodeEnvironment(server, admin), ["database-integrity"]);
        expect(items["database-integrity"]!.status).toBe("failed");
        expect(items["database-integrity"]!.message).toBe(
          "Error: Database integrity error: PostgreSQL found problems (1 in all): index projects_user_id_idx is not valid",
        );
      } finally {
        await sql`UPDATE pg_index SET indisvalid = true WHERE indexrelid = 'projects_user_id_idx'::regclass`.execute(db);
      }
    });

    it('a server that answers every path → "Non-existent function error: ..."', async () => {
      const everything = http.createServer((_req, res) =>
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result: { data: { json: null } } })),
      );
      await new Promise<void>((resolve) => everything.listen(0, "127.0.0.1", resolve));
      try {
        const url = `http://127.0.0.1:${(everything.address() as AddressInfo).port}`;
        const studio = createStudioClient(url);
        const items = await run("system", { ...nodeEnvironment(server, studio), baseUrl: url }, ["unknown-function"]);
        expect(items["unknown-function"]).toMatchObject({
          status: "failed",
          message: "Error: Non-existent function error: the server answered a procedure that does not exist",
        });
      } finally {
        everything.closeAllConnections();
        await new Promise<void>((resolve) => everything.close(() => resolve()));
      }
    });
  });
});

describe("self-test suite against a misconfigured server", () => {
  let server: TestServer;
  let engine: Awaited<ReturnType<typeof startFakeEngineApi>>;
  let admin: SignedIn;
  let smtpPort: number;
  const clock = new TestClock(Date.now());

  beforeAll(async () => {
    engine = await startFakeEngineApi({ token: "r8_right", models: [] });
    smtpPort = await closedPort();
    server = await startTestServer(
      {
        // No STRIPE_SECRET_KEY; SMTP on a port where nothing listens; Replicate refusing the token.
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        RENDER_PROVIDER: "replicate",
        REPLICATE_API_TOKEN: "r8_wrong",
        REPLICATE_API_URL: engine.url,
        AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      },
      // A stopped worker (renders wait forever) and a clock that only moves when told.
      { clock, startWorker: false },
    );
    admin = await makeAdmin(server);
  });
  afterAll(async () => {
    await server?.stop();
    await engine?.close();
  });

  it("reports the missing Stripe key, the unreachable mail server and the refused render provider", async () => {
    const items = await run("system", nodeEnvironment(server, admin), ["purchase-credits", "mail-transport", "render-provider"]);
    expect(items["purchase-credits"]).toMatchObject({ status: "warning", message: SELF_TEST_REPORTS.stripeNotConfigured });
    expect(items["mail-transport"]!.status).toBe("failed");
    expect(items["mail-transport"]!.message).toMatch(
      new RegExp(`^Error: Mail error: SMTP server smtp://127\\.0\\.0\\.1:${smtpPort}: .*ECONNREFUSED`),
    );
    expect(items["render-provider"]).toMatchObject({
      status: "failed",
      message: "Error: Render provider error: Replicate refused the API token (HTTP 401)",
    });
  });

  it('a render waiting 11 minutes with no worker running, or with a live worker\'s slots free, or running past its deadline → "Render queue error: ..."', async () => {
    const env = nodeEnvironment(server, admin);
    // Replicate bills each render: free credits need the confirmed address. With SMTP set the outbox
    // keeps no mail body (and this SMTP server is down), so the address is marked confirmed directly.
    await server.deps.db.updateTable("users").set({ email_confirmed_at: clock.now() }).where("id", "=", admin.userId).execute();
    const photo = await upload(server.url, admin.jar, await roomPhoto(400, 300));
    expect(photo.status).toBe(201);
    const { jobs } = await admin.client.render.create.mutate({
      projectId: photo.body.projectId,
      imageId: photo.body.imageId,
      style: "modern",
    });
    // This instance's worker is stopped and no other was seen: a warning, until a render has waited too long.
    expect((await run("system", env, ["render-queue"]))["render-queue"]).toMatchObject({
      status: "warning",
      message:
        "Render queue: no render worker is running (none seen in the last 1 min): renders wait until one starts (ROLE=worker or ROLE=all); " +
        "1 waiting, 0 rendering, 0 of 0 slots busy, oldest waiting 0 s",
    });

    clock.advance(11 * MINUTE);
    expect((await run("system", env, ["render-queue"]))["render-queue"]).toMatchObject({
      status: "failed",
      message:
        "Error: Render queue error: 1 render has waited 11 min and no render worker is running (none seen in the last 1 min): " +
        "start one (ROLE=worker or ROLE=all)",
    });

    // A worker on another instance, alive (seen now) with two slots, that does not take the render.
    const stuckWorker = { instance_id: "elsewhere:1:stuck", slots: 2, started_at: clock.now(), seen_at: clock.now() };
    await server.deps.db.insertInto("render_workers").values(stuckWorker).execute();
    expect((await run("system", env, ["render-queue"]))["render-queue"]).toMatchObject({
      status: "failed",
      message: "Error: Render queue error: 1 render has waited 11 min while the render workers have 2 of 2 slots free",
    });
    await server.deps.db.deleteFrom("render_workers").where("instance_id", "=", stuckWorker.instance_id).execute();

    const startedAt = clock.now() - server.deps.env.RENDER_DEADLINE_MS - 2 * MINUTE;
    await server.deps.db
      .updateTable("render_jobs")
      .set({ status: "rendering", started_at: startedAt })
      .where("id", "=", jobs[0]!.id)
      .execute();
    expect((await run("system", env, ["render-queue"]))["render-queue"]).toMatchObject({
      status: "failed",
      message: "Error: Render queue error: 1 render has been running for 4 min, past the 2 min deadline",
    });
    await server.deps.db
      .updateTable("render_jobs")
      .set({ status: "failed", finished_at: clock.now() })
      .where("id", "=", jobs[0]!.id)
      .execute();
  });

  it('ai-render answering anything but "Missing required fields" → "AI render validation failed"; a refused sign-up → "Sign up error: ..."', async () => {
    // The clock stands still, so emptied rate limits stay empty.
    for (const address of ["127.0.0.1", "::ffff:127.0.0.1"]) {
      while (await server.services.rateLimits.render.take(address));
      // The sign-up limit is counted in the database (decision 078): its window filled in one count.
      await createRateCounts({ db: server.deps.db, clock }).add(rateCountKey("signUp", address), MINUTE, 1_000_000);
    }
    const system = await run("system", nodeEnvironment(server, admin), ["ai-render-validation"]);
    expect(system["ai-render-validation"]).toMatchObject({
      status: "failed",
      message: `Error: ${SELF_TEST_REPORTS.aiRenderValidationFailed}`,
      detail: MESSAGES.tooManyRequests,
    });
    const auth = await run("auth", nodeEnvironment(server, admin), ["sign-up-existing"]);
    expect(auth["sign-up-existing"]).toMatchObject({ status: "failed", message: `Error: Sign up error: ${MESSAGES.tooManyRequests}` });
  });
});

describe("box checks", () => {
  it("free disk space: below the limits is a failure naming what is free", async () => {
    const dir = fs.mkdtempSync(path.join((await import("node:os")).tmpdir(), "disk-"));
    expect(await checkDiskSpace(dir, { minFreeBytes: 0, minFreeFraction: 0 })).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/ free of .* at /),
    });
    const full = await checkDiskSpace(dir, { minFreeBytes: Number.MAX_SAFE_INTEGER, minFreeFraction: 0 });
    expect(full.ok).toBe(false);
    expect(full.detail).toMatch(/^only .* free of .*; needs at least .* and 0%$/);
  });

  it("mail transport: the built-in outbox passes; a real SMTP server is verified", async () => {
    expect(await checkMailTransport({ SMTP_URL: undefined })).toMatchObject({
      ok: true,
      detail: "Built-in outbox (set SMTP_URL to send mail)",
    });
    const smtp = await startSmtpServer();
    try {
      expect(await checkMailTransport({ SMTP_URL: smtp.url })).toMatchObject({ ok: true });
    } finally {
      await smtp.close();
    }
  });

  it("render provider: Replicate and OpenAI answered with their keys, refusals, unknown model, unreachable, no answer", async () => {
    const api = await startFakeEngineApi({ token: "key_right", models: ["gpt-image-1"] });
    const base = {
      REPLICATE_API_URL: api.url,
      REPLICATE_MODEL: "adirik/interior-design",
      OPENAI_API_URL: api.url,
      OPENAI_MODEL: "gpt-image-1",
      REPLICATE_API_TOKEN: "key_right",
      OPENAI_API_KEY: "key_right",
    };
    try {
      expect(await checkRenderProvider({ ...base, RENDER_PROVIDER: "local" })).toMatchObject({
        ok: true,
        detail: "Preview engine (offline)",
      });
      expect(await checkRenderProvider({ ...base, RENDER_PROVIDER: "replicate" })).toMatchObject({
        ok: true,
        detail: "Replicate reachable (account studio), model adirik/interior-design",
      });
      expect(await checkRenderProvider({ ...base, RENDER_PROVIDER: "openai" })).toMatchObject({
        ok: true,
        detail: "OpenAI reachable, model gpt-image-1 available",
      });
      expect(await checkRenderProvider({ ...base, RENDER_PROVIDER: "openai", OPENAI_API_KEY: "key_wrong" })).toMatchObject({
        ok: false,
        detail: "OpenAI refused the API key (HTTP 401)",
      });
      expect(await checkRenderProvider({ ...base, RENDER_PROVIDER: "openai", OPENAI_MODEL: "dall-e-9" })).toMatchObject({
        ok: false,
        detail: "OpenAI does not offer the model dall-e-9 to this key (HTTP 404)",
      });
      const port = await closedPort();
      const unreachable = await checkRenderProvider({
        ...base,
        RENDER_PROVIDER: "replicate",
        REPLICATE_API_URL: `http://127.0.0.1:${port}`,
      });
      expect(unreachable.ok).toBe(false);
      expect(unreachable.detail).toMatch(/^Replicate could not be reached: fetch failed \(connect ECONNREFUSED/);
    } finally {
      await api.close();
    }
    const silent = await startFakeEngineApi({ token: "key_right", models: [], hang: true });
    try {
      expect(
        await checkRenderProvider({ ...base, RENDER_PROVIDER: "openai", OPENAI_API_URL: silent.url }, { timeoutMs: 300 }),
      ).toMatchObject({
        ok: false,
        detail: "OpenAI did not answer within 300 ms",
      });
    } finally {
      await silent.close();
    }
  });
});
