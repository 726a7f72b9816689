/**
 * The pages the visitor sees, noted by the app's shell from the first one on, for analytics, which
 * is loaded after the first load (AnalyticsEffects): it hears about the pages seen before it came.
 * A visitor who leaves before that still counts: the page views noted so far go out when the page
 * is hidden or left, in one small request of their own (unless analytics is switched off).
 */
import { STORAGE_KEYS } from "../../shared/constants";
import { isUntrackedPath } from "../../shared/routes";
import { createSessionId, pagePath, postAnalyticsEvents } from "./analyticsTransport";

type Listener = (path: string) => void;

const seen: Array<{ path: string; at: number }> = [];
let listener: Listener | null = null;
let leaveHandlerInstalled = false;

function analyticsSwitchedOff(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.analyticsEnabled) === "false";
  } catch {
    return false;
  }
}

/** Sends the views nobody took yet, as analytics.track would (keepalive: it outlives the page). */
function sendUnheardViews(): void {
  if (listener || seen.length === 0 || analyticsSwitchedOff()) return;
  const sessionId = createSessionId();
  const events = seen.splice(0).map(({ path, at }) => ({
    category: "navigation" as const,
    action: "page_view",
    label: pagePath(path),
    timestamp: at,
    sessionId,
  }));
  void postAnalyticsEvents(events).catch(() => undefined);
}

export function notePageView(path: string): void {
  // A client's review link is not tracked at all (shared/routes isUntrackedPath).
  if (isUntrackedPath(path)) return;
  if (listener) return listener(path);
  seen.push({ path, at: Date.now() });
  if (!leaveHandlerInstalled && typeof window !== "undefined") {
    leaveHandlerInstalled = true;
    window.addEventListener("pagehide", sendUnheardViews);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") sendUnheardViews();
    });
  }
}

/** Calls `next` for the pages seen so far, then for each new one; returns the function that stops it. */
export function followPageViews(next: Listener): () => void {
  listener = next;
  for (const { path } of seen.splice(0)) next(path);
  return () => {
    if (listener === next) listener = null;
  };
}
