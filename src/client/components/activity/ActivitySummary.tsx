/** /enhanced-dashboard's figures of the whole period, and what a new user sees instead of charts. */
import { BarChart3, Coins, Gauge, ImageIcon, Upload } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useFormatters } from "../admin/common";
import { buttonClass, cardClass } from "../ui/buttons";
import type { Activity } from "./activityData";

function Figure({ icon, label, value, hint, testId }: { icon: ReactNode; label: string; value: string; hint: string; testId: string }) {
  return (
    <div className={`${cardClass} min-w-0 p-4`} data-testid={testId}>
      <dt className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        {icon}
        {label}
      </dt>
      <dd className="mt-1 text-2xl font-bold tabular-nums" data-testid={`${testId}-value`}>
        {value}
      </dd>
      <dd className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{hint}</dd>
    </div>
  );
}

export function ActivityFigures({ activity }: { activity: Activity }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { totals } = activity;
  const iconClass = "size-4 shrink-0";
  return (
    <section aria-labelledby="activity-figures">
      <h2 id="activity-figures" className="sr-only">
        {t("activity.stats.label")}
      </h2>
      <dl className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 lg:grid-cols-4">
        <Figure
          testId="activity-finished"
          icon={<ImageIcon className={iconClass} aria-hidden="true" />}
          label={t("activity.stats.finished")}
          value={format.number(totals.finished)}
          hint={t("activity.stats.failed", { count: totals.failed })}
        />
        <Figure
          testId="activity-credits"
          icon={<Coins className={iconClass} aria-hidden="true" />}
          label={t("activity.stats.creditsUsed")}
          value={format.number(totals.creditsCharged - totals.creditsRefunded)}
          hint={t("activity.stats.refunded", { count: totals.creditsRefunded })}
        />
        <Figure
          testId="activity-time"
          icon={<Gauge className={iconClass} aria-hidden="true" />}
          label={t("activity.stats.averageTime")}
          value={totals.averageRenderMs === null ? t("activity.notMeasured") : format.duration(totals.averageRenderMs)}
          hint={t("activity.stats.averageTimeHint")}
        />
        <Figure
          testId="activity-structure"
          icon={<BarChart3 className={iconClass} aria-hidden="true" />}
          label={t("activity.stats.structure")}
          value={totals.averageStructureScore === null ? t("activity.notMeasured") : `${Math.round(totals.averageStructureScore * 100)} %`}
          hint={
            totals.averageStructureScore === null
              ? t("activity.stats.structureNone")
              : t("activity.stats.structureHint", { count: totals.scored })
          }
        />
      </dl>
    </section>
  );
}

/** A new user (or one idle for 12 weeks): what will be here, and the way to the first render. */
export function ActivityEmpty() {
  const { t } = useTranslation();
  return (
    <section
      className={`${cardClass} flex flex-col items-center gap-4 px-6 py-12 text-center`}
      aria-labelledby="activity-empty-title"
      data-testid="activity-empty"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-slate-800 dark:text-brand-100">
        <BarChart3 className="size-7" aria-hidden="true" />
      </span>
      <h2 id="activity-empty-title" className="text-xl font-semibold">
        {t("activity.empty.title")}
      </h2>
      <p className="max-w-prose text-slate-600 dark:text-slate-300">{t("activity.empty.body")}</p>
      <Link href="/upload" className={buttonClass.primary} data-testid="activity-upload">
        <Upload className="size-4" aria-hidden="true" />
        {t("activity.empty.action")}
      </Link>
    </section>
  );
}
