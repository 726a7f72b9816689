/**
 * Building what `npm start` runs, in plain JavaScript so that starting needs no TypeScript
 * loader: the web client (Vite, into dist/client, with the public pages pre-rendered by
 * scripts/prerender.ts) and the server (esbuild, one ESM bundle with
 * the packages left as imports, into dist/server/main.mjs). Each is built again only when it is
 * missing or older than its sources. `node scripts/build.mjs [client|server]` builds (default both).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLIENT_OUT_DIR = path.join(root, "dist/client");
export const SERVER_BUNDLE = path.join(root, "dist/server/main.mjs");
const CLIENT_SOURCES = [
  "src/client",
  "src/shared",
  "vite.config.ts",
  "package.json",
  "scripts/prerender.ts",
  "scripts/prerender-css.ts",
  "scripts/build.mjs",
];
// The server bundles the client texts that hold its messages in three languages (src/server/i18n, listing/names.ts).
const SERVER_SOURCES = ["src/server", "src/shared", "src/client/i18n", "db", "package.json", "package-lock.json"];

/** The newest modification time under a file or folder (0 when missing). */
function newestMtime(entry) {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

function olderThanSources(output, sources) {
  if (!fs.existsSync(output)) return true;
  return Math.max(...sources.map((entry) => newestMtime(path.join(root, entry)))) > fs.statSync(output).mtimeMs;
}

/** @param {string} [outDir] */
export function clientBuildIsStale(outDir = CLIENT_OUT_DIR) {
  return olderThanSources(path.join(outDir, "index.html"), CLIENT_SOURCES);
}

export function serverBuildIsStale() {
  return olderThanSources(SERVER_BUNDLE, SERVER_SOURCES);
}

/**
 * @param {string} [outDir]
 * @param {"info" | "warn" | "silent"} [logLevel]
 */
export async function buildClient(outDir = CLIENT_OUT_DIR, logLevel = "info") {
  const { build } = await import("vite");
  // Test runners set NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: path.join(root, "vite.config.ts"), mode: "production", logLevel, build: { outDir, emptyOutDir: true } });
    // The public pages' HTML, pre-rendered from the same sources (decision 042). TypeScript, so
    // through tsx's loader: only a build needs it, never a start with a current build.
    const { tsImport } = await import("tsx/esm/api");
    const { prerenderClient } = await tsImport("./prerender.ts", import.meta.url);
    await prerenderClient(root, outDir, logLevel);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * One ESM file of the server's own code; packages stay imports (native ones such as sharp and
 * better-sqlite3 cannot be bundled). Paths the code resolves from its own file (package.json,
 * dist/client) hold from dist/server as from src/server; the shipped ComfyUI workflows are copied
 * next to the bundle for the same reason.
 */
export async function buildServer() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [path.join(root, "src/server/main.ts")],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    logLevel: "warning",
  });
  const workflows = path.join(root, "src/server/render/engines/comfyui-workflows");
  fs.cpSync(workflows, path.join(path.dirname(SERVER_BUNDLE), "comfyui-workflows"), { recursive: true });
}

/** True when the package is installed (build tools are not, in a production image). */
export async function available(name) {
  try {
    await import(name);
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const what = process.argv[2] ?? "all";
  if (!["all", "client", "server"].includes(what)) {
    console.error("usage: node scripts/build.mjs [client|server]");
    process.exit(2);
  }
  if (what !== "server") await buildClient();
  if (what !== "client") await buildServer();
}
