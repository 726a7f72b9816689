/**
 * Measures drawn over a picture (decision 089): the reference (a rectangle on the floor, or a door's
 * height) and each measure's line with its label. An SVG in the picture's own coordinates (points are
 * fractions of it), laid over the picture's frame; labels are HTML so they stay sharp and readable at
 * any size. With `onPoint`, a click on the picture gives the point clicked (the studio's Measure tool),
 * and so does the keyboard: focused, the picture shows a cross that the arrow keys move (Shift for long
 * steps) and Enter or Space marks. Without it, the overlay is read-only (the client review page).
 */
import { useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatLength, type MeasureReference, type MeasureView, type PhotoMeasures, type Point } from "../../../shared/measures";
import { pictureFrameStyle } from "../../lib/pictureFrame";

export const REFERENCE_COLOUR = "#f59e0b";
export const MEASURE_COLOUR = "#22d3ee";

interface MeasureOverlayProps {
  size: { width: number; height: number };
  reference: MeasureReference | null;
  measures: readonly MeasureView[];
  /** Points clicked so far for what is being marked. */
  pending?: readonly Point[];
  /** Called with the point clicked (fractions of the picture); without it nothing is clickable. */
  onPoint?: (point: Point) => void;
  /** What a click marks now (read by screen readers). */
  clickLabel?: string;
}

/** How far one arrow key moves the keyboard's cross, as a fraction of the picture (Shift: the long step). */
export const KEYBOARD_STEP = { short: 0.0025, long: 0.05 } as const;

const ARROWS: Record<string, Point> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};
const within = (value: number) => Math.min(1, Math.max(0, value));

export function measureText(measure: MeasureView, language: string, unmeasured: string): string {
  const length = measure.lengthCm === null ? unmeasured : formatLength(measure.lengthCm, language);
  return measure.label ? `${measure.label} · ${length}` : length;
}

