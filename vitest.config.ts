import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    setupFiles: ["tests/helpers/fail-on-console-error.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Browser tests each drive a Chromium; two cores on these machines.
    maxWorkers: 2,
  },
});
