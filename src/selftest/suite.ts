/**
 * The self-test suite (spec sections 4, 7, 8 and 9): ONE implementation of every check, run by
 * two front ends over the real HTTP API — the Quick Admin bar in the browser and
 * `npm run selftest` (scripts/selftest.ts) on the command line. Browser-safe: no Node imports;
 * whatever differs between the two comes in the SelfTestEnvironment (types.ts).
 *
 * Running: `runSelfTests(suite, env, onChange)` marks every item pending, then runs them one after
 * another, each going running → passed | failed, with the spec's pause between two tests
 * (env.sleep: 500 ms system, 1000 ms auth). A failed item's message is "Error: " followed by the
 * spec's report text ("AI render validation failed", "Stripe secret key not configured",
 * "User profile not found", "Profile not created automatically", "Session/user state mismatch")
 * or "<Step> error: <message>". At the end the front end shows SELF_TEST_COMPLETE[suite].
 *
 * The split:
 * - "system" — the data queries and server functions of spec section 7 as the signed-in person,
 *   then the box checks only the server can make (admin only, selfTest.check):
 *   profile-read, project-crud, route-protection, storage, ai-render-validation,
 *   purchase-credits, unknown-function, database-integrity, disk-space, mail-transport,
 *   render-provider, render-queue.
 * - "auth" — the signed-in state: session-read, session-user, sign-up-existing, sign-in,
 *   sign-in-profile, roles-read. With env.credentials (command line) sign-in really signs in;
 *   without them (browser) it checks the current session.
 * Nothing is faked: every fault an item reports comes from the running system.
 */
import { createTRPCClient, httpLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../server/trpc/root";
import { SELF_TEST } from "../shared/constants";
import { MESSAGES } from "../shared/messages";
import { UPLOAD_ENDPOINT, type UploadResponse } from "../shared/render";
import { SELF_TEST_ERROR_PREFIX, SELF_TEST_REPORTS, type ServerCheckName, type ServerCheckText } from "../shared/self-test-checks";
import type { SelfTestClient, SelfTestEnvironment, SelfTestItem, SelfTestListener, SelfTestSource, SelfTestSuiteName } from "./types";

export * from "../shared/self-test-checks";
export type * from "./types";

/** What one check gets while it runs. */
export interface SelfTestContext {
  env: SelfTestEnvironment;
  /** The person testing (env.client). */
  client: SelfTestClient;
  /** Without a session (env.visitorClient, or one made on baseUrl whose requests omit cookies). */
  visitor: SelfTestClient;
  /** Shared between the items of one run (the auth suite remembers the session it read). */
  state: { user?: { id: string; email: string } };
}

export interface SelfTestDefinition {
  /** Stable id (the browser's translation key: selfTest.items.<id>). */
  id: string;
  /** English name shown when there is no translation. */
  name: string;
  /** The "<Step>" of "<Step> error: <message>". */
  step: string;
  /** Resolves with an optional note on success (a server check's with its texts); throws on failure. */
  run(context: SelfTestContext): Promise<string | SelfTestNote | undefined>;
}

/** A note with the texts the browser shows instead of its English (a server check's finding). */
export interface SelfTestNote {
  message: string;
  texts?: ServerCheckText[];
}

/** A failure whose text is final (a report of spec section 8, or an already written "<Step> error: ..."). */
export class SelfTestFailure extends Error {
  override name = "SelfTestFailure";
  constructor(
    message: string,
    /** What the server actually answered, when the message is a fixed report text. */
    readonly detail?: string,
    /** A server check's finding as texts the browser translates. */
    readonly texts?: ServerCheckText[],
  ) {
    super(message);
  }
}

/** A check that found something to look at, without failing (the item's status is "warning"). */
export class SelfTestWarning extends Error {
  override name = "SelfTestWarning";
  constructor(
    message: string,
    /** A server check's finding as texts the browser translates. */
    readonly texts?: ServerCheckText[],
  ) {
    super(message);
  }
}

function fail(message: string, detail?: string): never {
  throw new SelfTestFailure(message, detail);
}

/** The message of anything thrown (a TRPCClientError's message is the server's). */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") return error.message;
  return String(error);
}

