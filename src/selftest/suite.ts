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
import { createTRPCClient, httpBatchStreamLink } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../server/trpc/root";
import { SELF_TEST } from "../shared/constants";
import { MESSAGES } from "../shared/messages";
import { UPLOAD_ENDPOINT, type UploadResponse } from "../shared/render";
import {
  SELF_TEST_ERROR_PREFIX,
  SELF_TEST_REPORTS,
  SELF_TEST_STEPS,
  checkText,
  englishCheckDetail,
  englishCheckText,
  type SelfTestId,
  type SelfTestText,
  type SelfTestTextKey,
  type SelfTestTextParams,
  type ServerCheckName,
} from "../shared/self-test-checks";
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
  /** Stable id (the browser's translation key: selfTest.items.<id>; its step's name: SELF_TEST_STEPS). */
  id: SelfTestId;
  /** English name shown when there is no translation. */
  name: string;
  /** Resolves with a note on success (its English and the texts the browser translates); throws on failure. */
  run(context: SelfTestContext): Promise<SelfTestNote | undefined>;
}

/** A note: its English (the command line) and the texts the browser shows in the reader's language. */
export interface SelfTestNote {
  message: string;
  texts?: SelfTestText[];
}

/** A failure whose text is final (a report of spec section 8, or an already written "<Step> error: ..."). */
export class SelfTestFailure extends Error {
  override name = "SelfTestFailure";
  constructor(
    message: string,
    /** What the server actually answered, when the message is a fixed report text. */
    readonly detail?: string,
    /** The message as texts the browser translates. */
    readonly texts?: SelfTestText[],
    /** The detail as texts the browser translates. */
    readonly detailTexts?: SelfTestText[],
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
    readonly texts?: SelfTestText[],
  ) {
    super(message);
  }
}

/** A note told as texts, with its English. */
function note(key: SelfTestTextKey, params?: SelfTestTextParams): SelfTestNote {
  const texts = [checkText(key, params)];
  return { message: englishCheckDetail(texts), texts };
}

/** Fails with a finding of the suite ("Project error: ...", "Storage error: ..."). */
function fail(...texts: SelfTestText[]): never {
  throw new SelfTestFailure(englishCheckDetail(texts), undefined, texts);
}

/** Fails with "<Step> error: <what the server answered>". */
function failStep(step: SelfTestId, error: string): never {
  fail(checkText("stepError", { step, error }));
}

/** Fails with a report of spec section 8, and what was found: the server's answer, or the suite's finding as a text. */
function failReport(report: string, found?: string | SelfTestText): never {
  if (found === undefined || typeof found === "string") throw new SelfTestFailure(report, found);
  throw new SelfTestFailure(report, englishCheckDetail([found]), undefined, [found]);
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

/**
 * A client of the suite on baseUrl, with the page's cookies ("same-origin") or none ("omit": a
 * visitor). Its answers are streamed (tRPC's jsonl, httpBatchStreamLink): the HTTP status is 200
 * and each call's error travels in the body, so the refusals the checks ask for on purpose (a
 * visitor refused, a deleted project not found, a render without fields) are read from the
 * answer and a browser does not log them as failed loads in its console (issue 27).
 */
export function createSelfTestClient(baseUrl: string, credentials: RequestCredentials): SelfTestClient {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchStreamLink({
        url: `${baseUrl}/trpc`,
        transformer: superjson,
        fetch: (input, init) => globalThis.fetch(input, { ...(init as RequestInit), credentials }),
      }),
    ],
  });
}

/** A client on baseUrl whose requests carry no cookies: a visitor. */
export function createVisitorClient(baseUrl: string): SelfTestClient {
  return createSelfTestClient(baseUrl, "omit");
}

/** A box check on the server (admin only); "<step> error: <detail>" when it finds a fault. */
async function serverCheck(client: SelfTestClient, name: ServerCheckName & SelfTestId): Promise<SelfTestNote> {
  const result = await client.selfTest.check.mutate({ name });
  if (!result.ok) {
    const failed = englishCheckText({ key: "stepError", params: { step: name, error: result.detail } });
    throw new SelfTestFailure(failed, undefined, result.texts);
  }
  if (result.warning) throw new SelfTestWarning(`${SELF_TEST_STEPS[name]}: ${result.detail}`, result.texts);
  return { message: result.detail, ...(result.texts ? { texts: result.texts } : {}) };
}

