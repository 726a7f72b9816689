import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/fail-on-console-error.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: a margin a busy machine eats (an e-mail sent, a
    // metric counted, a page updated). 10 s instead, as waitUntil (tests/helpers/wait.ts).
    expect: { poll: { timeout: 10_000 } },
    // Browser tests each drive a Chromium; two cores on these machines.
    maxWorkers: 2,
    // A worker keeps the modules it has loaded from one test file to the next instead of loading
    // them again for each file (decision 059): a third of the fast lane's CPU went to that.
    isolate: false,
  },
});
