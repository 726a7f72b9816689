/**
 * A new page starts at its top (issue 27): without this the window kept the previous page's scroll
 * position, so a phone that pressed Render at the foot of the style page opened /render at its
 * footer. Back and forward are left to the browser, which puts the reader back where they were; a
 * link to an anchor (/guide#credits) scrolls to the anchor. Only a new path counts: a page that
 * changes its own query (a tab, a version in the studio) keeps its place.
 */
import { useLayoutEffect, useRef } from "react";

/** The path the last back or forward went to (a popstate that changed only the query or hash does not count later). */
let poppedTo: string | null = null;
if (typeof window !== "undefined") {
  window.addEventListener("popstate", () => {
    poppedTo = window.location.pathname;
  });
}

function anchorOf(hash: string): HTMLElement | null {
  try {
    return hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  } catch {
    return null; // a malformed escape in the address: no anchor
  }
}

export function useScrollToTopOnNavigation(path: string): void {
  const previous = useRef(path);
  useLayoutEffect(() => {
    if (previous.current === path) return;
    previous.current = path;
    const restoring = poppedTo === path;
    poppedTo = null;
    if (restoring) return;
    const anchor = anchorOf(window.location.hash);
    if (anchor) anchor.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [path]);
}
