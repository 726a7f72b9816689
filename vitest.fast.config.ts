/**
 * `npm run test:fast`: the unit and integration tests, without the browser tests (tests/e2e) and
 * without the slow ones (`*.slow.test.ts`: seconds of work that is no unit's, such as the structure
 * check's calibration). Everything else is the main config's; `npm test` (and CI) still runs every test.
 */
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/*.slow.test.ts"],
  },
});
