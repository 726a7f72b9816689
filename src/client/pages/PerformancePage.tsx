/**
 * /performance (public): what this server actually measured over the last 30 days (renders,
 * success rate, median and 95th-percentile render time, the queue now) and the engine it uses.
 * No marketing figures: where there is too little data, it says so.
 */
import { Activity, CheckCircle2, Clock, Cpu, Gauge, ListOrdered, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { engineName } from "../components/info/common";
import { EngineNote } from "../components/render/Callouts";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, linkClass } from "../components/ui/buttons";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

function Figure({
  icon,
  label,
  value,
  hint,
  testId,
}: {
  icon: ReactNode;
  label: string;
  value: string | null;
  hint?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={`${cardClass} min-w-0 p-4 sm:p-5`} data-testid={testId}>
      <p className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
        <span className="shrink-0 [&>svg]:size-4">{icon}</span>
        {label}
      </p>
      {value === null ? (
        <p className="mt-2 text-base font-medium text-slate-500 dark:text-slate-400">{t("performance.notEnoughData")}</p>
      ) : (
        <p className="mt-1 text-2xl font-bold tabular-nums sm:text-3xl">{value}</p>
      )}
      {hint ? <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p> : null}
    </div>
  );
}

export default function PerformancePage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const figures = trpc.system.performance.useQuery(undefined, { staleTime: 30_000, refetchInterval: 30_000 });
  const data = figures.data;
  const number = new Intl.NumberFormat(language);
  const seconds = (ms: number) =>
    new Intl.NumberFormat(language, {
      style: "unit",
      unit: "second",
      unitDisplay: "short",
      maximumFractionDigits: ms < 10_000 ? 1 : 0,
    }).format(ms / 1000);
  const percent = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 1 });
  const finished = data ? data.succeeded + data.failed : 0;

  return (
    <PageShell
      title={t("pages.performance.title")}
      intro={data ? t("performance.intro", { count: data.days }) : undefined}
      actions={
        <button type="button" className={buttonClass.secondary} onClick={() => void figures.refetch()} disabled={figures.isFetching}>
          <RefreshCw className={`size-4 ${figures.isFetching ? "animate-spin motion-reduce:animate-none" : ""}`} aria-hidden="true" />
          {t("performance.refresh")}
        </button>
      }
    >
      {figures.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {figures.error ? (
        <p role="alert" className="text-slate-600 dark:text-slate-300">
          {friendlyError(figures.error, t)}
        </p>
      ) : null}
      {data ? (
        <>
          <p
            className="inline-flex items-center gap-2 rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-700 dark:bg-brand-700/20 dark:text-brand-100"
            data-testid="measured-note"
          >
            <Gauge className="size-4" aria-hidden="true" />
            {t("performance.measured", { count: data.days })}
          </p>
          <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-3">
            <Figure
              testId="figure-renders"
              icon={<Activity />}
              label={t("performance.renders", { count: data.days })}
              value={number.format(data.renders)}
              hint={t("performance.rendersHint", { succeeded: data.succeeded, failed: data.failed })}
            />
            <Figure
              testId="figure-success"
              icon={<CheckCircle2 />}
              label={t("performance.successRate")}
              value={finished > 0 ? percent.format(data.succeeded / finished) : null}
              hint={t("performance.successHint")}
            />
            <Figure
              testId="figure-queue"
              icon={<ListOrdered />}
              label={t("performance.queue")}
              value={number.format(data.queueLength)}
              hint={t("performance.queueHint")}
            />
            <Figure
              testId="figure-p50"
              icon={<Clock />}
              label={t("performance.p50")}
              value={data.renderTimeP50Ms === null ? null : seconds(data.renderTimeP50Ms)}
              hint={t("performance.p50Hint")}
            />
            <Figure
              testId="figure-p95"
              icon={<Clock />}
              label={t("performance.p95")}
              value={data.renderTimeP95Ms === null ? null : seconds(data.renderTimeP95Ms)}
              hint={t("performance.p95Hint")}
            />
            <Figure
              testId="figure-engine"
              icon={<Cpu />}
              label={t("performance.engine")}
              value={engineName(data.engine, t)}
              hint={data.engine.isAi ? t("performance.engineAi") : t("performance.enginePreview")}
            />
          </div>
          <EngineNote engine={data.engine} />
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {t("performance.howMeasured")}{" "}
            <Link href="/upload" className={linkClass}>
              {t("performance.tryIt")}
            </Link>
          </p>
        </>
      ) : null}
    </PageShell>
  );
}