/** The server's own explanation of a failed write (admins only; nothing for anyone else). */
async function storageDiagnosis(client: SelfTestClient): Promise<SelfTestText[]> {
  try {
    const result = await client.selfTest.check.mutate({ name: "storage-write" });
    return result.ok ? [] : (result.texts ?? [checkText("checkError", { error: result.detail })]);
  } catch {
    return [];
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
    // Spec 7: read profiles filtered by user_id, all fields, at most one row.
    async run({ client }) {
      const { profile } = await client.selfTest.profile.query({ columns: "all" });
      if (!profile) failReport(SELF_TEST_REPORTS.profileNotFound);
      return note("profileRow", { email: profile.email ?? "", count: profile.creditsRemaining ?? 0 });
    },
  },
  {
    id: "project-crud",
    name: "Project insert, read back and delete",
    // Spec 7: insert into projects {name, project_type, user_id, settings}, read it back, delete by id.
    async run({ client }) {
      const name = projectName("project");
      const created = await client.projects.create.mutate({ name, settings: { defaultStyle: "modern" } });
      let deleted = false;
      await withCleanup(
        async () => {
          const { project } = await client.projects.get.query({ id: created.id });
          if (project.name !== name || project.projectType !== "room_rendering" || project.settings.defaultStyle !== "modern") {
            fail(checkText("projectDiffers"));
          }
          await client.projects.delete.mutate({ id: created.id });
          deleted = true;
        },
        async () => {
          if (!deleted) await client.projects.delete.mutate({ id: created.id });
        },
      );
      const after = await refusal(() => client.projects.get.query({ id: created.id }));
      if (!after) fail(checkText("projectNotDeleted"));
      if (after.code !== "NOT_FOUND") failStep("project-crud", after.message);
      return note("projectCrudOk");
    },
  },
  {
    id: "route-protection",
    name: "Route protection",
    // Spec 7: the projects count of the route-protection test: a visitor is refused, the user is answered.
    async run({ client, visitor }) {
      const asVisitor = await refusal(() => visitor.projects.list.query());
      if (!asVisitor) fail(checkText("visitorGivenProjects"));
      if (asVisitor.code !== "UNAUTHORIZED") failStep("route-protection", asVisitor.message);
      const { total } = await client.projects.list.query();
      return note("routeProtected", { answer: asVisitor.message, count: total });
    },
  },
  {
    id: "storage",
    name: "Storage upload and removal",
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
            const diagnosis = response.status >= 500 ? await storageDiagnosis(client) : [];
            fail(checkText("uploadRefused", { status: response.status, answer }), ...diagnosis);
          }
          const answer = (await response.json()) as UploadResponse;
          uploaded = answer;
          const size = SELF_TEST.testImageSize;
          if (answer.width !== size || answer.height !== size)
            fail(checkText("storedSizeWrong", { width: answer.width, height: answer.height, size }));
          const stored = await env.fetch(`${env.baseUrl}${answer.url}`);
          const bytes = stored.ok ? (await stored.arrayBuffer()).byteLength : 0;
          if (!stored.ok || bytes === 0) fail(checkText("storedUnreadable", { status: stored.status }));
          await client.projects.delete.mutate({ id: project.id });
          removed = true;
        },
        async () => {
          if (!removed) await client.projects.delete.mutate({ id: project.id });
        },
      );
      // Removed: the upload is no longer found (its file route answers 404 from the same row). Asked
      // through the API, whose refusal travels in the answer, not as a 404 a browser logs.
      const gone = await refusal(() => client.render.upload.query({ id: uploaded!.imageId }));
      if (!gone) fail(checkText("storedNotRemoved", { status: 200 }));
      if (gone.code !== "NOT_FOUND") failStep("storage", gone.message);
      return note("storageOk", { size: SELF_TEST.testImageSize });
    },
  },
  {
    id: "ai-render-validation",
    name: "AI render validation",
    // Spec 7/8: ai-render without fields must answer "Missing required fields".
    async run({ client }) {
      const answer = await refusal(() => client.render.create.mutate({}));
      if (answer?.message === MESSAGES.missingRequiredFields) return note("validationWorks", { answer: MESSAGES.missingRequiredFields });
      failReport(SELF_TEST_REPORTS.aiRenderValidationFailed, answer ? answer.message : checkText("renderWithoutFieldsAccepted"));
    },
  },
  {
    id: "purchase-credits",
    name: "Purchase credits",
    // Spec 7/8: without a user "User not authenticated" is the correct answer; then, signed in and without a
    // package (so no checkout is ever made), a missing Stripe key is reported as "Stripe secret key not configured"
    // (a warning: the default install has no Stripe, and everything else works).
    async run({ client, visitor }) {
      const anonymous = await refusal(() => visitor.billing.purchaseCredits.mutate({ creditPackage: "starter" }));
      if (!anonymous) fail(checkText("visitorGivenCheckout"));
      if (STRIPE_KEY_MISSING.test(anonymous.message)) failReport(SELF_TEST_REPORTS.stripeNotConfigured, anonymous.message);
      if (anonymous.message !== MESSAGES.notAuthenticated) failStep("purchase-credits", anonymous.message);
      const signedIn = await refusal(() => client.billing.purchaseCredits.mutate({}));
      if (!signedIn) fail(checkText("purchaseWithoutPackage"));
      // A server without Stripe works (admins grant credits): the spec's report, as a warning, not a failure.
      if (STRIPE_KEY_MISSING.test(signedIn.message)) throw new SelfTestWarning(SELF_TEST_REPORTS.stripeNotConfigured);
      if (signedIn.message === MESSAGES.notAuthenticated) return note("stripeCheckedSignedIn", { answer: MESSAGES.notAuthenticated });
      if (signedIn.message === MESSAGES.missingRequiredFields) return note("stripeConfigured", { answer: MESSAGES.notAuthenticated });
      failStep("purchase-credits", signedIn.message);
    },
  },
  {
    id: "unknown-function",
    name: "Non-existent function",
    // Spec 7: calling a deliberately non-existent name must bring an error back.
    async run({ client }) {
      const untyped = client as unknown as Record<string, Record<string, { query(): Promise<unknown> }>>;
      const answer = await refusal(() => untyped.selfTest!.thisProcedureDoesNotExist!.query());
      if (!answer) fail(checkText("unknownProcedureAnswered"));
      return note("errorReturned", { error: answer.message });
    },
  },
  {
    id: "database-integrity",
    name: "Database integrity",
    run: ({ client }) => serverCheck(client, "database-integrity"),
  },
  {
    id: "disk-space",
    name: "Free disk space",
    run: ({ client }) => serverCheck(client, "disk-space"),
  },
  {
    id: "mail-transport",
    name: "Mail transport",
    run: ({ client }) => serverCheck(client, "mail-transport"),
  },
  {
    id: "render-provider",
    name: "Render provider",
    run: ({ client }) => serverCheck(client, "render-provider"),
  },
  {
    id: "render-queue",
    name: "Render queue",
    run: ({ client }) => serverCheck(client, "render-queue"),
  },
  {
    id: "backups",
    name: "Backups",
    run: ({ client }) => serverCheck(client, "backups"),
  },
];

