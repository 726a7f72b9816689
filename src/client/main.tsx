import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import "./styles.css";
import { App } from "./App";
import { detectLanguage, startI18n } from "./i18n";
import { prefetchLinks } from "./lib/prefetchLinks";
import { hydration, prefetchQueries } from "./lib/queries";
import { loadLanding, preloadPage } from "./routes";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

const language = detectLanguage();
const onLanding = location.pathname === "/";
// What the first paint's parts will ask, asked now: one request, alongside the code.
prefetchQueries(onLanding ? ["auth.session", "render.allowance", "render.gallery", "system.landingStats"] : ["auth.session"]);
// The server sends the landing page pre-rendered (scripts/prerender.ts) in the language it guessed.
const prerendered = root.dataset.prerendered === language && onLanding;

/**
 * The app's stylesheet, when the page started loading it after its first paint (the pre-rendered
 * page carries only the rules its HTML uses: inline/boot.js, decision 056): whatever the app draws
 * next needs the rest. Loaded or failed, the app goes on.
 */
function appStyles(): Promise<void> | null {
  const link = document.querySelector<HTMLLinkElement>("link[data-app-styles]");
  if (!link || link.sheet) return null;
  return new Promise((resolve) => {
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
  });
}

/**
 * Resolves in a task of its own: the entry's evaluation, i18next's start and the landing page's
 * import each take a few milliseconds, and one task for all of them would block the main thread the
 * longer (Total Blocking Time, decision 056). A message, not a timer: a test's paused clock holds timers.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

async function start(element: HTMLElement): Promise<void> {
  await nextTask();
  const texts = startI18n(language);
  await nextTask();
  // The landing page's code loads alongside its texts and the stylesheet; hydration starts when all are here.
  await Promise.all([texts, prerendered ? loadLanding() : null, appStyles()]);
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  if (prerendered) {
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page (Total Blocking Time, issue 15).
    hydration.active = true;
    startTransition(() => {
      hydrateRoot(element, app);
    });
  } else {
    // A page pre-rendered in another language than the visitor's is drawn afresh.
    element.replaceChildren();
    createRoot(element).render(app);
  }
}
void start(root);

// A page's code, texts and the data layer (tRPC's client, React Query) are fetched when a link to it is reached for.
prefetchLinks(preloadPage);
