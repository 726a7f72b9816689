/** Admin · Analytics: renders per day, render time by provider, sign-ups, conversion to purchase, events. */
import { BadgePercent, ShoppingCart, Users } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { labelled } from "../../lib/format";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { Spinner } from "../Spinner";
import { cardClass, selectClass } from "../ui/buttons";
import { HorizontalBarChart, LineChart, StackedBarChart, type DayPoint, type Series } from "./Charts";
import { ErrorNote, Panel, useFormatters } from "./common";

const RANGES = [7, 30, 90] as const;
const DAY_MS = 86_400_000;

/** Every day of the range (UTC, as the server groups them), oldest first, with the server's values or zeros. */
export function fillDays<T>(
  days: number,
  now: number,
  rows: ReadonlyArray<{ day: string } & T>,
  values: (row: T | undefined) => number[],
  labels: (day: Date) => { label: string; short: string },
): DayPoint[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  const points: DayPoint[] = [];
  for (let index = days - 1; index >= 0; index--) {
    const date = new Date(today - index * DAY_MS);
    const key = date.toISOString().slice(0, 10);
    points.push({ ...labels(date), values: values(byDay.get(key)) });
  }
  return points;
}

export function AnalyticsSection() {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [days, setDays] = useState<number>(30);
  const summary = trpc.admin.analyticsSummary.useQuery({ days }, { staleTime: 0 });
  const data = summary.data;

  const long = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeZone: "UTC" });
  const short = new Intl.DateTimeFormat(i18n.resolvedLanguage, { day: "numeric", month: "numeric", timeZone: "UTC" });
  const labels = (date: Date) => ({ label: long.format(date), short: short.format(date) });
  const now = Date.now();

  const renderSeries: Series[] = [
    { name: t("admin.analytics.succeeded"), fill: "fill-emerald-500 dark:fill-emerald-400", swatch: "bg-emerald-500 dark:bg-emerald-400" },
    { name: t("admin.analytics.failed"), fill: "fill-red-500 dark:fill-red-400", swatch: "bg-red-500 dark:bg-red-400" },
  ];
  const timeSeries: Series[] = [
    { name: t("admin.analytics.p50"), fill: "fill-brand-500", swatch: "bg-brand-500" },
    { name: t("admin.analytics.p95"), fill: "fill-amber-500", swatch: "bg-amber-500" },
  ];
  const signUpSeries: Series = {
    name: t("admin.analytics.signUpsSeries"),
    fill: "fill-brand-600 dark:fill-brand-100",
    stroke: "stroke-brand-600 dark:stroke-brand-100",
    swatch: "bg-brand-600",
  };
  const eventSeries: Series[] = [{ name: t("admin.analytics.events"), fill: "fill-sky-500", swatch: "bg-sky-500" }];
  const structureSeries: Series[] = [{ name: t("admin.analytics.structureAverage"), fill: "fill-emerald-500", swatch: "bg-emerald-500" }];

  const renderPoints = data ? fillDays(days, now, data.rendersPerDay, (row) => [row?.succeeded ?? 0, row?.failed ?? 0], labels) : [];
  const signUpPoints = data ? fillDays(days, now, data.signUpsPerDay, (row) => [row?.count ?? 0], labels) : [];
  const totalRenders = renderPoints.reduce((sum, point) => sum + (point.values[0] ?? 0) + (point.values[1] ?? 0), 0);
  const totalFailed = renderPoints.reduce((sum, point) => sum + (point.values[1] ?? 0), 0);
  const totalSignUps = signUpPoints.reduce((sum, point) => sum + (point.values[0] ?? 0), 0);

  return (
    <Panel
      title={t("admin.analytics.title")}
      description={t("admin.analytics.description")}
      testId="admin-analytics"
      actions={
        <div className="flex items-center gap-2">
          <label htmlFor="analytics-range" className="whitespace-nowrap text-sm font-medium text-slate-700 dark:text-slate-200">
            {t("admin.analytics.range")}
          </label>
          <select
            id="analytics-range"
            className={`${selectClass} w-auto`}
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {RANGES.map((range) => (
              <option key={range} value={range}>
                {t("admin.analytics.lastDays", { count: range })}
              </option>
            ))}
          </select>
        </div>
      }
    >
      {summary.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {summary.error ? <ErrorNote>{friendlyError(summary.error, t)}</ErrorNote> : null}
      {data ? (
        <div className="space-y-6">
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3" data-testid="conversion">
            <div className={`${cardClass} p-4`}>
              <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
                <Users className="size-4" aria-hidden="true" />
                {t("admin.analytics.users")}
              </p>
              <p className="mt-1 text-2xl font-bold tabular-nums">{format.number(data.conversion.users)}</p>
            </div>
            <div className={`${cardClass} p-4`}>
              <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
                <ShoppingCart className="size-4" aria-hidden="true" />
                {t("admin.analytics.purchasers")}
              </p>
              <p className="mt-1 text-2xl font-bold tabular-nums">{format.number(data.conversion.purchasers)}</p>
            </div>
            <div className={`${cardClass} p-4`}>
              <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
                <BadgePercent className="size-4" aria-hidden="true" />
                {t("admin.analytics.conversion")}
              </p>
              <p className="mt-1 text-2xl font-bold tabular-nums">{format.percent(data.conversion.rate)}</p>
              <p className="text-xs text-slate-500 dark:text-slate-400">{t("admin.analytics.conversionHint")}</p>
            </div>
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            <StackedBarChart
              testId="chart-renders"
              title={t("admin.analytics.rendersPerDay")}
              summary={t("admin.analytics.rendersSummary", { total: totalRenders, failed: totalFailed, days })}
              series={renderSeries}
              points={renderPoints}
              format={(value) => format.number(Math.round(value))}
              counts
            />
            <LineChart
              testId="chart-sign-ups"
              title={t("admin.analytics.signUps")}
              summary={t("admin.analytics.signUpsSummary", { total: totalSignUps, days })}
              series={signUpSeries}
              points={signUpPoints}
              format={(value) => format.number(Math.round(value))}
              counts
            />
            <HorizontalBarChart
              testId="chart-render-time"
              title={t("admin.analytics.renderTime")}
              summary={data.renderTimeByProvider
                .map((row) => `${row.provider}: p50 ${format.duration(row.p50Ms ?? 0)}, p95 ${format.duration(row.p95Ms ?? 0)}`)
                .join("; ")}
              series={timeSeries}
              rows={data.renderTimeByProvider.map((row) => ({
                label: `${row.provider} · ${t("admin.analytics.renderCount", { count: row.count })}`,
                values: [row.p50Ms ?? 0, row.p95Ms ?? 0],
              }))}
              format={format.duration}
            />
            <HorizontalBarChart
              testId="chart-structure"
              title={t("admin.analytics.structure")}
              summary={
                data.structureByEngine.length === 0
                  ? t("admin.analytics.structureNone")
                  : data.structureByEngine
                      .map((row) =>
                        labelled(`${row.provider} ${row.model}`, format.percent(Math.round(row.averageScore * 100) / 100), i18n.language),
                      )
                      .join("; ")
              }
              series={structureSeries}
              rows={data.structureByEngine.map((row) => ({
                label: `${row.provider} · ${row.model} · ${t("admin.analytics.renderCount", { count: row.count })}`,
                values: [row.averageScore * 100],
              }))}
              format={(value) => format.percent(Math.round(value) / 100)}
            />
            <HorizontalBarChart
              testId="chart-events"
              title={t("admin.analytics.eventsByCategory")}
              summary={data.eventsByCategory.map((row) => labelled(row.category, format.number(row.count), i18n.language)).join("; ")}
              series={eventSeries}
              rows={data.eventsByCategory.map((row) => ({
                label: t(`admin.analytics.categories.${row.category}`, { defaultValue: row.category }),
                values: [row.count],
              }))}
              format={format.number}
            />
          </div>
        </div>
      ) : null}
    </Panel>
  );
}