/** The signed-in user as the server sees them; fails with "<step> error: User not authenticated" without one. */
async function sessionUser(client: SelfTestClient, step: SelfTestId) {
  const { user, session } = await client.auth.session.query();
  if (!user && !session) failStep(step, MESSAGES.notAuthenticated);
  return { user, session };
}

export const AUTH_TESTS: readonly SelfTestDefinition[] = [
  {
    id: "session-read",
    name: "Session read",
    async run({ client, state }) {
      const { user, session } = await sessionUser(client, "session-read");
      if (user) state.user = { id: user.id, email: user.email };
      if (!session) return note("sessionWithoutUser");
      return note(session.persistent ? "rememberedSession" : "browserSession", { endsAt: session.idleExpiresAt ?? session.expiresAt });
    },
  },
  {
    id: "session-user",
    name: "Session and user agree",
    // Spec 8: "Session/user state mismatch" when the session and the user disagree: a session without a user
    // (or the reverse), another user than the front end believes signed in, or one the protected API does not know.
    async run({ env, client, state }) {
      const { user, session } = await sessionUser(client, "session-user");
      if (!user || !session)
        failReport(SELF_TEST_REPORTS.sessionMismatch, checkText(user ? "userWithoutSession" : "sessionWithoutItsUser"));
      const expected = env.expectedUser ?? (env.credentials ? { email: env.credentials.email } : undefined);
      if (
        expected &&
        (expected.email.trim().toLowerCase() !== user.email.toLowerCase() || (expected.id !== undefined && expected.id !== user.id))
      ) {
        failReport(SELF_TEST_REPORTS.sessionMismatch, checkText("otherUserSession", { expected: expected.email, actual: user.email }));
      }
      if (state.user && state.user.id !== user.id) failReport(SELF_TEST_REPORTS.sessionMismatch, checkText("sessionChangedUser"));
      const sessions = await client.account.sessions.query();
      if (!sessions.some((listed) => listed.current)) failReport(SELF_TEST_REPORTS.sessionMismatch, checkText("sessionNotListed"));
      state.user = { id: user.id, email: user.email };
      return note("sessionBelongs", { email: user.email });
    },
  },
  {
    id: "sign-up-existing",
    name: "Sign-up with an existing email",
    // Spec 8: a sign-up error containing "already registered" or "already exists" is the expected answer.
    async run({ env, client, visitor, state }) {
      const email = state.user?.email ?? env.credentials?.email ?? (await sessionUser(client, "sign-up-existing")).user?.email;
      if (!email) failStep("sign-up-existing", MESSAGES.notAuthenticated);
      const answer = await refusal(() =>
        visitor.auth.signUp.mutate({ email, password: `Self-test-${randomSuffix()}A1`, fullName: "Self Test" }),
      );
      if (!answer) fail(checkText("secondAccountAccepted", { email }));
      if (!ALREADY_REGISTERED.test(answer.message)) failStep("sign-up-existing", answer.message);
      return note("signUpRefused", { answer: answer.message });
    },
  },
  {
    id: "sign-in",
    name: "Sign-in",
    // With credentials (command line) a real sign-in; without them (browser) the current session.
    async run({ env, client, state }) {
      if (!env.credentials) {
        const { user, session } = await sessionUser(client, "sign-in");
        if (!user || !session) failStep("sign-in", MESSAGES.notAuthenticated);
        return note("signedInCurrent", { email: user.email });
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
          const { user } = await sessionUser(client, "sign-in");
          if (user) state.user = { id: user.id, email: user.email };
          return note("signedInAs", { email: env.credentials.email });
        }
        case "two-factor-required":
          return note("twoFactorRequired");
        case "invalid-credentials":
          return failStep("sign-in", MESSAGES.invalidCredentials);
        case "email-not-confirmed":
          return failStep("sign-in", MESSAGES.emailNotConfirmed);
        case "locked":
          return failStep("sign-in", result.lockout.message);
        default:
          return failStep("sign-in", (result as { status: string }).status);
      }
    },
  },
  {
    id: "sign-in-profile",
    name: "Profile after sign-in",
    // Spec 4/7: on sign-in a missing profile is created; the check reads it (id only, one row).
    async run({ client }) {
      const { profile } = await client.selfTest.profile.query({ columns: "id" });
      if (!profile) failReport(SELF_TEST_REPORTS.profileNotCreated);
      return note("profileExists");
    },
  },
  {
    id: "roles-read",
    name: "Roles read",
    // Spec 7: read user_roles (role) by user_id.
    async run({ client }) {
      const roles = await client.account.roles.query();
      if (roles.length === 0) return note("noRoles");
      return note(roles.includes("admin") ? "rolesAdmin" : "roles", { roles: roles.join(", ") });
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
      const note = await test.run(context);
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
      // Anything else thrown is what the server answered: "<Step> error: <message>".
      const answered = [checkText("stepError", { step: test.id, error: messageOf(error) })];
      const failure = error instanceof SelfTestFailure ? error : new SelfTestFailure(englishCheckDetail(answered), undefined, answered);
      update(index, {
        ...base,
        status: "failed",
        message: `${SELF_TEST_ERROR_PREFIX}${failure.message}`,
        ...(failure.detail ? { detail: failure.detail } : {}),
        ...(failure.texts ? { texts: failure.texts } : {}),
        ...(failure.detailTexts ? { detailTexts: failure.detailTexts } : {}),
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
): Promise<{ id: string; passed: number; warnings: number; failed: number }> {
  return env.client.selfTest.recordRun.mutate({ ...run, items: [...run.items] });
}

/** Counts of a run's items (one home in src/shared, shared with the server's record of the run). */
export { summarize } from "../shared/self-test-checks";
