/**
 * The window's title: "<page's heading> · <studio>" (/admin → Studio names the studio), the
 * heading alone when it names the studio itself, or the studio's name alone on the landing page. One place for every page: it follows the page's first
 * heading in <main> as lazy pages arrive and languages change.
 */
import { useEffect } from "react";
import { useStudio } from "./studio";

export function useDocumentTitle(location: string): void {
  const { name } = useStudio();
  useEffect(() => {
    const main = document.querySelector("main");
    const update = () => {
      const heading = location === "/" ? "" : (main?.querySelector("h1")?.textContent?.trim() ?? "");
      // A heading that names the studio already ("Welcome to Casa Nova") is the whole title.
      const title = !heading ? name : heading.includes(name) ? heading : `${heading} · ${name}`;
      if (document.title !== title) document.title = title;
    };
    update();
    if (!main) return;
    let scheduled = 0;
    const observer = new MutationObserver(() => {
      if (scheduled) return;
      scheduled = requestAnimationFrame(() => {
        scheduled = 0;
        update();
      });
    });
    observer.observe(main, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(scheduled);
    };
  }, [location, name]);
}
