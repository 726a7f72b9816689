/**
 * /enhanced-dashboard's charts, one point a week: finished renders by style (failed apart), credits
 * used and refunded, average render time, and the structure score. The admin analytics' SVG charts:
 * drawn at the real width (readable on a phone), colours for both themes, each a figure with a text
 * summary and its numbers in a table.
 */
import { useTranslation } from "react-i18next";
import { LineChart, StackedBarChart, type Series } from "../admin/Charts";
import { useFormatters } from "../admin/common";
import { cardClass } from "../ui/buttons";
import { creditValues, renderValues, STYLE_COLOURS, stylesOfPeriod, type Activity } from "./activityData";

const OTHER = { fill: "fill-slate-400 dark:fill-slate-500", swatch: "bg-slate-400 dark:bg-slate-500" };
const EDITS = { fill: "fill-violet-500 dark:fill-violet-400", swatch: "bg-violet-500 dark:bg-violet-400" };
const FAILED = { fill: "fill-red-500 dark:fill-red-400", swatch: "bg-red-500 dark:bg-red-400" };

export function ActivityCharts({ activity }: { activity: Activity }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const { weeks, totals } = activity;
  const long = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeZone: "UTC" });
  const short = new Intl.DateTimeFormat(i18n.resolvedLanguage, { day: "numeric", month: "numeric", timeZone: "UTC" });
  const labels = weeks.map((week) => {
    const monday = new Date(`${week.start}T00:00:00Z`);
    // The tables' first column says "Week": the Monday's date alone keeps them narrow on a phone.
    return { label: long.format(monday), short: short.format(monday) };
  });
  const count = (value: number) => format.number(Math.round(value));
  const styleName = (style: string) => t(`styles.${style}`, { defaultValue: style });

  const styles = stylesOfPeriod(weeks);
  const withEdits = weeks.some((week) => week.edits > 0);
  const renderSeries: Series[] = [
    ...styles.shown.map((style, index) => ({ name: styleName(style), ...STYLE_COLOURS[index]! })),
    ...(styles.others ? [{ name: t("activity.charts.otherStyles"), ...OTHER }] : []),
    ...(withEdits ? [{ name: t("activity.charts.edits"), ...EDITS }] : []),
    { name: t("activity.charts.failed"), ...FAILED },
  ];
  const styleTotals = styles.shown.map(
    (style) =>
      `${styleName(style)} ${count(weeks.reduce((sum, week) => sum + (week.byStyle.find((item) => item.style === style)?.count ?? 0), 0))}`,
  );
  const creditSeries: Series[] = [
    { name: t("activity.charts.creditsKept"), fill: "fill-brand-500 dark:fill-indigo-400", swatch: "bg-brand-500 dark:bg-indigo-400" },
    { name: t("activity.charts.creditsRefunded"), fill: "fill-amber-500 dark:fill-amber-400", swatch: "bg-amber-500 dark:bg-amber-400" },
  ];
  const timeSeries: Series = {
    name: t("activity.charts.renderTimeSeries"),
    fill: "fill-sky-600 dark:fill-sky-400",
    stroke: "stroke-sky-600 dark:stroke-sky-400",
    swatch: "bg-sky-600",
  };
  const structureSeries: Series = {
    name: t("activity.charts.structureSeries"),
    fill: "fill-emerald-600 dark:fill-emerald-400",
    stroke: "stroke-emerald-600 dark:stroke-emerald-400",
    swatch: "bg-emerald-600",
  };
  const percent = (score: number) => `${Math.round(score)} %`;
  const chartCard = `${cardClass} min-w-0 p-4 sm:p-5`;

  return (
    <div className="grid gap-4 lg:grid-cols-2 lg:gap-6">
      <section className={chartCard}>
        <StackedBarChart
          testId="chart-activity-renders"
          title={t("activity.charts.renders")}
          summary={t("activity.charts.rendersSummary", {
            finished: count(totals.finished),
            failed: count(totals.failed),
            styles: styleTotals.length > 0 ? styleTotals.join(", ") : t("activity.noRenders"),
          })}
          series={renderSeries}
          points={weeks.map((week, index) => ({ ...labels[index]!, values: renderValues(week, styles, withEdits) }))}
          format={count}
          counts
          xHeader={t("activity.week")}
        />
      </section>
      <section className={chartCard}>
        <StackedBarChart
          testId="chart-activity-credits"
          title={t("activity.charts.credits")}
          summary={t("activity.charts.creditsSummary", {
            used: count(totals.creditsCharged - totals.creditsRefunded),
            refunded: count(totals.creditsRefunded),
          })}
          series={creditSeries}
          points={weeks.map((week, index) => ({ ...labels[index]!, values: creditValues(week) }))}
          format={count}
          counts
          xHeader={t("activity.week")}
        />
      </section>
      <section className={chartCard}>
        <LineChart
          testId="chart-activity-time"
          title={t("activity.charts.renderTime")}
          summary={
            totals.averageRenderMs === null
              ? t("activity.notMeasured")
              : t("activity.charts.renderTimeSummary", { average: format.duration(totals.averageRenderMs) })
          }
          series={timeSeries}
          points={weeks.map((week, index) => ({ ...labels[index]!, values: [week.averageRenderMs] }))}
          // The axis starts at a plain 0 ("0 ms" read as a measured time); weeks without renders have no value.
          format={(ms) => (ms === 0 ? format.number(0) : format.duration(ms))}
          xHeader={t("activity.week")}
          missing={t("activity.noRenders")}
        />
      </section>
      <section className={chartCard}>
        <LineChart
          testId="chart-activity-structure"
          title={t("activity.charts.structure")}
          summary={
            totals.averageStructureScore === null
              ? t("activity.stats.structureNone")
              : t("activity.charts.structureSummary", { average: percent(totals.averageStructureScore * 100) })
          }
          series={structureSeries}
          points={weeks.map((week, index) => ({
            ...labels[index]!,
            values: [week.averageStructureScore === null ? null : week.averageStructureScore * 100],
          }))}
          format={percent}
          xHeader={t("activity.week")}
          missing={t("activity.notMeasured")}
        />
      </section>
    </div>
  );
}
