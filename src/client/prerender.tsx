/**
 * The build-time pre-render (scripts/prerender.ts bundles this for Node): the landing page's HTML
 * as a visitor's first render in the browser will draw it, so React hydrates it without changes.
 */
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { prerenderToNodeStream } from "react-dom/static";
import { Router } from "wouter";
import type { Language } from "../shared/constants";
import { App } from "./App";
import i18n, { allTexts, startI18n } from "./i18n";
import { fillWithPrerenderPlaceholders } from "./lib/studio";

/** The HTML inside #root for `path` in `language`. */
export async function prerenderPage(path: string, language: Language): Promise<string> {
  // The same texts the browser loads first: a landing text outside them would show as its key here too.
  await startI18n(language);
  // The studio's name, address and sign-up credits are filled in by the server when it sends the page.
  fillWithPrerenderPlaceholders();
  const missing = new Set<string>();
  i18n.options.saveMissing = true;
  i18n.options.missingKeyHandler = (_languages, _namespace, key) => void missing.add(key);
  const page = (
    <StrictMode>
      <Router ssrPath={path}>
        <App />
      </Router>
    </StrictMode>
  );
  // A first pass awaits every lazy part the page reaches; the second renders it whole at once:
  // HTML that streamed in would need React's inline scripts, which the CSP refuses.
  const { prelude } = await prerenderToNodeStream(page);
  for await (const chunk of prelude) void chunk;
  const html = renderToString(page);
  i18n.options.saveMissing = false;
  if (missing.size > 0) throw new Error(`the pre-rendered ${path} (${language}) shows texts not loaded first: ${[...missing].join(", ")}`);
  // The other parts load in the background; let them finish before the bundle's folder goes.
  await allTexts();
  return html;
}
