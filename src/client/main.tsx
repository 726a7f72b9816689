import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import "./styles.css";
import { App } from "./App";
import { detectLanguage, startI18n } from "./i18n";
import { loadLanding } from "./routes";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

const language = detectLanguage();
// The server sends the landing page pre-rendered (scripts/prerender.ts) in the language it guessed.
const prerendered = root.dataset.prerendered === language && location.pathname === "/";
// The landing page's code loads alongside its texts; hydration starts when both are here.
void Promise.all([startI18n(language), prerendered ? loadLanding() : null]).then(() => {
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  if (prerendered) {
    hydrateRoot(root, app);
  } else {
    // A page pre-rendered in another language than the visitor's is drawn afresh.
    root.replaceChildren();
    createRoot(root).render(app);
  }
});
