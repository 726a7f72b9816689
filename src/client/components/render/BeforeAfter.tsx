/**
 * Before/after comparison: the "after" picture with the "before" picture over its left part,
 * split by a handle. Drag anywhere on it (mouse, pen, touch: pointer events), or focus it and use
 * the arrow keys, Page Up/Down, Home and End: it is a slider (role="slider") whose value is the
 * share of the "before" picture shown. Optionally a side-by-side view instead.
 *
 * The whole picture always shows, portrait, square or panorama: the frame takes the picture's own
 * aspect ratio (the size given, then the "before" picture's real size once it has loaded), no
 * taller than most of the screen, and both pictures are contained in it, never cropped.
 */
import { Columns2, SplitSquareHorizontal } from "lucide-react";
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type SyntheticEvent } from "react";
import { useTranslation } from "react-i18next";
import { pictureFrameStyle, pictureSize, type PictureSize } from "../../lib/pictureFrame";
import { MissingPicture, Picture, usePictureFailure } from "./Picture";

interface CompareSliderProps {
  before: string;
  after: string;
  /** Names the pictures for screen readers, e.g. "Scandinavian living room". */
  subject: string;
  /** Intrinsic size, so the frame has its shape before the pictures arrive. */
  width?: number | null | undefined;
  height?: number | null | undefined;
  compact?: boolean;
}

const clamp = (value: number) => Math.min(100, Math.max(0, value));

/** How tall the frame may grow: most of the screen, or less in a card. */
const MAX_HEIGHT = { full: "70vh", compact: "24rem" };

/**
 * The picture's size: the one given until the picture at `src` has loaded, then its real one.
 * Returns the size and the handlers for that picture's <img>.
 */
function usePictureSize(src: string, width: number | null | undefined, height: number | null | undefined) {
  const [measured, setMeasured] = useState<{ src: string; size: PictureSize } | null>(null);
  const image = useRef<HTMLImageElement>(null);
  const measure = (element: HTMLImageElement | null) => {
    const size = element ? pictureSize(element.naturalWidth, element.naturalHeight) : null;
    if (size)
      setMeasured((current) =>
        current?.src === src && current.size.width === size.width && current.size.height === size.height ? current : { src, size },
      );
  };
  // A picture already in the cache may be complete before React listens for its load.
  useLayoutEffect(() => {
    if (image.current?.complete) measure(image.current);
  });
  const size = measured?.src === src ? measured.size : pictureSize(width, height);
  return { size, ref: image, onLoad: (event: SyntheticEvent<HTMLImageElement>) => measure(event.currentTarget) };
}

