/**
 * /enhanced-dashboard: the server's weeks (render.activity) turned into the charts' series and points.
 * The weeks come complete from the server (empty weeks are zeros), so nothing here fills gaps.
 */
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";

export type Activity = inferRouterOutputs<AppRouter>["render"]["activity"];
export type ActivityWeek = Activity["weeks"][number];

/** How many styles get their own colour; the rest are "Other styles". */
export const STYLES_SHOWN = 5;

/** Colours of the style series, in both themes (fill for the bars, swatch for the legend). */
export const STYLE_COLOURS = [
  { fill: "fill-brand-500 dark:fill-indigo-400", swatch: "bg-brand-500 dark:bg-indigo-400" },
  { fill: "fill-sky-500 dark:fill-sky-400", swatch: "bg-sky-500 dark:bg-sky-400" },
  { fill: "fill-amber-500 dark:fill-amber-400", swatch: "bg-amber-500 dark:bg-amber-400" },
  { fill: "fill-emerald-600 dark:fill-emerald-400", swatch: "bg-emerald-600 dark:bg-emerald-400" },
  { fill: "fill-fuchsia-600 dark:fill-fuchsia-400", swatch: "bg-fuchsia-600 dark:bg-fuchsia-400" },
] as const;

/** The styles of the period, most rendered first (ties by name): those shown with a colour, and whether others remain. */
export function stylesOfPeriod(weeks: readonly ActivityWeek[]): { shown: string[]; others: boolean } {
  const totals = new Map<string, number>();
  for (const week of weeks) for (const { style, count } of week.byStyle) totals.set(style, (totals.get(style) ?? 0) + count);
  const ordered = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([style]) => style);
  return { shown: ordered.slice(0, STYLES_SHOWN), others: ordered.length > STYLES_SHOWN };
}

/** A week's values for the renders chart: each style shown, other styles (when any), edits (when any), failed. */
export function renderValues(week: ActivityWeek, styles: { shown: string[]; others: boolean }, withEdits: boolean): number[] {
  const count = (style: string) => week.byStyle.find((item) => item.style === style)?.count ?? 0;
  const values = styles.shown.map(count);
  if (styles.others)
    values.push(week.byStyle.filter((item) => !styles.shown.includes(item.style)).reduce((sum, item) => sum + item.count, 0));
  if (withEdits) values.push(week.edits);
  values.push(week.failed);
  return values;
}

/** A week's credits: those its renders kept (charged less refunded), then those given back. */
export function creditValues(week: ActivityWeek): number[] {
  return [Math.max(0, week.creditsCharged - week.creditsRefunded), week.creditsRefunded];
}

/** True when the period holds nothing to chart: no render ended and no credit moved. */
export function isEmptyActivity(activity: Activity): boolean {
  const { totals } = activity;
  return totals.finished === 0 && totals.failed === 0 && totals.creditsCharged === 0 && totals.creditsRefunded === 0;
}