/** The tRPC error code (UNAUTHORIZED, NOT_FOUND, ...) of a TRPCClientError, when there is one. */
function codeOf(error: unknown): string | undefined {
  const data = (error as { data?: { code?: unknown } } | null)?.data;
  return typeof data?.code === "string" ? data.code : undefined;
}

/** Runs the call expecting it to be refused; returns the refusal, or null when it succeeded. */
async function refusal(call: () => Promise<unknown>): Promise<{ message: string; code: string | undefined } | null> {
  try {
    await call();
    return null;
  } catch (error) {
    if (error instanceof SelfTestFailure) throw error;
    return { message: messageOf(error), code: codeOf(error) };
  }
}

/** Runs body, then cleanup; a cleanup error only counts when body succeeded. */
async function withCleanup<T>(body: () => Promise<T>, cleanup: () => Promise<unknown>): Promise<T> {
  let result: T;
  try {
    result = await body();
  } catch (error) {
    await cleanup().catch(() => undefined);
    throw error;
  }
  await cleanup();
  return result;
}

const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

function randomSuffix(): string {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A client on baseUrl whose requests carry no cookies: a visitor. */
export function createVisitorClient(baseUrl: string): SelfTestClient {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        fetch: (input, init) => globalThis.fetch(input, { ...(init as RequestInit), credentials: "omit" }),
      }),
    ],
  });
}

/** A box check on the server (admin only); "<step> error: <detail>" when it finds a fault. */
async function serverCheck(client: SelfTestClient, name: ServerCheckName, step: string): Promise<SelfTestNote> {
  const result = await client.selfTest.check.mutate({ name });
  if (!result.ok) throw new SelfTestFailure(`${step} error: ${result.detail}`, undefined, result.texts);
  if (result.warning) throw new SelfTestWarning(`${step}: ${result.detail}`, result.texts);
  return { message: result.detail, ...(result.texts ? { texts: result.texts } : {}) };
}

/** The server's own explanation of a failed write (admins only; nothing for anyone else). */
async function storageDiagnosis(client: SelfTestClient): Promise<string | null> {
  try {
    const result = await client.selfTest.check.mutate({ name: "storage-write" });
    return result.ok ? null : result.detail;
  } catch {
    return null;
  }
}

async function errorOfResponse(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === "string") return body.error;
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || response.statusText || "no answer";
}

const STRIPE_KEY_MISSING = /stripe.*key|secret key.*(not configured|missing|not set)|STRIPE_SECRET_KEY/i;
const ALREADY_REGISTERED = /already registered|already exists/i;

/** The name of the throw-away project the checks make (and delete). */
const projectName = (what: string) => `Self-test ${what} ${randomSuffix()}`;

