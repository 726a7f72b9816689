/**
 * The pages the visitor sees, noted by the app's shell from the first one on, for analytics, which
 * is loaded after the first load (AnalyticsEffects): it hears about the pages seen before it came.
 */
type Listener = (path: string) => void;

const seen: string[] = [];
let listener: Listener | null = null;

export function notePageView(path: string): void {
  if (listener) listener(path);
  else seen.push(path);
}

/** Calls `next` for the pages seen so far, then for each new one; returns the function that stops it. */
export function followPageViews(next: Listener): () => void {
  listener = next;
  for (const path of seen.splice(0)) next(path);
  return () => {
    if (listener === next) listener = null;
  };
}
