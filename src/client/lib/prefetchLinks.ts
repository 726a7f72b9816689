/**
 * Fetches a page's code, texts and the data layer as soon as the pointer reaches (or the keyboard
 * focuses, or a finger touches) a link to it, so that the click finds them on their way or here.
 */
export function prefetchLinks(preload: (path: string) => void): void {
  const onIntent = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin || link.pathname === location.pathname) return;
    preload(link.pathname);
  };
  const options = { capture: true, passive: true } as const;
  for (const type of ["pointerover", "focusin", "touchstart"]) document.addEventListener(type, onIntent, options);
}