export function MeasureOverlay({ size, reference, measures, pending = [], onPoint, clickLabel }: MeasureOverlayProps) {
  const { t, i18n } = useTranslation();
  const { width, height } = size;
  const at = (point: Point) => ({ x: point.x * width, y: point.y * height });
  const line = (a: Point, b: Point) => {
    const p = at(a);
    const q = at(b);
    return { x1: p.x, y1: p.y, x2: q.x, y2: q.y };
  };
  // The keyboard's cross: where Enter marks; shown while the keyboard drives the focused picture.
  const [cursor, setCursor] = useState<Point>({ x: 0.5, y: 0.5 });
  const [keyboard, setKeyboard] = useState(false);
  const onClick = (event: ReactMouseEvent<SVGSVGElement>) => {
    if (!onPoint) return;
    setKeyboard(false);
    const box = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width;
    const y = (event.clientY - box.top) / box.height;
    if (x >= 0 && x <= 1 && y >= 0 && y <= 1) onPoint({ x, y });
  };
  const onKeyDown = (event: ReactKeyboardEvent<SVGSVGElement>) => {
    if (!onPoint) return;
    const arrow = ARROWS[event.key];
    if (arrow) {
      event.preventDefault();
      const step = event.shiftKey ? KEYBOARD_STEP.long : KEYBOARD_STEP.short;
      setKeyboard(true);
      setCursor((at) => ({ x: within(at.x + arrow.x * step), y: within(at.y + arrow.y * step) }));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      setKeyboard(true);
      onPoint(cursor);
    }
  };
  const dot = Math.max(width, height) / 160;
  const cross = at(cursor);
  const position = t("measure.keyboardAt", { x: Math.round(cursor.x * 100), y: Math.round(cursor.y * 100) });
  return (
    <>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        className={`absolute inset-0 size-full ${onPoint ? "cursor-crosshair focus:outline-none focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-500" : "pointer-events-none"}`}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onFocus={(event) => setKeyboard(event.currentTarget.matches(":focus-visible"))}
        onBlur={() => setKeyboard(false)}
        tabIndex={onPoint ? 0 : undefined}
        role={onPoint ? "application" : "img"}
        aria-label={
          onPoint
            ? `${clickLabel ?? ""} ${t("measure.keyboardHint")} ${position}`.trim()
            : t("measure.overlayLabel", { count: measures.length })
        }
        data-testid="measure-overlay"
      >
        {reference?.kind === "floor" ? (
          <polygon
            points={reference.corners.map((corner) => `${at(corner).x},${at(corner).y}`).join(" ")}
            fill={`${REFERENCE_COLOUR}33`}
            stroke={REFERENCE_COLOUR}
            strokeWidth={3}
            vectorEffect="non-scaling-stroke"
            data-testid="measure-reference"
          />
        ) : null}
        {reference?.kind === "height" ? (
          <line
            {...line(reference.foot, reference.top)}
            stroke={REFERENCE_COLOUR}
            strokeWidth={4}
            vectorEffect="non-scaling-stroke"
            data-testid="measure-reference"
          />
        ) : null}
        {measures.map((measure) => (
          <g key={measure.id}>
            <line {...line(measure.a, measure.b)} stroke="#0f172a" strokeWidth={5} vectorEffect="non-scaling-stroke" strokeOpacity={0.6} />
            <line
              {...line(measure.a, measure.b)}
              stroke={MEASURE_COLOUR}
              strokeWidth={3}
              vectorEffect="non-scaling-stroke"
              data-testid="measure-line"
            />
            {[measure.a, measure.b].map((point, index) => (
              <circle
                key={index}
                cx={at(point).x}
                cy={at(point).y}
                r={dot}
                fill={MEASURE_COLOUR}
                stroke="#0f172a"
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </g>
        ))}
        {pending.map((point, index) => (
          <circle
            key={index}
            cx={at(point).x}
            cy={at(point).y}
            r={dot * 1.2}
            fill="#ffffff"
            stroke="#0f172a"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
            data-testid="measure-pending"
          />
        ))}
        {onPoint && keyboard ? (
          <g data-testid="measure-cross" data-x={cursor.x.toFixed(4)} data-y={cursor.y.toFixed(4)}>
            {[
              { x1: cross.x - dot * 4, y1: cross.y, x2: cross.x + dot * 4, y2: cross.y },
              { x1: cross.x, y1: cross.y - dot * 4, x2: cross.x, y2: cross.y + dot * 4 },
            ].map((arm, index) => (
              <g key={index}>
                <line {...arm} stroke="#0f172a" strokeWidth={4} vectorEffect="non-scaling-stroke" />
                <line {...arm} stroke="#ffffff" strokeWidth={2} vectorEffect="non-scaling-stroke" />
              </g>
            ))}
          </g>
        ) : null}
      </svg>
      {measures.map((measure) => {
        // At the line's middle; shifted by as much of its own width as the middle is across the picture (none at
        // the left edge, all of it at the right), so the frame never cuts it.
        const middle = {
          x: Math.min(100, Math.max(0, ((measure.a.x + measure.b.x) / 2) * 100)),
          y: Math.min(95, Math.max(5, ((measure.a.y + measure.b.y) / 2) * 100)),
        };
        return (
          <span
            key={measure.id}
            className="pointer-events-none absolute whitespace-nowrap rounded-md bg-slate-900/85 px-1.5 py-0.5 text-xs font-semibold text-white shadow"
            style={{ left: `${middle.x}%`, top: `${middle.y}%`, transform: `translate(-${middle.x.toFixed(1)}%, -50%)` }}
            data-testid="measure-label"
          >
            {measureText(measure, i18n.language, t("measure.unmeasured"))}
          </span>
        );
      })}
    </>
  );
}

/** A photo's measures, read-only: the picture with its lines and labels, and the list (the client review page). */
export function PhotoMeasuresView({ picture, measures }: { picture: string; measures: PhotoMeasures }) {
  const { t, i18n } = useTranslation();
  const size = { width: measures.width, height: measures.height };
  return (
    <section className="space-y-2" data-testid="review-measures">
      <h3 className="text-sm font-semibold">{t("measure.reviewTitle")}</h3>
      <div
        className="relative mx-auto max-w-full overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800"
        style={pictureFrameStyle(size, "min(50vh, 28rem)")}
      >
        <img src={picture} alt="" draggable={false} className="absolute inset-0 size-full select-none object-fill" />
        <MeasureOverlay size={size} reference={measures.reference} measures={measures.measures} />
      </div>
      <ul className="text-sm">
        {measures.measures.map((measure) => (
          <li key={measure.id} data-testid="review-measure">
            {measureText(measure, i18n.language, t("measure.unmeasured"))}
            {measure.withinPercent !== null ? (
              <span className="text-slate-500 dark:text-slate-400"> · ±{measure.withinPercent} %</span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
