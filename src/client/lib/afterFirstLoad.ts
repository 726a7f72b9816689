/**
 * When what the first paint does not show may load (issue 15): after the page's load event, once
 * the main thread is idle (at most a second later), so it never competes with the first paint or
 * hydration.
 */
import { startTransition, useEffect, useState } from "react";
import { FIRST_LOAD_MARK } from "../../shared/constants";

let ready: Promise<void> | null = null;

export function afterFirstLoad(): Promise<void> {
  ready ??= new Promise<void>((resolve) => {
    const whenIdle = () => {
      if ("requestIdleCallback" in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
      else setTimeout(resolve, 200);
    };
    if (document.readyState === "complete") whenIdle();
    else window.addEventListener("load", whenIdle, { once: true });
  }).then(() => {
    performance.mark(FIRST_LOAD_MARK);
  });
  return ready;
}

/** False until afterFirstLoad. */
export function useAfterFirstLoad(): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    let live = true;
    // A transition: what appears then (the help button, the examples) renders in slices.
    void afterFirstLoad().then(() => {
      if (live) startTransition(() => setDone(true));
    });
    return () => {
      live = false;
    };
  }, []);
  return done;
}
