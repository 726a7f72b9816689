/**
 * `npm run selftest -- --url http://localhost:3000 [--email E]`: the self-test suite of
 * the Quick Admin bar (src/selftest/suite.ts), run over HTTP against a running server with
 * the real tRPC client and cookies (scripts/lib/studio-client.ts), no private shortcuts.
 *
 * Options:
 *   --url URL          the server (required)
 *   --email E          an account to sign in with; most checks need a signed-in user and the box
 *                      checks (database, disk, mail, render provider, queue) need an admin. Its
 *                      password comes from SELFTEST_PASSWORD, else a prompt that does not echo it
 *                      (on a terminal), else --password (which other users of the machine can see
 *                      in the process list, and which the shell's history keeps)
 *   --password P       the password on the command line (prefer SELFTEST_PASSWORD or the prompt)
 *   --code CODE        the two-factor code, when the account has two-factor authentication
 *   --suite S          system, auth or all (default all)
 *   --json             print the results as JSON instead of the table
 *   --strict           warnings fail the run too (exit code 1)
 *   --no-pause         skip the spec's pauses between tests (500 ms system, 1000 ms auth)
 *
 * Prints a table (status, test, ms, message) as the tests run and a summary; signed in as an admin,
 * each suite's run is recorded on the server (source "cli") for /admin. Exit code: 0 when no
 * test failed (warnings, such as an overdue backup, do not fail unless --strict), 1 when any failed, 2 for a usage error, an unreachable server or a refused sign-in.
 */
import { parseArgs } from "node:util";
import sharp from "sharp";
import { SELF_TEST } from "../src/shared/constants";
import {
  SELF_TEST_COMPLETE,
  SELF_TEST_SUITES,
  messageOf,
  recordSelfTestRun,
  runSelfTests,
  summarize,
  type SelfTestEnvironment,
  type SelfTestItem,
  type SelfTestSuiteName,
} from "../src/selftest/suite";
import { CookieJar, createStudioClient } from "./lib/studio-client";

const USAGE = `Usage: npm run selftest -- --url http://localhost:3000 [--email E] [--code 123456] [--suite system|auth|all] [--json] [--strict] [--no-pause]
  The password of --email comes from SELFTEST_PASSWORD, else a prompt that does not echo it, else --password P.`;

/** The environment variable the account's password may come from (never echoed, not in the process list). */
const PASSWORD_VARIABLE = "SELFTEST_PASSWORD";

/** Each request gives up after this long, so a hung server cannot hang the run. */
const REQUEST_TIMEOUT_MS = 30_000;

class UsageError extends Error {}

/** The message with its causes ("fetch failed" alone does not say why). */
function reason(error: unknown): string {
  let text = messageOf(error);
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (!text.includes(cause.message)) text += `: ${cause.message}`;
    cause = cause.cause;
  }
  return text;
}

interface Options {
  url: string;
  email?: string;
  password?: string;
  code?: string;
  suites: SelfTestSuiteName[];
  json: boolean;
  /** Warnings fail the run too. */
  strict: boolean;
  pause: boolean;
}

/** "1 warning", "2 warnings", "0 warnings". */
function countOf(count: number, noun: string): string {
  return `${count} ${count === 1 ? noun : `${noun}s`}`;
}

/** "12 passed, 1 warning, 0 failed". */
function countsLine(counts: { passed: number; warnings: number; failed: number }): string {
  return `${counts.passed} passed, ${countOf(counts.warnings, "warning")}, ${counts.failed} failed`;
}

/**
 * Asks for a password on the terminal without echoing it (raw mode: the characters typed are read,
 * never written back). Ctrl-C or Ctrl-D gives up.
 */
function promptHidden(question: string): Promise<string> {
  const { stdin, stderr } = process;
  // Raw before the question: what is typed once it shows is never echoed by the terminal.
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          finish();
          resolve(value);
          return;
        }
        if (char === "\u0003" || char === "\u0004") {
          finish();
          reject(new UsageError("no password given"));
          return;
        }
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on("data", onData);
  });
}

