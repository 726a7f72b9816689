/**
 * Pre-renders the landing page into the client build, once per interface language (issue 15): the
 * server sends `prerendered/<language>/index.html` for `/`, so the hero paints before any script
 * has run, and the client hydrates it. Bundles src/client/prerender.tsx for Node with Vite's SSR
 * build into a scratch folder inside the project (so its imports resolve from node_modules).
 *
 * The first paint waits for nothing but the HTML (decision 056): the page carries the rules of the
 * stylesheet it uses (scripts/prerender-css.ts), the theme script and its boot script
 * (src/client/inline/boot.js, which starts the rest after the first paint) inline, and its icon as a
 * data: address. The CSP allows those two scripts by their SHA-256, which this writes to
 * `prerendered/inline-scripts.json` for the server.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MANIFEST_PATH, SUPPORTED_LANGUAGES, type Language } from "../src/shared/constants";
import { pageCss, pageVocabulary } from "./prerender-css";

export const PRERENDERED_PATHS = ["/"] as const;
const ROOT_ELEMENT = '<div id="root"></div>';
const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const STYLESHEET = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/;
const THEME_SCRIPT = '<script src="/theme-init.js"></script>';
const ICON = /<link rel="icon" type="image\/svg\+xml" href="\/favicon\.svg" \/>/;
const COMMENT = /\s*<!--[\s\S]*?-->/g;
/** The classes a script sets before the first paint: theme-init's. */
const CLASSES_SET_BY_SCRIPTS = ["dark"];
/** Where the build lists the SHA-256 of the pre-rendered pages' inline scripts (read by the server for its CSP). */
export const INLINE_SCRIPTS_FILE = path.join("prerendered", "inline-scripts.json");

/** A script's CSP source: `'sha256-<base64>'` of its text. */
export const scriptHash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

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
 * The files the landing page's first load needs in `language`: the entry, the page and its first
 * texts (no chain of imports to discover one by one); the entry first.
 */
function firstLoadFiles(shell: string, manifest: Record<string, ManifestChunk>, language: Language): { entry: string; preload: string[] } {
  const entry = ENTRY_SCRIPT.exec(shell)?.[1];
  if (!entry) throw new Error("index.html has no module script");
  const files = new Set<string>();
  for (const key of ["index.html", landingKey(manifest), `i18n/parts/${language}.first.ts`]) chunkFiles(manifest, key, files);
  return { entry, preload: [...files].map((file) => `/${file}`).filter((file) => file !== entry) };
}

/** The scripts the page carries inline, minified (their hashes are the CSP's: the text must not change after this). */
async function inlineScripts(root: string): Promise<{ themeInit: string; boot: string }> {
  const { transform } = await import("esbuild");
  const minified = async (file: string) => {
    const { code } = await transform(fs.readFileSync(path.join(root, file), "utf8"), { minify: true, loader: "js" });
    const text = code.trim();
    if (/<\/script|<!--/i.test(text)) throw new Error(`${file} cannot be written inside a <script> element`);
    return text;
  };
  return { themeInit: await minified("src/client/public/theme-init.js"), boot: await minified("src/client/inline/boot.js") };
}

/**
 * An SVG as a data: address for an attribute in double quotes, short: its quotes made single, and only
 * what a URL or the attribute cannot hold as it is percent-encoded (a third shorter than encodeURIComponent).
 */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${svg
    .trim()
    .replaceAll('"', "'")
    .replace(/[%#<>&\s]/g, (char) => (char === " " ? " " : encodeURIComponent(char)))}`;
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
    if (!shell.includes(THEME_SCRIPT)) throw new Error(`index.html has no ${THEME_SCRIPT}`);
    const stylesheet = STYLESHEET.exec(shell)?.[1];
    if (!stylesheet) throw new Error("index.html has no stylesheet");
    const icon = svgDataUrl(fs.readFileSync(path.join(outDir, "favicon.svg"), "utf8"));
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, ".vite", "manifest.json"), "utf8")) as Record<string, ManifestChunk>;
    const scripts = await inlineScripts(root);
    const year = new Date().getFullYear();
    const pages = new Map<Language, (css: string) => string>();
    for (const language of SUPPORTED_LANGUAGES) {
      const body = await prerenderPage("/", language);
      if (body.includes("<script")) throw new Error("the pre-rendered landing page has a script, which the CSP would refuse");
      const { entry, preload } = firstLoadFiles(shell, manifest, language);
      const boot =
        `<script data-entry="${entry}" data-preload="${preload.join(" ")}" data-styles="${stylesheet}" data-manifest="${MANIFEST_PATH}">` +
        `${scripts.boot}</script>`;
      pages.set(language, (css) =>
        shell
          .replace(ENTRY_SCRIPT, "")
          .replace(MODULE_PRELOAD, "")
          .replace(COMMENT, "")
          .replace(/<html lang="[^"]*">/, `<html lang="${language}">`)
          .replace(ICON, `<link rel="icon" type="image/svg+xml" href="${icon}" />`)
          .replace(THEME_SCRIPT, `<script>${scripts.themeInit}</script>`)
          .replace(STYLESHEET, `<style id="page-styles">${css}</style>`)
          // The footer's year: a page built last year hydrates with the year it shows, then moves on.
          .replace(ROOT_ELEMENT, `<div id="root" data-prerendered="${language}" data-prerendered-year="${year}">${body}</div>${boot}`),
      );
    }
    // One stylesheet for the three languages: the rules any of them uses (the same page, other words).
    const drafts = [...pages.values()].map((page) => page(""));
    const css = pageCss(
      fs.readFileSync(path.join(outDir, stylesheet.slice(1)), "utf8"),
      pageVocabulary(drafts, CLASSES_SET_BY_SCRIPTS),
      drafts,
    );
    if (/<\/style/i.test(css)) throw new Error("the landing page's stylesheet cannot be written inside a <style> element");
    const hashes = [scriptHash(scripts.themeInit), scriptHash(scripts.boot)];
    for (const [language, page] of pages) {
      const html = page(css);
      // Every script the page runs is one of the two, or the CSP would refuse it.
      for (const [, attributes, text] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (/\ssrc=/.test(attributes!) || !hashes.includes(scriptHash(text!)))
          throw new Error(`the pre-rendered landing page (${language}) has a script the CSP does not allow: <script${attributes}>`);
      }
      const file = prerenderedFile(outDir, language);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, html);
    }
    fs.writeFileSync(path.join(outDir, INLINE_SCRIPTS_FILE), `${JSON.stringify({ scriptSrc: hashes }, null, 2)}\n`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
