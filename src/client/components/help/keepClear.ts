/**
 * On a phone the floating help button keeps clear of content (issue 17): form fields and buttons,
 * their messages and the password strength meter (a form's text, line by line), pictures and
 * figures (the landing page's hero picture), toasts, and anything marked `data-keep-clear`. When its
 * corner holds some, it rises along the right edge to the lowest free spot in the lower part of the
 * screen; when there is none it fades out of the way (it shows again when focused, or once the
 * content has moved on). Measured with getBoundingClientRect on scroll, resize and DOM changes.
 */
import { useEffect, useState } from "react";

/** Below Tailwind's `sm`: where the content runs the full width, under the button's corner. */
export const PHONE_QUERY = "(max-width: 639.98px)";
const OBSTACLES =
  "main input:not([type=hidden]), main textarea, main select, main button, main a[href], main [role=meter], main img, main figure, " +
  "main svg[role=img], main video, main canvas, [data-keep-clear], [data-sonner-toast]";
/** Where text counts line by line: a form's labels, messages and hints (the strength meter's "Weak"). */
const TEXT_ROOTS = "main form, [data-keep-clear-text]";
/** Space kept between the button and content. */
const GAP = 8;
/** The button rises at most to this share of the screen's height (it stays a bottom corner button). */
const HIGHEST = 0.45;

export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * How far (px) the button must rise from its corner so that, grown by `gap`, it touches no
 * obstacle, rising no higher than `highest`; null when no spot is free.
 */
export function liftToKeepClear(button: Box, obstacles: Box[], highest: number, gap = GAP): number | null {
  const inColumn = obstacles.filter(
    (box) => box.right > button.left - gap && box.left < button.right + gap && box.bottom > box.top && box.right > box.left,
  );
  for (let lift = 0; button.top - lift >= highest; lift += 2) {
    const top = button.top - lift - gap;
    const bottom = button.bottom - lift + gap;
    if (!inColumn.some((box) => box.bottom > top && box.top < bottom)) return lift;
  }
  return null;
}

function textBoxes(root: Element, column: { left: number; right: number }): Box[] {
  const boxes: Box[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent?.trim()) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest(".sr-only")) continue;
    const outer = parent.getBoundingClientRect();
    if (outer.right < column.left || outer.left > column.right) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) boxes.push(rect);
  }
  return boxes;
}

function visibleBox(element: Element): Box | null {
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return null;
  const style = getComputedStyle(element);
  if (style.visibility === "hidden" || style.opacity === "0") return null;
  return rect;
}

/** Where the button stands now: `lift` px above its corner, or `hidden` when it has no free spot. */
export function useKeepClear(button: React.RefObject<HTMLElement | null>): { lift: number; hidden: boolean } {
  const [state, setState] = useState({ lift: 0, hidden: false });
  useEffect(() => {
    const element = button.current;
    if (!element || typeof window.matchMedia !== "function") return;
    const phone = window.matchMedia(PHONE_QUERY);
    let frame = 0;
    const measure = () => {
      frame = 0;
      if (!phone.matches) {
        setState((old) => (old.lift === 0 && !old.hidden ? old : { lift: 0, hidden: false }));
        return;
      }
      const style = getComputedStyle(element);
      const viewportWidth = document.documentElement.clientWidth;
      const viewportHeight = window.innerHeight;
      const right = viewportWidth - parseFloat(style.right);
      const bottom = viewportHeight - parseFloat(style.bottom);
      const corner = { left: right - element.offsetWidth, right, top: bottom - element.offsetHeight, bottom };
      const column = { left: corner.left - GAP, right: corner.right + GAP };
      const obstacles: Box[] = [];
      for (const candidate of document.querySelectorAll(OBSTACLES)) {
        if (candidate === element || element.contains(candidate)) continue;
        const box = visibleBox(candidate);
        if (box) obstacles.push(box);
      }
      for (const root of document.querySelectorAll(TEXT_ROOTS)) obstacles.push(...textBoxes(root, column));
      const header = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
      const lift = liftToKeepClear(corner, obstacles, Math.max(header + GAP, viewportHeight * HIGHEST));
      const next = lift === null ? { lift: 0, hidden: true } : { lift, hidden: false };
      setState((old) => (old.lift === next.lift && old.hidden === next.hidden ? old : next));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    schedule();
    window.addEventListener("scroll", schedule, { passive: true, capture: true });
    window.addEventListener("resize", schedule);
    phone.addEventListener("change", schedule);
    // Content arriving or changing (a message, the strength meter, a toast) and pictures loading;
    // not attribute changes, which animations make every frame.
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    window.addEventListener("load", schedule, true);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule, { capture: true });
      window.removeEventListener("resize", schedule);
      phone.removeEventListener("change", schedule);
      observer.disconnect();
      window.removeEventListener("load", schedule, true);
    };
  }, [button]);
  return state;
}
