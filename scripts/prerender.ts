/**
 * Pre-renders the landing page into the client build, once per interface language (issue 15): the
 * server sends `prerendered/<language>/index.html` for `/`, so the hero paints before any script
 * has run, and the client hydrates it. Bundles src/client/prerender.tsx for Node with Vite's SSR
 * build into a scratch folder inside the project (so its imports resolve from node_modules).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SUPPORTED_LANGUAGES, type Language } from "../src/shared/constants";

export const PRERENDERED_PATHS = ["/"] as const;
const ROOT_ELEMENT = '<div id="root"></div>';

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
    for (const language of SUPPORTED_LANGUAGES) {
      const year = new Date().getFullYear();
      const body = await prerenderPage("/", language);
      if (body.includes("<script")) throw new Error("the pre-rendered landing page has an inline script, which the CSP refuses");
      const html = shell
        .replace(/<html lang="[^"]*">/, `<html lang="${language}">`)
        // The footer's year: a page built last year hydrates with the year it shows, then moves on.
        .replace(ROOT_ELEMENT, `<div id="root" data-prerendered="${language}" data-prerendered-year="${year}">${body}</div>`);
      const file = prerenderedFile(outDir, language);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, html);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
