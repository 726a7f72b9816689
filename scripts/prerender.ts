/**
 * Pre-renders the landing page into the client build, once per interface language (issue 15): the
 * server sends `prerendered/<language>/index.html` for `/`, so the hero paints before any script
 * has run, and the client hydrates it. Its scripts start after the first paint (public/boot.js). Bundles src/client/prerender.tsx for Node with Vite's SSR
 * build into a scratch folder inside the project (so its imports resolve from node_modules).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SUPPORTED_LANGUAGES, type Language } from "../src/shared/constants";

export const PRERENDERED_PATHS = ["/"] as const;
const ROOT_ELEMENT = '<div id="root"></div>';
const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/** What Vite's manifest (build.manifest) says of one source file. */
interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
}

/** The landing page's chunk: its own, or the "landing" group of vite.config.ts's codeSplitting that holds it. */
function landingKey(manifest: Record<string, ManifestChunk>): string {
  if (manifest["pages/Landing.tsx"]) return "pages/Landing.tsx";
  const group = Object.entries(manifest).find(([, chunk]) => chunk.name === "landing");
  if (!group) throw new Error("the build's manifest has no chunk of the landing page");
  return group[0];
}

/** The files `key` (a source path from src/client) needs at once: its chunk and its static imports, in order. */
function chunkFiles(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build's manifest has no ${key}`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dependency of chunk.imports ?? []) chunkFiles(manifest, dependency, into);
  return into;
}

/**
 * The shell's head without its entry script and module preloads, and the script that starts them
 * after the first paint (public/boot.js), with every file the landing page's first load needs in
 * `language`: the entry, the page and its first texts (no chain of imports to discover one by one).
 */
function bootAfterPaint(shell: string, manifest: Record<string, ManifestChunk>, language: Language): { head: string; boot: string } {
  const entry = ENTRY_SCRIPT.exec(shell)?.[1];
  if (!entry) throw new Error("index.html has no module script");
  const files = new Set<string>();
  for (const key of ["index.html", landingKey(manifest), `i18n/parts/${language}.first.ts`]) chunkFiles(manifest, key, files);
  const preload = [...files].map((file) => `/${file}`).filter((file) => file !== entry);
  return {
    head: shell.replace(ENTRY_SCRIPT, "").replace(MODULE_PRELOAD, ""),
    boot: `<script src="/boot.js" defer data-entry="${entry}" data-preload="${preload.join(" ")}"></script>`,
  };
}

/** Where the pre-rendered page of `language` lives in a client build. */
export function prerenderedFile(clientDir: string, language: Language): string {
  return path.join(clientDir, "prerendered", language, "index.html");
}

export async function prerenderClient(root: string, outDir: string, logLevel: "info" | "warn" | "silent"): Promise<void> {
  const { build } = await import("vite");
  fs.mkdirSync(path.join(root, "dist"), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(root, "dist", ".prerender-"));
  try {
    await build({
      configFile: path.join(root, "vite.config.ts"),
      mode: "production",
      logLevel,
      build: { ssr: path.join(root, "src/client/prerender.tsx"), outDir: scratch, emptyOutDir: true, copyPublicDir: false },
    });
    const entry = fs.readdirSync(scratch).find((name) => /^prerender\.m?js$/.test(name));
    if (!entry) throw new Error(`the pre-render bundle is missing in ${scratch}`);
    const { prerenderPage } = (await import(pathToFileURL(path.join(scratch, entry)).href)) as {
      prerenderPage(path: string, language: Language): Promise<string>;
    };
    const shell = fs.readFileSync(path.join(outDir, "index.html"), "utf8");
    if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
    for (const language of SUPPORTED_LANGUAGES) {
      const year = new Date().getFullYear();
      const body = await prerenderPage("/", language);
      if (body.includes("<script")) throw new Error("the pre-rendered landing page has an inline script, which the CSP refuses");
      const { head, boot } = bootAfterPaint(shell, manifest, language);
      const html = head
        .replace(/<html lang="[^"]*">/, `<html lang="${language}">`)
        // The footer's year: a page built last year hydrates with the year it shows, then moves on.
        .replace(ROOT_ELEMENT, `<div id="root" data-prerendered="${language}" data-prerendered-year="${year}">${body}</div>${boot}`);
      const file = prerenderedFile(outDir, language);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, html);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
