/**
 * Small SVG charts for the admin analytics and /enhanced-dashboard: bars per day or week (stacked
 * series), a line per day or week (with gaps where there is no value), and horizontal bars. Drawn at the container's real width (no scaled-down text on a phone), in
 * colours that hold in both themes. Each chart is a figure with a caption, an image role with a
 * one-line summary, and its numbers in a table under "Show data" for everyone who prefers them.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { labelled } from "../../lib/format";

export interface Series {
  name: string;
  /** Tailwind fill class (and stroke class for lines), e.g. "fill-emerald-500". */
  fill: string;
  stroke?: string;
  swatch: string;
}

function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** Round maximum for an axis: 1, 2, 5 × 10^n. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/**
 * Where the y axis gets a grid line and a label: 0, the middle and the top. For counts
 * (`wholeNumbers`) every line sits on a whole number: when the middle is not one (a top of 1 or
 * 5), the top is split into the fewest whole steps that fit (5 → 0, 1, 2, 3, 4, 5; 1 → 0, 1).
 */
export function axisTicks(max: number, wholeNumbers = false): number[] {
  if (!wholeNumbers) return [0, max / 2, max];
  const top = Math.max(1, Math.ceil(max));
  for (let intervals = 2; intervals <= 5; intervals++)
    if (top % intervals === 0) return Array.from({ length: intervals + 1 }, (_, index) => (top / intervals) * index);
  return [0, top];
}

function Legend({ series }: { series: Series[] }) {
  if (series.length < 2) return null;
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300" aria-hidden="true">
      {series.map((item) => (
        <li key={item.name} className="inline-flex items-center gap-1.5">
          <span className={`inline-block size-2.5 rounded-sm ${item.swatch}`} />
          {item.name}
        </li>
      ))}
    </ul>
  );
}