/** The password of --email: --password, SELFTEST_PASSWORD, or a prompt on a terminal. */
async function resolvePassword(options: Options): Promise<Options> {
  if (!options.email || options.password) return options;
  const fromEnv = process.env[PASSWORD_VARIABLE];
  if (fromEnv) return { ...options, password: fromEnv };
  if (!process.stdin.isTTY) throw new UsageError(`--email needs a password: set ${PASSWORD_VARIABLE} (or run on a terminal to be asked)`);
  const password = await promptHidden(`Password for ${options.email}: `);
  if (!password) throw new UsageError("no password given");
  return { ...options, password };
}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        code: { type: "string" },
        suite: { type: "string", default: "all" },
        json: { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
        "no-pause": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
  if (values.help) throw new UsageError("");
  if (!values.url) throw new UsageError("--url is required");
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new UsageError(`--url is not a URL: ${values.url}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("--url must be an http(s) URL");
  if (values.password && !values.email) throw new UsageError("--password needs --email");
  const suite = values.suite ?? "all";
  if (suite !== "system" && suite !== "auth" && suite !== "all") throw new UsageError(`--suite must be system, auth or all (got ${suite})`);
  return {
    url: url.origin + url.pathname.replace(/\/+$/, ""),
    email: values.email,
    password: values.password,
    code: values.code,
    suites: suite === "all" ? ["system", "auth"] : [suite],
    json: values.json ?? false,
    strict: values.strict ?? false,
    pause: !values["no-pause"],
  };
}

/** A 100×100 PNG (the storage test's image): a two-colour picture. */
async function makeTestPng(): Promise<Uint8Array> {
  const size = SELF_TEST.testImageSize;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="#4f46e5"/><rect y="${size / 2}" width="100%" height="${size / 2}" fill="#f59e0b"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A cookie jar whose requests give up after REQUEST_TIMEOUT_MS. */
function jarWithTimeout(): CookieJar {
  const jar = new CookieJar();
  const send = jar.fetch;
  jar.fetch = (input, init) => {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    return send(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
  };
  return jar;
}

const STATUS_LABEL: Record<SelfTestItem["status"], string> = {
  pending: "PEND",
  running: "RUN",
  passed: "PASS",
  warning: "WARN",
  failed: "FAIL",
};

function tableWriter(write: (line: string) => void) {
  const nameWidth = Math.max(
    4,
    ...Object.values(SELF_TEST_SUITES)
      .flat()
      .map((test) => test.name.length),
  );
  const row = (status: string, name: string, ms: string, message: string) =>
    `  ${status.padEnd(8)}${name.padEnd(nameWidth + 2)}${ms.padStart(6)}  ${message}`.trimEnd();
  return {
    header: (title: string) => {
      write("");
      write(title);
      write(row("STATUS", "TEST", "MS", "MESSAGE"));
    },
    item: (item: SelfTestItem) => {
      const message = [item.message ?? "", item.detail ? `(${item.detail})` : ""].filter(Boolean).join(" ");
      write(row(STATUS_LABEL[item.status], item.name, item.durationMs === undefined ? "" : String(item.durationMs), message));
    },
  };
}

async function main(argv: string[]): Promise<number> {
  let options: Options;
  try {
    options = await resolvePassword(parseOptions(argv));
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) process.stderr.write(`selftest: ${error.message}\n`);
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    throw error;
  }
  const out = (line: string) => {
    if (!options.json) process.stdout.write(`${line}\n`);
  };

  const jar = jarWithTimeout();
  const { client } = createStudioClient(options.url, jar);
  const { client: visitorClient } = createStudioClient(options.url, jarWithTimeout());

  let productName: string;
  try {
    productName = (await client.system.info.query()).productName;
  } catch (error) {
    process.stderr.write(`selftest: cannot reach ${options.url}: ${reason(error)}\n`);
    return 2;
  }

  let signedInAs: string | null = null;
  let roles: string[] = [];
  if (options.email && options.password) {
    try {
      let result = await client.auth.signIn.mutate({ email: options.email, password: options.password, rememberMe: false });
      if (result.status === "two-factor-required") {
        if (!options.code) {
          process.stderr.write(
            "selftest: this account uses two-factor authentication: add --code with a current code (or a backup code)\n",
          );
          return 2;
        }
        const backup = !/^\d{6}$/.test(options.code);
        await client.auth.verifyTwoFactor.mutate({ challengeToken: result.challengeToken, code: options.code, backup });
        result = { status: "signed-in" };
      }
      if (result.status !== "signed-in") {
        const reason =
          result.status === "locked"
            ? (result.lockout.message ?? "Account locked")
            : result.status === "invalid-credentials"
              ? "Invalid login credentials"
              : "Email not confirmed";
        process.stderr.write(`selftest: sign-in as ${options.email} refused: ${reason}\n`);
        return 2;
      }
      signedInAs = options.email;
      roles = await client.account.roles.query().catch(() => []);
    } catch (error) {
      process.stderr.write(`selftest: sign-in as ${options.email} failed: ${reason(error)}\n`);
      return 2;
    }
  }
  const isAdmin = roles.includes("admin");

  out(
    `${productName} self-test of ${options.url}: ${signedInAs ? `signed in as ${signedInAs}${isAdmin ? " (admin)" : " (not an admin)"}` : "not signed in"}`,
  );

  const env: SelfTestEnvironment = {
    client,
    baseUrl: options.url,
    fetch: jar.fetch,
    makeTestPng,
    sleep: (ms) => (options.pause ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
    visitorClient,
    ...(options.email && options.password ? { credentials: { email: options.email, password: options.password } } : {}),
  };

  const table = tableWriter(out);
  const results: Array<{
    suite: SelfTestSuiteName;
    startedAt: number;
    finishedAt: number;
    items: SelfTestItem[];
    recordedAs: string | null;
  }> = [];
  for (const suite of options.suites) {
    table.header(suite === "system" ? "System tests" : "Auth tests");
    const printed = new Set<string>();
    const startedAt = Date.now();
    const items = await runSelfTests(suite, env, (live) => {
      for (const item of live) {
        if ((item.status === "passed" || item.status === "warning" || item.status === "failed") && !printed.has(item.id)) {
          printed.add(item.id);
          table.item(item);
        }
      }
    });
    const finishedAt = Date.now();
    const counts = summarize(items);
    out(`${SELF_TEST_COMPLETE[suite]}: ${countsLine(counts)}`);
    let recordedAs: string | null = null;
    if (isAdmin) {
      try {
        recordedAs = (await recordSelfTestRun(env, { suite, source: "cli", items, startedAt, finishedAt })).id;
      } catch (error) {
        process.stderr.write(`selftest: the ${suite} run could not be recorded: ${messageOf(error)}\n`);
      }
    }
    results.push({ suite, startedAt, finishedAt, items, recordedAs });
  }

  const all = results.flatMap((result) => result.items);
  const total = summarize(all);
  out("");
  const verdict =
    total.failed > 0
      ? "FAILED"
      : total.warnings > 0
        ? options.strict
          ? "FAILED (--strict: warnings fail)"
          : "Passed with warnings"
        : "All passed";
  out(`${verdict}: ${countsLine(total)} of ${total.total}`);
  if (!signedInAs && total.failed > 0)
    out(`Most checks need a signed-in user, and the box checks an admin: pass --email of an admin (and ${PASSWORD_VARIABLE}).`);
  else if (signedInAs && !isAdmin && total.failed > 0)
    out(`${signedInAs} is not an admin: the box checks need an admin account (npm run admin -- grant admin ${signedInAs}).`);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ url: options.url, signedInAs, admin: isAdmin, passed: total.passed, warnings: total.warnings, failed: total.failed, suites: results }, null, 2)}\n`,
    );
  }

  if (signedInAs) await client.auth.signOut.mutate().catch(() => undefined);
  return total.failed > 0 || (options.strict && total.warnings > 0) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`selftest: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
