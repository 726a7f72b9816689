/**
 * The self-test suite's contract (spec sections 4, 7 and 8): one implementation of the checks,
 * run by two front ends — the Quick Admin bar in the browser and `npm run selftest` on the
 * command line — both over the real HTTP API.
 */
import type { createTRPCClient } from "@trpc/client";
import type { AppRouter } from "../server/trpc/root";
import type { SelfTestText } from "../shared/self-test-checks";

/** "warning": the check found something to look at that does not stop the product working (it does not fail a run). */
export type SelfTestStatus = "pending" | "running" | "passed" | "warning" | "failed";
export type SelfTestSuiteName = "system" | "auth";
/** Who ran a suite (stored with the run). */
export type SelfTestSource = "browser" | "cli";

export interface SelfTestItem {
  /** Stable id of the check (e.g. "roles-read"). */
  id: string;
  /** What the interface shows (English; the browser translates by id). */
  name: string;
  status: SelfTestStatus;
  /** On failure "Error: ..." (spec section 4) or the spec's report text; on success an optional note. */
  message?: string;
  /**
   * On a failure whose report text the spec fixes (e.g. "AI render validation failed"): what the
   * server actually answered, for the admin. Absent otherwise.
   */
  detail?: string;
  /** The detail as texts the browser translates (selfTest.details.<key>); the detail is its English. */
  detailTexts?: SelfTestText[];
  /** A server check's finding as texts the browser translates (selfTest.details.<key>); the message is its English. */
  texts?: SelfTestText[];
  durationMs?: number;
}

/** A vanilla tRPC client of the running server. */
export type SelfTestClient = ReturnType<typeof createTRPCClient<AppRouter>>;

/** What a front end gives the suite: the API as a real client sees it, and the few things it does differently. */
export interface SelfTestEnvironment {
  /** A vanilla tRPC client of the running server, with the session cookie of the person testing. */
  client: SelfTestClient;
  /** Base URL of the server ("" in the browser, where paths are relative). */
  baseUrl: string;
  /** fetch that carries the same cookies as the client (uploads and files are plain HTTP). */
  fetch: typeof fetch;
  /** A generated 100×100 PNG (browser: canvas; command line: sharp). */
  makeTestPng(): Promise<Uint8Array>;
  /** The spec's pauses between tests (500 ms system, 1000 ms auth); tests pass a fake. */
  sleep(ms: number): Promise<void>;
  /** For the auth suite from the command line: an account to sign in with. */
  credentials?: { email: string; password: string };
  /**
   * A client WITHOUT the session (a visitor), for "without a user" checks (route protection,
   * purchase-credits, sign-up with an existing email). Optional: by default the suite builds one
   * on baseUrl whose requests omit cookies (fetch credentials "omit").
   */
  visitorClient?: SelfTestClient;
  /**
   * The user the front end believes is signed in (browser: the one its session query shows;
   * command line: defaults to credentials.email). The "session and user agree" check compares it
   * with the session the server sees. Optional.
   */
  expectedUser?: { id?: string; email: string };
}

/** Called after every change of an item, with all items (for a live list). */
export type SelfTestListener = (items: readonly SelfTestItem[]) => void;