export const SYSTEM_TESTS: readonly SelfTestDefinition[] = [
  {
    id: "profile-read",
    name: "Profile read",
    step: "Profile read",
    // Spec 7: read profiles filtered by user_id, all fields, at most one row.
    async run({ client }) {
      const { profile } = await client.selfTest.profile.query({ columns: "all" });
      if (!profile) fail(SELF_TEST_REPORTS.profileNotFound);
      return `1 row: ${profile.email}, ${profile.creditsRemaining} credits`;
    },
  },
  {
    id: "project-crud",
    name: "Project insert, read back and delete",
    step: "Project",
    // Spec 7: insert into projects {name, project_type, user_id, settings}, read it back, delete by id.
    async run({ client }) {
      const name = projectName("project");
      const created = await client.projects.create.mutate({ name, settings: { defaultStyle: "modern" } });
      let deleted = false;
      await withCleanup(
        async () => {
          const { project } = await client.projects.get.query({ id: created.id });
          if (project.name !== name || project.projectType !== "room_rendering" || project.settings.defaultStyle !== "modern") {
            fail("Project error: the project read back differs from the one inserted");
          }
          await client.projects.delete.mutate({ id: created.id });
          deleted = true;
        },
        async () => {
          if (!deleted) await client.projects.delete.mutate({ id: created.id });
        },
      );
      const after = await refusal(() => client.projects.get.query({ id: created.id }));
      if (after?.code !== "NOT_FOUND") fail(`Project error: ${after ? after.message : "the project was still there after it was deleted"}`);
      return "Inserted (room_rendering), read back and deleted";
    },
  },
  {
    id: "route-protection",
    name: "Route protection",
    step: "Route protection",
    // Spec 7: the projects count of the route-protection test: a visitor is refused, the user is answered.
    async run({ client, visitor }) {
      const asVisitor = await refusal(() => visitor.projects.list.query());
      if (!asVisitor) fail("Route protection error: a visitor was given the projects");
      if (asVisitor.code !== "UNAUTHORIZED") fail(`Route protection error: ${asVisitor.message}`);
      const { total } = await client.projects.list.query();
      return `Visitor refused ("${asVisitor.message}"); the signed-in user is answered (${total} project${total === 1 ? "" : "s"})`;
    },
  },
  {
    id: "storage",
    name: "Storage upload and removal",
    step: "Storage",
    // Spec 7: upload a generated 100x100 PNG to the project-uploads bucket, then remove it. It goes into a
    // throw-away project (so none of the user's projects changes), is read back, and is removed with it.
    async run({ env, client }) {
      const png = await env.makeTestPng();
      const project = await client.projects.create.mutate({ name: projectName("storage") });
      let uploaded: UploadResponse | undefined;
      let removed = false;
      await withCleanup(
        async () => {
          const response = await env.fetch(`${env.baseUrl}${UPLOAD_ENDPOINT}?projectId=${encodeURIComponent(project.id)}`, {
            method: "POST",
            headers: { "content-type": "image/png" },
            body: new Uint8Array(png),
          });
          if (!response.ok) {
            const answer = await errorOfResponse(response);
            const diagnosis = response.status >= 500 ? await storageDiagnosis(client) : null;
            fail(`Storage error: upload answered HTTP ${response.status} (${answer})${diagnosis ? `: ${diagnosis}` : ""}`);
          }
          uploaded = (await response.json()) as UploadResponse;
          const size = SELF_TEST.testImageSize;
          if (uploaded.width !== size || uploaded.height !== size)
            fail(`Storage error: stored ${uploaded.width}x${uploaded.height}, expected ${size}x${size}`);
          const stored = await env.fetch(`${env.baseUrl}${uploaded.url}`);
          const bytes = stored.ok ? (await stored.arrayBuffer()).byteLength : 0;
          if (!stored.ok || bytes === 0) fail(`Storage error: the stored image could not be read back (HTTP ${stored.status})`);
          await client.projects.delete.mutate({ id: project.id });
          removed = true;
        },
        async () => {
          if (!removed) await client.projects.delete.mutate({ id: project.id });
        },
      );
      // no-store: a browser would otherwise answer from its cache the picture it just fetched.
      const gone = await env.fetch(`${env.baseUrl}${uploaded!.url}`, { cache: "no-store" });
      await gone.arrayBuffer().catch(() => undefined);
      if (gone.status !== 404) fail(`Storage error: the test image was still served after its removal (HTTP ${gone.status})`);
      return `${SELF_TEST.testImageSize}x${SELF_TEST.testImageSize} PNG stored, read back and removed`;
    },
  },
  {
    id: "ai-render-validation",
    name: "AI render validation",
    step: "AI render",
    // Spec 7/8: ai-render without fields must answer "Missing required fields".
    async run({ client }) {
      const answer = await refusal(() => client.render.create.mutate({}));
      if (answer?.message === MESSAGES.missingRequiredFields) return `"${MESSAGES.missingRequiredFields}" (validation works)`;
      fail(SELF_TEST_REPORTS.aiRenderValidationFailed, answer ? answer.message : "a render request without fields was accepted");
    },
  },
  {
    id: "purchase-credits",
    name: "Purchase credits",
    step: "Purchase credits",
    // Spec 7/8: without a user "User not authenticated" is the correct answer; then, signed in and without a
    // package (so no checkout is ever made), a missing Stripe key is reported as "Stripe secret key not configured"
    // (a warning: the default install has no Stripe, and everything else works).
    async run({ client, visitor }) {
      const anonymous = await refusal(() => visitor.billing.purchaseCredits.mutate({ creditPackage: "starter" }));
      if (!anonymous) fail("Purchase credits error: a visitor was given a checkout");
      if (STRIPE_KEY_MISSING.test(anonymous.message)) fail(SELF_TEST_REPORTS.stripeNotConfigured, anonymous.message);
      if (anonymous.message !== MESSAGES.notAuthenticated) fail(`Purchase credits error: ${anonymous.message}`);
      const signedIn = await refusal(() => client.billing.purchaseCredits.mutate({}));
      if (!signedIn) fail("Purchase credits error: a purchase without a package was accepted");
      // A server without Stripe works (admins grant credits): the spec's report, as a warning, not a failure.
      if (STRIPE_KEY_MISSING.test(signedIn.message)) throw new SelfTestWarning(SELF_TEST_REPORTS.stripeNotConfigured);
      const correct = `"${MESSAGES.notAuthenticated}" without a user (correct)`;
      if (signedIn.message === MESSAGES.notAuthenticated) return `${correct}; the Stripe key is checked when signed in`;
      if (signedIn.message === MESSAGES.missingRequiredFields) return `${correct}; Stripe key configured`;
      fail(`Purchase credits error: ${signedIn.message}`);
    },
  },
  {
    id: "unknown-function",
    name: "Non-existent function",
    step: "Non-existent function",
    // Spec 7: calling a deliberately non-existent name must bring an error back.
    async run({ client }) {
      const untyped = client as unknown as Record<string, Record<string, { query(): Promise<unknown> }>>;
      const answer = await refusal(() => untyped.selfTest!.thisProcedureDoesNotExist!.query());
      if (!answer) fail("Non-existent function error: the server answered a procedure that does not exist");
      return `Error returned: ${answer.message}`;
    },
  },
  {
    id: "database-integrity",
    name: "Database integrity",
    step: "Database integrity",
    run: ({ client }) => serverCheck(client, "database-integrity", "Database integrity"),
  },
  {
    id: "disk-space",
    name: "Free disk space",
    step: "Disk space",
    run: ({ client }) => serverCheck(client, "disk-space", "Disk space"),
  },
  {
    id: "mail-transport",
    name: "Mail transport",
    step: "Mail",
    run: ({ client }) => serverCheck(client, "mail-transport", "Mail"),
  },
  {
    id: "render-provider",
    name: "Render provider",
    step: "Render provider",
    run: ({ client }) => serverCheck(client, "render-provider", "Render provider"),
  },
  {
    id: "render-queue",
    name: "Render queue",
    step: "Render queue",
    run: ({ client }) => serverCheck(client, "render-queue", "Render queue"),
  },
  {
    id: "backups",
    name: "Backups",
    step: "Backups",
    run: ({ client }) => serverCheck(client, "backups", "Backups"),
  },
];

