/**
 * The app-wide analytics hooks (spec section 4), rendered once in App: the queue sends through
 * analytics.track (a vanilla tRPC client), every route change is a navigation event, the page's load and connection
 * times are performance events, and hiding the page sends what is queued.
 */
import { createTRPCClient, httpLink } from "@trpc/client";
import { useEffect } from "react";
import superjson from "superjson";
import { useLocation } from "wouter";
import type { AppRouter } from "../../server/trpc/root";
import { PERFORMANCE_ACTIONS } from "../../shared/analytics-constants";
import { analytics, pagePath, track } from "../lib/analytics";

/**
 * Its own client: one request per batch, never batched with the page's calls, and kept alive so
 * that the batch sent when the page is hidden or left still arrives.
 */
function createAnalyticsClient() {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: "/trpc",
        transformer: superjson,
        fetch: (input, init) => fetch(input, { ...(init as RequestInit), keepalive: true }),
      }),
    ],
  });
}

function navigationTiming(): PerformanceNavigationTiming | undefined {
  try {
    return performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  } catch {
    return undefined;
  }
}

function trackLoadTimes(): void {
  const timing = navigationTiming();
  if (!timing) return;
  if (timing.loadEventEnd > 0) {
    track({
      category: "performance",
      action: PERFORMANCE_ACTIONS.pageLoad,
      value: Math.round(timing.loadEventEnd - timing.startTime),
      label: pagePath(window.location.pathname),
    });
  }
  if (timing.responseStart > 0) {
    // Until the server's first byte: name lookup, connection and the server's answer.
    track({
      category: "performance",
      action: PERFORMANCE_ACTIONS.connection,
      value: Math.round(timing.responseStart - timing.startTime),
      metadata: {
        dnsMs: Math.round(timing.domainLookupEnd - timing.domainLookupStart),
        connectMs: Math.round(timing.connectEnd - timing.connectStart),
      },
    });
  }
}

export function AnalyticsEffects() {
  const [location] = useLocation();

  useEffect(() => {
    const client = createAnalyticsClient();
    analytics.setSender((events) => client.analytics.track.mutate({ events }));
    return () => analytics.setSender(undefined);
  }, []);

  useEffect(() => {
    track({ category: "navigation", action: "page_view", label: pagePath(location) });
  }, [location]);

  useEffect(() => {
    // loadEventEnd is set once the load event's handlers have run.
    const measure = () => window.setTimeout(trackLoadTimes, 0);
    if (document.readyState === "complete") {
      const timer = measure();
      return () => window.clearTimeout(timer);
    }
    window.addEventListener("load", measure, { once: true });
    return () => window.removeEventListener("load", measure);
  }, []);

  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") void analytics.flush();
    };
    const onPageHide = () => void analytics.flush();
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, []);

  return null;
}
