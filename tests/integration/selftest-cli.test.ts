/**
 * `npm run selftest` (scripts/selftest.ts) as its own process against a server started here:
 * exit 0 and the table when everything passes, non-zero with the storage failure when the uploads
 * bucket cannot be written (a FILE where its directory was: root ignores chmod), 2 for usage
 * errors, an unreachable server or a refused sign-in.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { AUTH_TESTS, SYSTEM_TESTS } from "../../src/selftest/suite";
import { PASSWORD, signedInClient, uniqueEmail } from "../helpers/render";
import { runScript, type CliResult } from "../helpers/cli";
import { startTestServer, type TestServer } from "../helpers/server";
import { TestClock } from "../helpers/test-clock";

/** Runs the CLI asynchronously (the server lives in this process: a sync spawn would starve it). */
const selftest = (args: string[]): Promise<CliResult> => runScript("scripts/selftest.ts", args);

/**
 * The CLI on a terminal (util-linux `script` gives it one), typing `typed` once it asks for the
 * password: what the terminal showed, and the exit code.
 */
function selftestOnTerminal(args: string[], typed: string): Promise<{ code: number | null; screen: string }> {
  const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;
  const command = [process.execPath, "--import", "tsx", "scripts/selftest.ts", ...args].map(quote).join(" ");
  const env = { ...process.env };
  delete env.SELFTEST_PASSWORD;
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qefc", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
    let screen = "";
    let asked = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no end on the terminal:\n${screen}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      screen += chunk.toString();
      if (!asked && screen.includes("Password for ")) {
        asked = true;
        child.stdin.write(`${typed}\r`);
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const listener = http.createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const port = (listener.address() as AddressInfo).port;
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  return port;
}

// Each test starts the CLI as its own tsx process (five at once for the usage errors): their start-up
// grows with the machine's load, so these tests have runScript's 60 s rather than 20 s.
describe("npm run selftest", { timeout: 60_000 }, () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signedInClient>>;

  beforeAll(async () => {
    server = await startTestServer({
      STRIPE_SECRET_KEY: "sk_test_selftest",
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      BACKUP_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "rc-selftest-cli-backups-")),
    });
    admin = await signedInClient(server.url, uniqueEmail());
    await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("takes the password from SELFTEST_PASSWORD; one warning (no backup ever taken) reads '1 warning', here and in the recorded run", async () => {
    const result = await runScript(
      "scripts/selftest.ts",
      ["--url", server.url, "--email", admin.email, "--no-pause", "--suite", "system"],
      {
        env: { ...process.env, SELFTEST_PASSWORD: PASSWORD },
      },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}WARN {4}Backups +\d+ {2}Backups: no backup yet; every 1 d into /m);
    expect(result.stdout).toContain(`Testing Complete: ${SYSTEM_TESTS.length - 1} passed, 1 warning, 0 failed`);
    expect(result.stdout).toContain(
      `Passed with warnings: ${SYSTEM_TESTS.length - 1} passed, 1 warning, 0 failed of ${SYSTEM_TESTS.length}`,
    );
    // /admin's history tells the same: the recorded run keeps its warning.
    const [run] = await admin.client.selfTest.runs.query({ limit: 1 });
    expect(run).toMatchObject({ suite: "system", source: "cli", passed: SYSTEM_TESTS.length - 1, warnings: 1, failed: 0 });
  });

  it("asks for the password on a terminal without echoing it", async () => {
    const { code, screen } = await selftestOnTerminal(
      ["--url", server.url, "--email", admin.email, "--no-pause", "--suite", "auth"],
      PASSWORD,
    );
    expect(screen).toContain(`Password for ${admin.email}: `);
    expect(screen).not.toContain(PASSWORD);
    expect(screen).toContain(`signed in as ${admin.email} (admin)`);
    expect(screen).toContain(`Authentication Testing Complete: ${AUTH_TESTS.length} passed, 0 warnings, 0 failed`);
    expect(code).toBe(0);
  });

  it("exits 0 against a healthy server, prints the table with timings, records both runs and signs out", async () => {
    await server.services.backups.runIfDue();
    const before = Date.now();
    const result = await selftest(["--url", server.url, "--email", admin.email, "--password", PASSWORD, "--no-pause"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`RoomCanvas self-test of ${server.url}: signed in as ${admin.email} (admin)`);
    expect(lines).toContain("System tests");
    expect(lines).toContain("Auth tests");
    expect(lines.filter((line) => /^ {2}STATUS {2}TEST +MS {2}MESSAGE$/.test(line))).toHaveLength(2);
    for (const test of [...SYSTEM_TESTS, ...AUTH_TESTS]) {
      expect(
        lines.some((line) => new RegExp(`^ {2}PASS {4}${test.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} +\\d+ {2}\\S`).test(line)),
        test.name,
      ).toBe(true);
    }
    // Aligned: every result row has its ms column ending at the same place.
    const rows = lines.filter((line) => /^ {2}(PASS|FAIL) /.test(line));
    expect(new Set(rows.map((line) => /^ {2}\S+ +.*? +\d+ {2}/.exec(line)![0].length)).size).toBe(1);
    expect(result.stdout).toContain(`Testing Complete: ${SYSTEM_TESTS.length} passed, 0 warnings, 0 failed`);
    expect(result.stdout).toContain(`Authentication Testing Complete: ${AUTH_TESTS.length} passed, 0 warnings, 0 failed`);
    expect(result.stdout).toContain(
      `All passed: ${SYSTEM_TESTS.length + AUTH_TESTS.length} passed, 0 warnings, 0 failed of ${SYSTEM_TESTS.length + AUTH_TESTS.length}`,
    );

    const runs = await server.deps.db
      .selectFrom("self_test_runs")
      .selectAll()
      .where("user_id", "=", admin.userId)
      .where("source", "=", "cli")
      .where("started_at", ">=", before)
      .execute();
    expect(runs.map((run) => [run.suite, run.passed, run.failed]).sort()).toEqual([
      ["auth", AUTH_TESTS.length, 0],
      ["system", SYSTEM_TESTS.length, 0],
    ]);
    // Nothing left signed in: the sign-in test ended the CLI's first session, and the CLI signed out at the end.
    const sessions = await server.deps.db.selectFrom("sessions").select("id").where("user_id", "=", admin.userId).execute();
    expect(sessions).toHaveLength(1); // this test's own (signedInClient)
  });

  it("exits non-zero when the storage directory cannot be written, naming the storage failure", async () => {
    const bucket = path.join(server.deps.env.DATA_DIR, "storage", "project-uploads");
    fs.mkdirSync(bucket, { recursive: true });
    fs.renameSync(bucket, `${bucket}.aside`);
    // Tests run as root, which ignores chmod 0555: a file where the directory was stops root too.
    fs.writeFileSync(bucket, "not a directory");
    let result: CliResult;
    try {
      result = await selftest(["--url", server.url, "--email", admin.email, "--password", PASSWORD, "--no-pause", "--suite", "system"]);
    } finally {
      fs.rmSync(bucket, { force: true });
      fs.renameSync(`${bucket}.aside`, bucket);
    }
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^ {2}FAIL {4}Storage upload and removal +\d+ {2}Error: Storage error: upload answered HTTP 500 \(Internal error\); ENOTDIR/m,
    );
    expect(result.stdout).toContain(`Testing Complete: ${SYSTEM_TESTS.length - 1} passed, 0 warnings, 1 failed`);
    expect(result.stdout).toContain("FAILED: ");
  });

  it("exits 0 with warnings on a default install without Stripe and with an overdue backup, and 1 with --strict", async () => {
    const clock = new TestClock(Date.now());
    const overdue = await startTestServer(
      { BACKUP_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "rc-backups-")), BACKUP_EVERY: "5m" },
      { clock },
    );
    try {
      const owner = await signedInClient(overdue.url, uniqueEmail());
      await overdue.deps.db.insertInto("user_roles").values({ user_id: owner.userId, role: "admin", created_at: Date.now() }).execute();
      // Started 11 minutes ago with a 5-minute schedule and no backup yet.
      clock.advance(11 * 60_000);
      const args = ["--url", overdue.url, "--email", owner.email, "--password", PASSWORD, "--no-pause", "--suite", "system"];
      const result = await selftest(args);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(
        /^ {2}WARN {4}Backups +\d+ {2}Backups: no backup yet; older than twice the schedule \(every 5 min into /m,
      );
      expect(result.stdout).toMatch(/^ {2}WARN {4}Purchase credits +\d+ {2}Stripe secret key not configured$/m);
      expect(result.stdout).toContain(`Passed with warnings: ${SYSTEM_TESTS.length - 2} passed, 2 warnings, 0 failed`);
      const strict = await selftest([...args, "--strict"]);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toContain("FAILED (--strict: warnings fail)");
    } finally {
      await overdue.stop();
    }
  });

  it("--json prints the results as JSON", async () => {
    const result = await selftest([
      "--url",
      server.url,
      "--email",
      admin.email,
      "--password",
      PASSWORD,
      "--no-pause",
      "--suite",
      "auth",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      passed: number;
      failed: number;
      admin: boolean;
      suites: Array<{ suite: string; items: Array<{ id: string; status: string }> }>;
    };
    expect(report).toMatchObject({ passed: AUTH_TESTS.length, failed: 0, admin: true });
    expect(report.suites.map((suite) => suite.suite)).toEqual(["auth"]);
    expect(report.suites[0]!.items.map((item) => item.id)).toEqual(AUTH_TESTS.map((test) => test.id));
  });

  it("a non-admin gets the box checks refused (exit 1), with a hint", async () => {
    const user = await signedInClient(server.url, uniqueEmail());
    const result = await selftest(["--url", server.url, "--email", user.email, "--password", PASSWORD, "--no-pause", "--suite", "system"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`signed in as ${user.email} (not an admin)`);
    expect(result.stdout).toMatch(
      new RegExp(`FAIL {4}Database integrity +\\d+ {2}Error: Database integrity error: ${MESSAGES.adminRequired.replace(/\./g, "\\.")}`),
    );
    expect(result.stdout).toMatch(/PASS {4}Storage upload and removal/);
    expect(result.stdout).toContain("is not an admin: the box checks need an admin account");
  });

  it("exits 2 on usage errors, an unreachable server and a refused sign-in", async () => {
    const port = await closedPort();
    const withoutPassword = { ...process.env };
    delete withoutPassword.SELFTEST_PASSWORD;
    const [noUrl, badSuite, halfCredentials, passwordAlone, unreachable, wrongPassword] = await Promise.all([
      selftest([]),
      selftest(["--url", server.url, "--suite", "everything"]),
      // No SELFTEST_PASSWORD and no terminal to ask on.
      runScript("scripts/selftest.ts", ["--url", server.url, "--email", admin.email], { env: withoutPassword }),
      selftest(["--url", server.url, "--password", PASSWORD]),
      selftest(["--url", `http://127.0.0.1:${port}`]),
      selftest(["--url", server.url, "--email", admin.email, "--password", "Wrong-Password1"]),
    ]);
    expect(noUrl).toMatchObject({ code: 2, stdout: "" });
    expect(noUrl.stderr).toContain("--url is required");
    expect(noUrl.stderr).toContain("Usage: npm run selftest -- --url");
    expect(badSuite.code).toBe(2);
    expect(badSuite.stderr).toContain("--suite must be system, auth or all");
    expect(halfCredentials.code).toBe(2);
    expect(halfCredentials.stderr).toContain("--email needs a password: set SELFTEST_PASSWORD (or run on a terminal to be asked)");
    expect(passwordAlone.code).toBe(2);
    expect(passwordAlone.stderr).toContain("--password needs --email");
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(
      new RegExp(`^selftest: cannot reach http://127\\.0\\.0\\.1:${port}: fetch failed: connect ECONNREFUSED`),
    );
    expect(wrongPassword.code).toBe(2);
    expect(wrongPassword.stderr).toBe(`selftest: sign-in as ${admin.email} refused: ${MESSAGES.invalidCredentials}\n`);
  });
});
