/**
 * The app-wide analytics hooks (spec section 4), rendered once in App after the first load: the queue sends to
 * analytics.track, every route change is a navigation event, the page's load and connection times
 * are performance events, and hiding the page sends what is queued.
 */
import { useEffect } from "react";
import { PERFORMANCE_ACTIONS } from "../../shared/analytics-constants";
import { analytics, pagePath, track } from "../lib/analytics";
import { postAnalyticsEvents } from "../lib/analyticsTransport";
import { followPageViews } from "../lib/pageViews";

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
  useEffect(() => {
    analytics.setSender(postAnalyticsEvents);
    return () => analytics.setSender(undefined);
  }, []);

  // Every page seen, from the first (noted before this was loaded) on.
  useEffect(
    () =>
      followPageViews((path) => {
        track({ category: "navigation", action: "page_view", label: pagePath(path) });
      }),
    [],
  );

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