export function CompareSlider({ before, after, subject, width, height, compact = false }: CompareSliderProps) {
  const { t } = useTranslation();
  const [position, setPosition] = useState(50);
  const frame = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = (clientX: number) => {
    const box = frame.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    setPosition(clamp(Math.round(((clientX - box.left) / box.width) * 100)));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
    moveTo(event.clientX);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(event.clientX);
  };
  const stopDragging = () => {
    dragging.current = false;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 10 : 5;
    const next: Record<string, number> = {
      ArrowLeft: position - step,
      ArrowDown: position - step,
      ArrowRight: position + step,
      ArrowUp: position + step,
      PageDown: position - 25,
      PageUp: position + 25,
      Home: 0,
      End: 100,
    };
    const value = next[event.key];
    if (value === undefined) return;
    event.preventDefault();
    setPosition(clamp(value));
  };

  const picture = usePictureSize(before, width, height);
  const beforeFailure = usePictureFailure(before);
  const afterFailure = usePictureFailure(after);
  const frameStyle = pictureFrameStyle(picture.size, compact ? MAX_HEIGHT.compact : MAX_HEIGHT.full);
  // Either file gone: no comparison to make; the fallback keeps the frame's shape.
  if (beforeFailure.failed || afterFailure.failed) {
    return <MissingPicture className={`mx-auto max-w-full ${compact ? "rounded-lg" : "rounded-xl"}`} style={frameStyle} />;
  }
  const badge =
    "pointer-events-none absolute top-2 rounded bg-slate-950/70 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-white";

  return (
    <div
      ref={frame}
      role="slider"
      tabIndex={0}
      aria-label={t("compare.sliderLabel", { subject })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={position}
      aria-valuetext={t("compare.valueText", { before: position, after: 100 - position })}
      aria-orientation="horizontal"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={stopDragging}
      onPointerCancel={stopDragging}
      onLostPointerCapture={stopDragging}
      onKeyDown={onKeyDown}
      data-testid="compare-slider"
      data-width={picture.size?.width}
      data-height={picture.size?.height}
      className={`relative mx-auto max-w-full cursor-ew-resize touch-pan-y select-none overflow-hidden bg-slate-100 dark:bg-slate-800 ${compact ? "rounded-lg" : "rounded-xl"}`}
      style={frameStyle}
    >
      <img
        src={after}
        alt={t("compare.afterAlt", { subject })}
        draggable={false}
        className="absolute inset-0 size-full object-contain"
        data-testid="compare-after"
        onError={afterFailure.onError}
      />
      <img
        ref={picture.ref}
        onLoad={picture.onLoad}
        onError={beforeFailure.onError}
        src={before}
        alt={t("compare.beforeAlt", { subject })}
        draggable={false}
        className="absolute inset-0 size-full object-contain"
        data-testid="compare-before"
        style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}
      />
      <span className={`${badge} left-2`}>{t("compare.before")}</span>
      <span className={`${badge} right-2`}>{t("compare.after")}</span>
      <div
        className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_4px_rgba(0,0,0,0.5)]"
        style={{ left: `${position}%` }}
      >
        <span
          className={`absolute top-1/2 left-1/2 flex -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-2 border-brand-600 bg-white text-brand-700 shadow ${compact ? "size-7" : "size-9"}`}
        >
          <SplitSquareHorizontal className={compact ? "size-3.5" : "size-4"} aria-hidden="true" />
        </span>
      </div>
    </div>
  );
}

/** The two pictures next to each other (stacked on a phone), each whole, in its own shape. */
export function SideBySide({ before, after, subject }: CompareSliderProps) {
  const { t } = useTranslation();
  const figure = (src: string, label: string, alt: string) => (
    <figure className="min-w-0">
      <Picture
        src={src}
        alt={alt}
        className="h-auto max-h-[70vh] w-full rounded-lg bg-slate-100 object-contain dark:bg-slate-800"
        fallbackClassName="aspect-[4/3]"
      />
      <figcaption className="mt-1.5 text-center text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
        {label}
      </figcaption>
    </figure>
  );
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid="side-by-side">
      {figure(before, t("compare.before"), t("compare.beforeAlt", { subject }))}
      {figure(after, t("compare.after"), t("compare.afterAlt", { subject }))}
    </div>
  );
}

/** The slider, with a toggle to see both pictures side by side. */
export function BeforeAfter(props: Omit<CompareSliderProps, "compact">) {
  const { t } = useTranslation();
  const [sideBySide, setSideBySide] = useState(false);
  return (
    <div>
      {sideBySide ? <SideBySide {...props} /> : <CompareSlider {...props} />}
      <div className="mt-2 flex justify-end">
        <button
          type="button"
          aria-pressed={sideBySide}
          onClick={() => setSideBySide((on) => !on)}
          className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 aria-pressed:bg-brand-50 aria-pressed:text-brand-700 dark:text-slate-300 dark:hover:bg-slate-800 dark:aria-pressed:bg-slate-800 dark:aria-pressed:text-white"
        >
          {sideBySide ? (
            <SplitSquareHorizontal className="size-4" aria-hidden="true" />
          ) : (
            <Columns2 className="size-4" aria-hidden="true" />
          )}
          {t("compare.sideBySide")}
        </button>
      </div>
    </div>
  );
}