function DataTable({ headers, rows }: { headers: string[]; rows: ReactNode[][] }) {
  const { t } = useTranslation();
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-xs font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-100">
        {t("admin.analytics.showData")}
      </summary>
      <div className="mt-2 max-h-64 overflow-auto">
        <table className="w-full text-left text-xs">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-800">
              {headers.map((header) => (
                <th key={header} scope="col" className="px-2 py-1 font-semibold">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={index} className="border-b border-slate-100 last:border-0 dark:border-slate-800/60">
                {row.map((cell, cellIndex) => (
                  <td key={cellIndex} className={`px-2 py-1 tabular-nums ${cellIndex === 0 ? "whitespace-nowrap" : ""}`}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

const AXIS = "fill-slate-500 text-[11px] dark:fill-slate-400";
const GRID = "stroke-slate-200 dark:stroke-slate-800";

interface ChartFrameProps {
  title: string;
  summary: string;
  series: Series[];
  headers: string[];
  rows: ReactNode[][];
  empty: boolean;
  children: (width: number) => ReactNode;
  testId?: string;
}

function ChartFrame({ title, summary, series, headers, rows, empty, children, testId }: ChartFrameProps) {
  const { t } = useTranslation();
  const [ref, width] = useWidth<HTMLDivElement>();
  return (
    <figure className="space-y-3" data-testid={testId}>
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold">{title}</span>
        <Legend series={series} />
      </figcaption>
      <div ref={ref} className="w-full">
        {empty ? (
          <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
            {t("admin.analytics.noData")}
          </p>
        ) : width > 0 ? (
          <svg role="img" aria-label={`${title}. ${summary}`} width={width} height={200} className="block overflow-visible">
            {children(width)}
          </svg>
        ) : (
          <div className="h-[200px]" />
        )}
      </div>
      {empty ? null : <DataTable headers={headers} rows={rows} />}
    </figure>
  );
}

function YAxis({
  width,
  top,
  height,
  left,
  max,
  format,
  wholeNumbers,
}: {
  width: number;
  top: number;
  height: number;
  left: number;
  max: number;
  format(value: number): string;
  wholeNumbers?: boolean;
}) {
  const ticks = axisTicks(max, wholeNumbers);
  return (
    <g>
      {ticks.map((tick) => {
        const y = top + height - (tick / max) * height;
        return (
          <g key={tick}>
            <line x1={left} x2={width} y1={y} y2={y} className={GRID} strokeWidth={1} />
            <text x={left - 6} y={y} dy="0.32em" textAnchor="end" className={AXIS}>
              {format(tick)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** Labels along the bottom, thinned out so they never overlap. */
function XLabels({ labels, x, y, slot }: { labels: string[]; x(index: number): number; y: number; slot: number }) {
  const every = Math.max(1, Math.ceil(44 / Math.max(slot, 1)));
  return (
    <g>
      {labels.map((label, index) =>
        index % every === 0 ? (
          <text key={index} x={x(index)} y={y} textAnchor="middle" className={AXIS}>
            {label}
          </text>
        ) : null,
      )}
    </g>
  );
}

export interface DayPoint {
  /** Full label (table, tooltip), e.g. "12 Mar 2025". */
  label: string;
  /** Short label on the axis, e.g. "12/3". */
  short: string;
  values: number[];
}

/** A line chart's point: null where there is no value (a gap in the line, `missing` in the table). */
export interface LinePoint extends Omit<DayPoint, "values"> {
  values: (number | null)[];
}

const MARGIN = { top: 8, right: 4, bottom: 24, left: 40 };

export function StackedBarChart({
  title,
  summary,
  series,
  points,
  format = String,
  testId,
  xHeader,
  counts = false,
}: {
  title: string;
  summary: string;
  series: Series[];
  points: DayPoint[];
  format?(value: number): string;
  testId?: string;
  /** The table's first column (default "Day"). */
  xHeader?: string;
  /** The values are counts: grid lines on whole numbers only. */
  counts?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const total = (point: DayPoint) => point.values.reduce((sum, value) => sum + value, 0);
  const max = niceMax(Math.max(0, ...points.map(total)));
  const empty = points.length === 0 || points.every((point) => total(point) === 0);
  return (
    <ChartFrame
      title={title}
      summary={summary}
      series={series}
      empty={empty}
      testId={testId}
      headers={[xHeader ?? t("admin.analytics.day"), ...series.map((item) => item.name)]}
      rows={points.map((point) => [point.label, ...point.values.map(format)])}
    >
      {(width) => {
        const plotWidth = width - MARGIN.left - MARGIN.right;
        const plotHeight = 200 - MARGIN.top - MARGIN.bottom;
        const slot = plotWidth / points.length;
        const barWidth = Math.max(2, Math.min(28, slot * 0.7));
        const x = (index: number) => MARGIN.left + slot * index + slot / 2;
        return (
          <>
            <YAxis
              width={width - MARGIN.right}
              top={MARGIN.top}
              height={plotHeight}
              left={MARGIN.left}
              max={max}
              format={format}
              wholeNumbers={counts}
            />
            {points.map((point, index) => {
              let base = 0;
              return (
                <g key={point.label}>
                  <title>
                    {labelled(
                      point.label,
                      series.map((item, seriesIndex) => `${item.name} ${format(point.values[seriesIndex] ?? 0)}`).join(", "),
                      i18n.language,
                    )}
                  </title>
                  {point.values.map((value, seriesIndex) => {
                    const height = (value / max) * plotHeight;
                    const y = MARGIN.top + plotHeight - ((base + value) / max) * plotHeight;
                    base += value;
                    return value > 0 ? (
                      <rect
                        key={seriesIndex}
                        x={x(index) - barWidth / 2}
                        y={y}
                        width={barWidth}
                        height={Math.max(height, 1)}
                        rx={Math.min(3, barWidth / 4)}
                        className={series[seriesIndex]?.fill}
                      />
                    ) : null;
                  })}
                </g>
              );
            })}
            <XLabels labels={points.map((point) => point.short)} x={x} y={200 - 6} slot={slot} />
          </>
        );
      }}
    </ChartFrame>
  );
}

export function LineChart({
  title,
  summary,
  series,
  points,
  format = String,
  testId,
  xHeader,
  missing = "—",
  counts = false,
}: {
  title: string;
  summary: string;
  series: Series;
  points: LinePoint[];
  format?(value: number): string;
  testId?: string;
  /** The table's first column (default "Day"). */
  xHeader?: string;
  /** The table's text for a point without a value. */
  missing?: string;
  /** The values are counts: grid lines on whole numbers only. */
  counts?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const max = niceMax(Math.max(0, ...points.map((point) => point.values[0] ?? 0)));
  const empty = points.length === 0 || points.every((point) => (point.values[0] ?? 0) === 0);
  const valueOf = (point: LinePoint) => point.values[0] ?? null;
  return (
    <ChartFrame
      title={title}
      summary={summary}
      series={[series]}
      empty={empty}
      testId={testId}
      headers={[xHeader ?? t("admin.analytics.day"), series.name]}
      rows={points.map((point) => [point.label, valueOf(point) === null ? missing : format(valueOf(point)!)])}
    >
      {(width) => {
        const plotWidth = width - MARGIN.left - MARGIN.right;
        const plotHeight = 200 - MARGIN.top - MARGIN.bottom;
        const slot = plotWidth / points.length;
        const x = (index: number) => MARGIN.left + slot * index + slot / 2;
        const y = (value: number) => MARGIN.top + plotHeight - (value / max) * plotHeight;
        // A point without a value breaks the line: the next one starts a new segment.
        const path = points
          .map((point, index) => {
            const value = valueOf(point);
            if (value === null) return "";
            const previous = index > 0 ? valueOf(points[index - 1]!) : null;
            return `${previous === null ? "M" : "L"}${x(index).toFixed(1)},${y(value).toFixed(1)}`;
          })
          .filter(Boolean)
          .join(" ");
        return (
          <>
            <YAxis
              width={width - MARGIN.right}
              top={MARGIN.top}
              height={plotHeight}
              left={MARGIN.left}
              max={max}
              format={format}
              wholeNumbers={counts}
            />
            <path d={path} fill="none" strokeWidth={2} strokeLinejoin="round" className={series.stroke} />
            {points.map((point, index) => {
              const value = valueOf(point);
              return value === null ? null : (
                <circle key={point.label} cx={x(index)} cy={y(value)} r={slot > 12 ? 3 : 1.5} className={series.fill}>
                  <title>{labelled(point.label, format(value), i18n.language)}</title>
                </circle>
              );
            })}
            <XLabels labels={points.map((point) => point.short)} x={x} y={200 - 6} slot={slot} />
          </>
        );
      }}
    </ChartFrame>
  );
}

export interface BarRow {
  label: string;
  values: number[];
}

/** Horizontal bars, one group per row (e.g. p50 and p95 per provider). */
export function HorizontalBarChart({
  title,
  summary,
  series,
  rows,
  format = String,
  testId,
}: {
  title: string;
  summary: string;
  series: Series[];
  rows: BarRow[];
  format?(value: number): string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const max = niceMax(Math.max(0, ...rows.flatMap((row) => row.values)));
  const empty = rows.length === 0;
  const barHeight = 14;
  return (
    <figure className="space-y-3" data-testid={testId}>
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold">{title}</span>
        <Legend series={series} />
      </figcaption>
      {empty ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
          {t("admin.analytics.noData")}
        </p>
      ) : (
        <>
          <div className="space-y-3" role="img" aria-label={`${title}. ${summary}`}>
            {rows.map((row) => (
              <div key={row.label} className="space-y-1">
                <p className="truncate text-sm font-medium" aria-hidden="true">
                  {row.label}
                </p>
                {row.values.map((value, index) => (
                  <div key={index} className="flex items-center gap-2" aria-hidden="true">
                    <div className="h-3.5 flex-1 overflow-hidden rounded-sm bg-slate-100 dark:bg-slate-800">
                      <svg width="100%" height={barHeight} className="block" preserveAspectRatio="none" viewBox={`0 0 ${max} ${barHeight}`}>
                        <rect x={0} y={0} width={Math.max(value, max / 200)} height={barHeight} className={series[index]?.fill} />
                      </svg>
                    </div>
                    <span className="w-20 shrink-0 text-right text-xs tabular-nums text-slate-600 dark:text-slate-300">
                      {format(value)}
                    </span>
                  </div>
                ))}
              </div>
            ))}
          </div>
          <DataTable headers={["", ...series.map((item) => item.name)]} rows={rows.map((row) => [row.label, ...row.values.map(format)])} />
        </>
      )}
    </figure>
  );
}
