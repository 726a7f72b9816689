/**
 * The stats strip, honestly: the renders made and their average time as this studio measured
 * them (system.landingStats), and the free render a visitor gets. No satisfaction score: it is not
 * measured, so it is not shown (the note under the strip says so).
 */
import { Activity } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CREDITS } from "../../../shared/constants";
import { formatNumber } from "../../lib/numbers";
import { useSharedQuery } from "../../lib/queries";

function Figure({ value, label, measured, testId }: { value: ReactNode; label: string; measured?: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center px-4 py-3 text-center sm:py-5" data-testid={testId}>
      <dt className="order-2 mt-1 text-sm font-medium text-slate-700 dark:text-slate-200">{label}</dt>
      <dd className="order-1 text-3xl font-extrabold tracking-tight text-brand-700 tabular-nums sm:text-4xl dark:text-brand-100">
        {value}
      </dd>
      {measured ? (
        <dd className="order-3 mt-2 inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-200">
          <Activity className="size-3" aria-hidden="true" />
          {t("home.stats.measuredHere")}
        </dd>
      ) : null}
    </div>
  );
}

export function StatsStrip() {
  const { t, i18n } = useTranslation();
  const stats = useSharedQuery("system.landingStats");
  const number = (value: number, digits = 0) => formatNumber(i18n.language, value, digits);
  const pending = <span className="text-slate-300 dark:text-slate-600">—</span>;
  const average = stats.data?.averageRenderSeconds;

  return (
    <section aria-label={t("home.stats.label")} className="border-y border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
        <dl className="grid divide-y divide-slate-200 sm:grid-cols-3 sm:divide-x sm:divide-y-0 dark:divide-slate-800">
          <Figure
            testId="stat-renders"
            value={stats.data ? number(stats.data.rendersMade) : pending}
            label={t("home.stats.rendersMade")}
            measured
          />
          {average === null ? (
            <Figure testId="stat-time" value={t("home.stats.typicalTimeValue")} label={t("home.stats.typicalTime")} />
          ) : (
            <Figure
              testId="stat-time"
              value={average === undefined ? pending : `${number(average, average < 10 ? 1 : 0)} s`}
              label={t("home.stats.averageTime")}
              measured
            />
          )}
          <Figure testId="stat-free" value={number(CREDITS.visitorDemoRenders)} label={t("home.stats.freeRender")} />
        </dl>
        <p className="mx-auto mt-2 max-w-3xl text-center text-xs text-slate-500 dark:text-slate-400">{t("home.stats.note")}</p>
      </div>
    </section>
  );
}
