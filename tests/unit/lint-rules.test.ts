/**
 * The other checks of `npm run lint` bite too: the type-aware promise rules on server code and
 * Prettier's format check, each on a planted file, with the project's own configuration.
 * (The module boundaries have their own planted trees: boundaries.test.ts.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import * as prettier from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(".");
let tree: string;

const PLANTED = `async function work(): Promise<number> {
  return 1;
}
const later = (callback: () => void): void => callback();

export function start(): void {
  work();
  later(async () => {
    await work();
  });
}
`;

const CLEAN = `async function work(): Promise<number> {
  return 1;
}
const later = (callback: () => void): void => callback();

export async function start(): Promise<void> {
  await work();
  later(() => {
    void work().catch(() => undefined);
  });
}
`;

beforeAll(() => {
  tree = fs.mkdtempSync(path.join(os.tmpdir(), "roomcanvas-lint-"));
  fs.mkdirSync(path.join(tree, "src/server"), { recursive: true });
  fs.writeFileSync(path.join(tree, "src/server/planted.ts"), PLANTED);
  fs.writeFileSync(path.join(tree, "src/server/clean.ts"), CLEAN);
  fs.writeFileSync(
    path.join(tree, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, target: "ES2022", module: "ESNext", moduleResolution: "bundler", noEmit: true, types: [] },
      include: ["src"],
    }),
  );
});
afterAll(() => {
  fs.rmSync(tree, { recursive: true, force: true });
});

describe("type-aware ESLint on server code", () => {
  it("reports a floating promise and a promise passed where a void callback is expected", async () => {
    const eslint = new ESLint({ cwd: tree, overrideConfigFile: path.join(repo, "eslint.config.js") });
    const [planted, clean] = await eslint.lintFiles(["src/server/planted.ts", "src/server/clean.ts"]);
    expect(planted!.messages.map((message) => [message.ruleId, message.line])).toEqual([
      ["@typescript-eslint/no-floating-promises", 7],
      ["@typescript-eslint/no-misused-promises", 8],
    ]);
    expect(clean!.messages).toEqual([]);
  }, 60_000);
});

describe("Prettier", () => {
  it("refuses a file not in the project's format and accepts the same code formatted", async () => {
    const filepath = path.join(repo, "src/server/planted.ts");
    const options = { ...(await prettier.resolveConfig(filepath)), filepath };
    const long = `export const figures = { rendersMade: 1, averageRenderSeconds: 2, queueLength: 3, renderTimeP50Ms: 4, renderTimeP95Ms: 5, failed: 6, succeeded: 7, queued: 8, canceled: 9 };\n`;
    expect(await prettier.check(long, options)).toBe(false);
    expect(await prettier.check(await prettier.format(long, options), options)).toBe(true);
    expect(options).toMatchObject({ printWidth: 140 });
  });
});

describe("the lint script", () => {
  it("runs all three checks, and CI runs it", () => {
    const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.lint).toMatch(/^eslint \. && prettier --check \. && depcruise src scripts --config \.dependency-cruiser\.cjs/);
    // Beside the type check, and waited for: its failure fails CI.
    const ci = fs.readFileSync(".ci/run", "utf8");
    expect(ci).toMatch(/^npm run lint &\nlint=\$!$/m);
    expect(ci).toMatch(/^wait "\$lint"$/m);
    expect(ci).toMatch(/^set -euo pipefail$/m);
  });
});