/** The signed-in user as the server sees them; fails with "<step> error: User not authenticated" without one. */
async function sessionUser(client: SelfTestClient, step: string) {
  const { user, session } = await client.auth.session.query();
  if (!user && !session) fail(`${step} error: ${MESSAGES.notAuthenticated}`);
  return { user, session };
}

export const AUTH_TESTS: readonly SelfTestDefinition[] = [
  {
    id: "session-read",
    name: "Session read",
    step: "Session read",
    async run({ client, state }) {
      const { user, session } = await sessionUser(client, "Session read");
      if (user) state.user = { id: user.id, email: user.email };
      if (!session) return "Session read (no session with the user: see the next check)";
      return `${session.persistent ? "Remembered" : "Browser"} session, ends ${new Date(session.idleExpiresAt ?? session.expiresAt).toISOString()}`;
    },
  },
  {
    id: "session-user",
    name: "Session and user agree",
    step: "Session",
    // Spec 8: "Session/user state mismatch" when the session and the user disagree: a session without a user
    // (or the reverse), another user than the front end believes signed in, or one the protected API does not know.
    async run({ env, client, state }) {
      const { user, session } = await sessionUser(client, "Session");
      if (!user || !session) fail(SELF_TEST_REPORTS.sessionMismatch, user ? "a user without a session" : "a session without a user");
      const expected = env.expectedUser ?? (env.credentials ? { email: env.credentials.email } : undefined);
      if (
        expected &&
        (expected.email.trim().toLowerCase() !== user.email.toLowerCase() || (expected.id !== undefined && expected.id !== user.id))
      ) {
        fail(SELF_TEST_REPORTS.sessionMismatch, `expected ${expected.email}, the server's session is ${user.email}`);
      }
      if (state.user && state.user.id !== user.id) fail(SELF_TEST_REPORTS.sessionMismatch, "the session changed user during the test");
      const sessions = await client.account.sessions.query();
      if (!sessions.some((listed) => listed.current))
        fail(SELF_TEST_REPORTS.sessionMismatch, "the session is not among the user's sessions");
      state.user = { id: user.id, email: user.email };
      return `Session belongs to ${user.email}`;
    },
  },
  {
    id: "sign-up-existing",
    name: "Sign-up with an existing email",
    step: "Sign up",
    // Spec 8: a sign-up error containing "already registered" or "already exists" is the expected answer.
    async run({ env, client, visitor, state }) {
      const email = state.user?.email ?? env.credentials?.email ?? (await sessionUser(client, "Sign up")).user?.email;
      if (!email) fail(`Sign up error: ${MESSAGES.notAuthenticated}`);
      const answer = await refusal(() =>
        visitor.auth.signUp.mutate({ email, password: `Self-test-${randomSuffix()}A1`, fullName: "Self Test" }),
      );
      if (!answer) fail(`Sign up error: a second account was accepted for ${email}`);
      if (!ALREADY_REGISTERED.test(answer.message)) fail(`Sign up error: ${answer.message}`);
      return `Refused: "${answer.message}" (expected)`;
    },
  },
  {
    id: "sign-in",
    name: "Sign-in",
    step: "Sign in",
    // With credentials (command line) a real sign-in; without them (browser) the current session.
    async run({ env, client, state }) {
      if (!env.credentials) {
        const { user, session } = await sessionUser(client, "Sign in");
        if (!user || !session) fail(`Sign in error: ${MESSAGES.notAuthenticated}`);
        return `Signed in as ${user.email} (current session)`;
      }
      // The session in use is replaced by the new one; the old one is ended, not left behind.
      const previous = (await client.account.sessions.query().catch(() => [])).find((listed) => listed.current)?.id;
      const result = await client.auth.signIn.mutate({
        email: env.credentials.email,
        password: env.credentials.password,
        rememberMe: false,
      });
      switch (result.status) {
        case "signed-in": {
          if (previous) await client.account.revokeSession.mutate({ id: previous }).catch(() => undefined);
          const { user } = await sessionUser(client, "Sign in");
          if (user) state.user = { id: user.id, email: user.email };
          return `Signed in as ${env.credentials.email}`;
        }
        case "two-factor-required":
          return "Password accepted; a two-factor code is required (the current session is kept)";
        case "invalid-credentials":
          return fail(`Sign in error: ${MESSAGES.invalidCredentials}`);
        case "email-not-confirmed":
          return fail(`Sign in error: ${MESSAGES.emailNotConfirmed}`);
        case "locked":
          return fail(`Sign in error: ${result.lockout.message ?? "Account locked"}`);
        default:
          return fail(`Sign in error: ${(result as { status: string }).status}`);
      }
    },
  },
  {
    id: "sign-in-profile",
    name: "Profile after sign-in",
    step: "Profile",
    // Spec 4/7: on sign-in a missing profile is created; the check reads it (id only, one row).
    async run({ client }) {
      const { profile } = await client.selfTest.profile.query({ columns: "id" });
      if (!profile) fail(SELF_TEST_REPORTS.profileNotCreated);
      return "Profile exists (id only, single row)";
    },
  },
  {
    id: "roles-read",
    name: "Roles read",
    step: "Roles read",
    // Spec 7: read user_roles (role) by user_id.
    async run({ client }) {
      const roles = await client.account.roles.query();
      if (roles.length === 0) return "No roles (not an admin)";
      return `Roles: ${roles.join(", ")}${roles.includes("admin") ? " (admin)" : ""}`;
    },
  },
];

