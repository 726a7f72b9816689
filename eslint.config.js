import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "data/", "tests/.artifacts/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["src/client/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // Plain scripts the browser runs as they are: public files, and the ones the pre-rendered page carries inline.
    files: ["src/client/public/**/*.js", "src/client/inline/**/*.js"],
    languageOptions: { globals: { ...globals.browser }, sourceType: "script" },
  },
  {
    // Plain JavaScript run by Node itself: the build and `npm start` (no TypeScript loader at start).
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Tool configuration in CommonJS (.dependency-cruiser.cjs).
    files: ["**/*.cjs"],
    languageOptions: { globals: { ...globals.node }, sourceType: "commonjs" },
  },
  {
    // Type-aware rules where a forgotten await loses an error or races a shutdown: server, self-test
    // suite and scripts. Types come from tsconfig.json (projectService), which includes these files.
    files: ["src/server/**/*.ts", "src/selftest/**/*.ts", "scripts/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // Default options (checksVoidReturn fully on). Async Express handlers are not reported and need no
      // exception: Express 5 forwards a handler's rejected promise to next(err) (expressjs.com, "Error
      // handling"; router's layer.js), and @types/express 5 declares handlers as returning `unknown`, not
      // `void`, so passing an async function is not a misuse. Callbacks typed `() => void` elsewhere
      // (timers, event emitters, server.close) still are, which is what this rule is for.
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
);
