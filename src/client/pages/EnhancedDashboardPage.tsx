/**
 * /enhanced-dashboard (signed in): the user's activity over the last 12 weeks, weeks starting Monday
 * in the browser's time zone (render.activity). Every figure is measured by the server; empty weeks
 * are zeros; a user with nothing yet is shown the way to a first render.
 */
import { LayoutDashboard, Plus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { ActivityCharts } from "../components/activity/ActivityCharts";
import { ActivityEmpty, ActivityFigures } from "../components/activity/ActivitySummary";
import { isEmptyActivity } from "../components/activity/activityData";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass } from "../components/ui/buttons";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

/** The browser's IANA time zone; UTC when it does not say. */
function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export default function EnhancedDashboardPage() {
  const { t } = useTranslation();
  const timeZone = browserTimeZone();
  const activity = trpc.render.activity.useQuery({ timeZone }, { staleTime: 0 });
  const data = activity.data;

  return (
    <PageShell
      wide
      title={t("pages.enhancedDashboard.title")}
      intro={t("activity.intro", { timeZone: data?.timeZone ?? timeZone })}
      actions={
        <>
          <Link href="/dashboard" className={buttonClass.secondary}>
            <LayoutDashboard className="size-4" aria-hidden="true" />
            {t("activity.dashboard")}
          </Link>
          <Link href="/upload" className={buttonClass.primary}>
            <Plus className="size-4" aria-hidden="true" />
            {t("activity.newRender")}
          </Link>
        </>
      }
    >
      <div data-testid="enhanced-dashboard" className="space-y-6">
        {activity.isLoading ? <Spinner label={t("common.loading")} /> : null}
        {activity.error ? (
          <p role="alert" className="text-slate-600 dark:text-slate-300">
            {friendlyError(activity.error, t)}
          </p>
        ) : null}
        {data ? (
          isEmptyActivity(data) ? (
            <ActivityEmpty />
          ) : (
            <>
              <ActivityFigures activity={data} />
              <ActivityCharts activity={data} />
            </>
          )
        ) : null}
      </div>
    </PageShell>
  );
}