export const SELF_TEST_SUITES: Record<SelfTestSuiteName, readonly SelfTestDefinition[]> = { system: SYSTEM_TESTS, auth: AUTH_TESTS };

/** Pause between two tests of a suite (spec section 9). */
export const SELF_TEST_PAUSE_MS: Record<SelfTestSuiteName, number> = { system: SELF_TEST.systemPauseMs, auth: SELF_TEST.authPauseMs };

/** The items of a suite before it runs, all pending (optionally only some ids). */
export function pendingItems(suite: SelfTestSuiteName, only?: readonly string[]): SelfTestItem[] {
  return SELF_TEST_SUITES[suite]
    .filter((test) => !only || only.includes(test.id))
    .map((test) => ({ id: test.id, name: test.name, status: "pending" }));
}

export interface RunSelfTestsOptions {
  /** Run only these ids (in the suite's order), e.g. to re-run what failed. */
  only?: readonly string[];
  /** Stops before the next item; items not run stay pending. */
  signal?: AbortSignal;
  /** Records the finished run on the server (selfTest.recordRun; admins only, errors ignored). */
  record?: SelfTestSource;
}

/**
 * Runs a suite one item after another with the suite's pause between two items; every change is
 * passed to onChange (a new array each time). Never rejects for a failing check: the item fails.
 */
