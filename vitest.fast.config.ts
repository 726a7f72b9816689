/**
 * `npm run test:fast`: the unit and integration tests, without the browser tests (tests/e2e) and
 * without the slow ones (`*.slow.test.ts`: seconds of work that is no unit's, such as the structure
 * check's calibration). Everything else is the main config's; `npm test` (and CI) still runs every test.
 */
import { defineConfig } from "vitest/config";
import base, { lanes } from "./vitest.config";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: lanes(
      { sqlite: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"], postgres: ["tests/integration/**/*.test.ts"] },
      ["**/node_modules/**", "**/*.slow.test.ts"],
    ),
  },
});
