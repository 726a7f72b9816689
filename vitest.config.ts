import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import type { TestProjectInlineConfiguration } from "vitest/config";
import { postgresLaneRequested } from "./tests/helpers/postgres";

/**
 * The order test files start in. Two workers share the files; the run ends when
 * the last one does, so the longest files must start first, or one of them runs alone at the end.
 * vitest orders by the durations it cached from the last run, but a clean clone (CI) has none and
 * would start files in directory order: there the longest browser tests, measured, go first, then
 * the other browser tests, then the rest. (A stale list only makes the run slower.)
 */
/** The longest files of `npm test`, longest first (measured 2026-11-26, 60 to 125 s each). */
const LONGEST_FIRST = [
  "tests/e2e/accessibility.test.ts",
  "tests/e2e/honest-copy.test.ts",
  "tests/e2e/admin.test.ts",
  "tests/e2e/help-onboarding.test.ts",
  "tests/e2e/translations.test.ts",
  "tests/e2e/info-pages.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cached = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const name = path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join("/");
      const known = LONGEST_FIRST.indexOf(name);
      if (known >= 0) return known;
      return name.startsWith("tests/e2e/") ? LONGEST_FIRST.length : LONGEST_FIRST.length + 1;
    };
    // Array.prototype.sort is stable: within a rank, the cached order stays.
    return cached.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Integration tests whose subject is not the database (decision 099): an outside protocol against
 * its fake, pictures, files, HTTP headers. They run in the SQLite lane only; what they store goes
 * through the same capability code other tests run on PostgreSQL.
 */
export const SQLITE_LANE_ONLY = [
  "tests/integration/s3-storage.test.ts",
  "tests/integration/provider-comfyui.test.ts",
  "tests/integration/provider-replicate.test.ts",
  "tests/integration/provider-openai.test.ts",
  "tests/integration/replicate-presets.test.ts",
  "tests/integration/comfyui-upscale.test.ts",
  "tests/integration/local-provider.test.ts",
  "tests/integration/full-resolution.test.ts",
  "tests/integration/api-curl.test.ts",
  "tests/integration/landing-prerender.test.ts",
  "tests/integration/response-headers.test.ts",
  "tests/integration/malformed-paths.test.ts",
  // Decision 107: pictures, engines, mail, files and the wire format, whose rows other tests store
  // on PostgreSQL (renders, edits, credits, sets, accounts), run on SQLite only.
  "tests/integration/listing-export.test.ts",
  "tests/integration/edits.test.ts",
  "tests/integration/engine-routing.test.ts",
  "tests/integration/render-options.test.ts",
  "tests/integration/trpc-wire-contract.test.ts",
  "tests/integration/disk-floor.test.ts",
  "tests/integration/account-mail.test.ts",
  "tests/integration/floor-plans.test.ts",
  "tests/integration/api-client.test.ts",
  "tests/integration/share-links.test.ts",
  "tests/integration/studio-name-patterns.test.ts",
  "tests/integration/google.test.ts",
  "tests/integration/edge.test.ts",
  "tests/integration/request-limits.test.ts",
  "tests/integration/onboarding.test.ts",
  "tests/integration/replicate-webhook-route.test.ts",
  "tests/integration/selftest-cli.test.ts",
  // Decision 108: processes, sockets, HTTP, the REST wrappers and the authorisation matrix, whose
  // queries the capability tests (teams, renders, credits, webhooks-outbox) run on PostgreSQL.
  "tests/integration/shutdown.test.ts",
  "tests/integration/self-test.test.ts",
  "tests/integration/connection-limits.test.ts",
  "tests/integration/webhooks.test.ts",
  "tests/integration/api-resources.test.ts",
  "tests/integration/team-role-matrix.test.ts",
  "tests/integration/procedures.test.ts",
  "tests/integration/routers.test.ts",
  "tests/integration/server.test.ts",
  // Decision 111: the listing video's making with ffmpeg reads and writes no database (its queue's
  // rows are listing-videos.test.ts's, which runs on both).
  "tests/integration/listing-video.test.ts",
];

/** The scale suite: real server processes on one PostgreSQL database (decision 084); never on SQLite. */
const SCALE_SUITE = "tests/scale/**/*.test.ts";

/**
 * Two lanes (decision 079): every test on SQLite files, and the integration tests again on
 * PostgreSQL when TEST_DATABASE_URL names a server (or "throwaway": a cluster the run starts and
 * removes). CI always runs both; `npm test` says when the PostgreSQL lane is skipped.
 * `scale: true` adds the scale suite (project "scale", decision 084) to the PostgreSQL lane: it runs
 * after the other projects have finished, alone, so that its processes' leases and timings are not
 * starved by the rest of the run.
 */
export function lanes(
  include: { sqlite: string[]; postgres: string[]; scale?: boolean },
  exclude: string[] = [],
): TestProjectInlineConfiguration[] {
  const sqlite: TestProjectInlineConfiguration = {
    extends: true,
    test: { name: "sqlite", include: include.sqlite, exclude: [...exclude, SCALE_SUITE], provide: { databaseLane: "sqlite" } },
  };
  if (!postgresLaneRequested()) {
    console.info("PostgreSQL lane skipped: set TEST_DATABASE_URL to a server's URL, or to throwaway (README, Tests).");
    return [sqlite];
  }
  const postgres: TestProjectInlineConfiguration = {
    extends: true,
    test: {
      name: "postgres",
      include: include.postgres,
      exclude: [...exclude, ...SQLITE_LANE_ONLY],
      globalSetup: ["tests/helpers/global-setup.ts", "tests/helpers/postgres-setup.ts"],
      provide: { databaseLane: "postgres" },
    },
  };
  if (!include.scale) return [sqlite, postgres];
  const scale: TestProjectInlineConfiguration = {
    extends: true,
    test: {
      name: "scale",
      include: [SCALE_SUITE],
      exclude,
      // Its own PostgreSQL (the processes' databases); no client build or SQLite template needed.
      globalSetup: ["tests/helpers/postgres-setup.ts"],
      provide: { databaseLane: "postgres" },
      sequence: { groupOrder: 1 },
    },
  };
  return [sqlite, postgres, scale];
}

export default defineConfig({
  test: {
    projects: lanes({ sqlite: ["tests/**/*.test.ts"], postgres: ["tests/integration/**/*.test.ts"], scale: true }),
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/fail-on-console-error.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: a margin a busy machine eats (an e-mail sent, a
    // metric counted, a page updated). 10 s instead, as waitUntil (tests/helpers/wait.ts).
    expect: { poll: { timeout: 10_000 } },
    // Three test files at a time on these 2-core machines: a browser test spends part of its time
    // waiting (for frames, transitions, answers), which a third file fills (decision 062).
    maxWorkers: 3,
    // A worker keeps the modules it has loaded from one test file to the next instead of loading
    // them again for each file (decision 059): a third of the fast lane's CPU went to that.
    isolate: false,
    // The longest files start first, also on a clean clone with no durations cached.
    sequence: { sequencer: LongestFirst },
  },
});
