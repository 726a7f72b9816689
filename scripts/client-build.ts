/** Builds the client with Vite (and pre-renders the landing page) when its output is missing or older than its sources. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prerenderClient } from "./prerender";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLIENT_OUT_DIR = path.join(root, "dist/client");
const SOURCES = ["src/client", "src/shared", "vite.config.ts", "package.json"].map((entry) => path.join(root, entry));

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

export function clientBuildIsStale(outDir = CLIENT_OUT_DIR): boolean {
  const index = path.join(outDir, "index.html");
  if (!fs.existsSync(index)) return true;
  return Math.max(...SOURCES.map(newestMtime)) > fs.statSync(index).mtimeMs;
}

export async function buildClient(outDir = CLIENT_OUT_DIR, logLevel: "info" | "warn" | "silent" = "info"): Promise<void> {
  const { build } = await import("vite");
  // Test runners set NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: path.join(root, "vite.config.ts"), mode: "production", logLevel, build: { outDir, emptyOutDir: true } });
    // The landing page's HTML, pre-rendered from the same sources (issue 15).
    await prerenderClient(root, outDir, logLevel);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

/** True when Vite is installed (it is a build tool: production images carry the built client only). */
export async function viteAvailable(): Promise<boolean> {
  try {
    await import("vite");
    return true;
  } catch {
    return false;
  }
}
