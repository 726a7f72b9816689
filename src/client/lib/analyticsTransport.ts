/**
 * What analytics sends and how, small enough for the first load (issue 15): the queue
 * (lib/analytics.ts, loaded after the first load) and the page views noted before it came
 * (lib/pageViews.ts) both post through here.
 */
import type { AnalyticsEvent } from "../../shared/analytics";

/** Time plus a random string (spec section 3). */
export function createSessionId(now = Date.now(), random: () => number = Math.random): string {
  const suffix = Array.from({ length: 10 }, () => Math.floor(random() * 36).toString(36)).join("");
  return `${now.toString(36)}-${suffix}`;
}

/** The page as a path without its query (share tokens and ids in queries stay on the device). */
export function pagePath(location: string): string {
  const path = location.split(/[?#]/)[0] ?? "/";
  return path || "/";
}

/**
 * One request per batch, never batched with the page's calls, and kept alive so that the batch
 * sent when the page is hidden or left still arrives. A plain POST as tRPC's httpLink sends it
 * (superjson's envelope; the events are plain JSON): no tRPC client in the first load (issue 15).
 */
export async function postAnalyticsEvents(events: AnalyticsEvent[]): Promise<void> {
  const response = await fetch("/trpc/analytics.track", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ json: { events } }),
    keepalive: true,
  });
  if (!response.ok) throw new Error(`analytics.track answered HTTP ${response.status}`);
}
