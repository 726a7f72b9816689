/**
 * The studio this page belongs to (/admin → Studio): its name, support address, accent, logo and
 * sign-up credits, as the server wrote them into the page (#studio-settings), read once before the
 * first render so the pre-rendered landing page and the app agree. The build's pre-render uses
 * placeholders the server fills in (shared/studio-placeholders). /admin replaces it after a save.
 */
import { useSyncExternalStore } from "react";
import { PRERENDER_PLACEHOLDERS } from "../../shared/studio-placeholders";
import { DEFAULT_PUBLIC_STUDIO, studioCss, type PublicStudio } from "../../shared/studio";

let current: PublicStudio | null = null;
const listeners = new Set<() => void>();

function fromPage(): PublicStudio {
  const element = typeof document === "undefined" ? null : document.getElementById("studio-settings");
  if (!element?.textContent) return DEFAULT_PUBLIC_STUDIO;
  try {
    return { ...DEFAULT_PUBLIC_STUDIO, ...(JSON.parse(element.textContent) as Partial<PublicStudio>) };
  } catch {
    return DEFAULT_PUBLIC_STUDIO;
  }
}

/** The studio now (outside React). */
export function currentStudio(): PublicStudio {
  current ??= fromPage();
  return current;
}

/** The studio, following changes (an admin's save). */
export function useStudio(): PublicStudio {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentStudio,
    currentStudio,
  );
}

/** After /admin saves: the new brand shows at once in this tab (name, accent, logo). */
export function replaceStudio(next: PublicStudio): void {
  current = next;
  if (typeof document !== "undefined") {
    let style = document.getElementById("studio-style");
    if (!style) {
      style = document.createElement("style");
      style.id = "studio-style";
      document.head.append(style);
    }
    style.textContent = studioCss(next);
  }
  for (const listener of listeners) listener();
}

/** The build's pre-render: placeholders the server replaces with the studio's values. */
export function fillWithPrerenderPlaceholders(): void {
  current = {
    ...DEFAULT_PUBLIC_STUDIO,
    name: PRERENDER_PLACEHOLDERS.name,
    supportEmail: PRERENDER_PLACEHOLDERS.supportEmail,
    signUpCredits: Number(PRERENDER_PLACEHOLDERS.signUpCredits),
  };
}