export async function runSelfTests(
  suite: SelfTestSuiteName,
  env: SelfTestEnvironment,
  onChange: SelfTestListener = () => undefined,
  options: RunSelfTestsOptions = {},
): Promise<SelfTestItem[]> {
  const tests = SELF_TEST_SUITES[suite].filter((test) => !options.only || options.only.includes(test.id));
  let items: SelfTestItem[] = pendingItems(suite, options.only);
  const update = (index: number, item: SelfTestItem) => {
    items = items.map((current, at) => (at === index ? item : current));
    onChange(items);
  };
  onChange(items);
  const context: SelfTestContext = { env, client: env.client, visitor: env.visitorClient ?? createVisitorClient(env.baseUrl), state: {} };
  const startedAt = Date.now();
  for (const [index, test] of tests.entries()) {
    if (options.signal?.aborted) break;
    if (index > 0) await env.sleep(SELF_TEST_PAUSE_MS[suite]);
    if (options.signal?.aborted) break;
    const base = { id: test.id, name: test.name };
    update(index, { ...base, status: "running" });
    const started = now();
    try {
      const result = await test.run(context);
      const note = typeof result === "string" ? { message: result } : result;
      update(index, {
        ...base,
        status: "passed",
        ...(note ? { message: note.message } : {}),
        ...(note?.texts ? { texts: note.texts } : {}),
        durationMs: Math.round(now() - started),
      });
    } catch (error) {
      if (error instanceof SelfTestWarning) {
        const texts = error.texts ? { texts: error.texts } : {};
        update(index, { ...base, status: "warning", message: error.message, ...texts, durationMs: Math.round(now() - started) });
        continue;
      }
      const report = error instanceof SelfTestFailure ? error.message : `${test.step} error: ${messageOf(error)}`;
      const detail = error instanceof SelfTestFailure ? error.detail : undefined;
      const texts = error instanceof SelfTestFailure ? error.texts : undefined;
      update(index, {
        ...base,
        status: "failed",
        message: `${SELF_TEST_ERROR_PREFIX}${report}`,
        ...(detail ? { detail } : {}),
        ...(texts ? { texts } : {}),
        durationMs: Math.round(now() - started),
      });
    }
  }
  if (options.record)
    await recordSelfTestRun(env, { suite, source: options.record, items, startedAt, finishedAt: Date.now() }).catch(() => null);
  return items;
}

/** Stores a finished run on the server (admins only) so /admin can show the history. */
export function recordSelfTestRun(
  env: Pick<SelfTestEnvironment, "client">,
  run: { suite: SelfTestSuiteName; source: SelfTestSource; items: readonly SelfTestItem[]; startedAt: number; finishedAt: number },
): Promise<{ id: string; passed: number; failed: number }> {
  return env.client.selfTest.recordRun.mutate({ ...run, items: [...run.items] });
}

/** Counts of a run's items. */
export function summarize(items: readonly SelfTestItem[]): { passed: number; warnings: number; failed: number; total: number } {
  return {
    passed: items.filter((item) => item.status === "passed").length,
    warnings: items.filter((item) => item.status === "warning").length,
    failed: items.filter((item) => item.status === "failed").length,
    total: items.length,
  };
}
