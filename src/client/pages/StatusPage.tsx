/**
 * /test (public): the live status of this installation from system.info and system.performance:
 * version, render engine, queue length, database, uptime and recent renders. Refreshes itself.
 */
import { Activity, CheckCircle2, Cpu, Database, ListOrdered, Mail, RefreshCw, Tag, Timer, XCircle } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AiBadge, FigureCard, engineName, formatUptime } from "../components/info/common";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, linkClass } from "../components/ui/buttons";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

const REFRESH_MS = 15_000;

export default function StatusPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const info = trpc.system.info.useQuery(undefined, { staleTime: 0, refetchInterval: REFRESH_MS });
  const performance = trpc.system.performance.useQuery(undefined, { staleTime: 0, refetchInterval: REFRESH_MS });
  const number = new Intl.NumberFormat(language);
  const checkedAt = Math.max(info.dataUpdatedAt, performance.dataUpdatedAt);
  const fetching = info.isFetching || performance.isFetching;
  const error = info.error ?? performance.error;
  const refresh = () => void Promise.all([info.refetch(), performance.refetch()]);

  return (
    <PageShell
      wide
      title={t("pages.test.title")}
      intro={t("infoPages.status.intro")}
      actions={
        <button type="button" className={buttonClass.secondary} onClick={refresh} disabled={fetching}>
          <RefreshCw className={`size-4 ${fetching ? "animate-spin motion-reduce:animate-none" : ""}`} aria-hidden="true" />
          {t("infoPages.common.refresh")}
        </button>
      }
    >
      {info.isLoading || performance.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {error ? (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
        >
          {t("infoPages.common.loadFailed", { message: friendlyError(error, t) })}
        </p>
      ) : null}

      {info.data ? (
        <div
          className={`flex flex-wrap items-center justify-between gap-3 rounded-xl border px-4 py-3 ${
            info.data.databaseOk
              ? "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-100"
              : "border-red-200 bg-red-50 text-red-900 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100"
          }`}
          role="status"
          data-testid="status-summary"
        >
          <p className="flex items-center gap-2 font-semibold">
            {info.data.databaseOk ? (
              <CheckCircle2 className="size-5" aria-hidden="true" />
            ) : (
              <XCircle className="size-5" aria-hidden="true" />
            )}
            {info.data.databaseOk ? t("infoPages.status.allGood") : t("infoPages.status.degraded")}
          </p>
          {checkedAt > 0 ? (
            <p className="text-sm opacity-80" data-testid="status-checked-at">
              {t("infoPages.common.checkedAt", { time: new Intl.DateTimeFormat(language, { timeStyle: "medium" }).format(checkedAt) })}
            </p>
          ) : null}
        </div>
      ) : null}

      {info.data && performance.data ? (
        <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-3" data-testid="status-figures">
          <FigureCard
            testId="status-version"
            icon={<Tag />}
            label={t("infoPages.status.version")}
            value={<span className="font-mono">{info.data.version}</span>}
            hint={info.data.productName}
          />
          <FigureCard
            testId="status-engine"
            icon={<Cpu />}
            label={t("infoPages.status.engine")}
            value={engineName(performance.data.engine, t)}
            hint={<AiBadge isAi={performance.data.engine.isAi} />}
          />
          <FigureCard
            testId="status-queue"
            icon={<ListOrdered />}
            label={t("infoPages.status.queue")}
            value={number.format(performance.data.queueLength)}
            hint={t("infoPages.status.queueHint")}
          />
          <FigureCard
            testId="status-database"
            icon={<Database />}
            label={t("infoPages.status.database")}
            value={
              <span className={info.data.databaseOk ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}>
                {info.data.databaseOk ? t("infoPages.status.databaseOk") : t("infoPages.status.databaseError")}
              </span>
            }
          />
          <FigureCard
            testId="status-uptime"
            icon={<Timer />}
            label={t("infoPages.status.uptime")}
            value={formatUptime(info.data.uptimeSeconds, language)}
          />
          <FigureCard
            testId="status-renders"
            icon={<Activity />}
            label={t("infoPages.status.renders", { count: performance.data.days })}
            value={number.format(performance.data.renders)}
            hint={t("infoPages.status.rendersHint", {
              succeeded: performance.data.succeeded,
              failed: performance.data.failed,
            })}
          />
        </div>
      ) : null}

      {info.data ? (
        <p className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-600 dark:text-slate-400">
          <span className="inline-flex items-center gap-2">
            <Mail className="size-4 shrink-0" aria-hidden="true" />
            <a href={`mailto:${info.data.supportEmail}`} className={linkClass}>
              {t("infoPages.status.support", { email: info.data.supportEmail })}
            </a>
          </span>
          <Link href="/performance" className={linkClass}>
            {t("infoPages.common.seePerformance")}
          </Link>
          <Link href="/ai-lab" className={linkClass}>
            {t("pages.aiLab.title")}
          </Link>
        </p>
      ) : null}
    </PageShell>
  );
}
