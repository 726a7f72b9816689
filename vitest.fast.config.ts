/**
 * `npm run test:fast`: the unit and integration tests, without the browser tests (tests/e2e).
 * Everything else is the main config's; `npm test` still runs every test.
 */
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
  },
});
