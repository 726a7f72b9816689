/** Admin · System: what the last housekeeping pass removed, and "Run now" (issue 16). */
import { Loader2, Sparkles } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { Spinner } from "../Spinner";
import { buttonClass } from "../ui/buttons";
import { EmptyNote, ErrorNote, Panel, useFormatters } from "./common";

/** The kinds a pass reports, in the order shown; bytes are shown with their files. */
const KINDS = [
  "expiredSessions",
  "expiredMailLinks",
  "expiredTwoFactorChallenges",
  "oldAnalyticsEvents",
  "visitorUploads",
  "renderEvents",
  "uploadBudgets",
  "orphanFiles",
  "webhookReceipts",
  "endedRateCounts",
  "oldIdempotencyKeys",
  "oldWebhookDeliveries",
] as const;

export function HousekeepingSection() {
  const { t } = useTranslation();
  const format = useFormatters();
  const utils = trpc.useUtils();
  const status = trpc.admin.housekeeping.useQuery(undefined, { staleTime: 0 });
  const runNow = trpc.admin.runHousekeeping.useMutation({
    onSuccess: (run) => {
      const total = KINDS.reduce((sum, kind) => sum + (run.removed[kind] ?? 0), 0);
      toast.success(t("admin.housekeeping.done", { count: total }));
    },
    onError: (error) => toast.error(friendlyError(error, t)),
    onSettled: () => utils.admin.housekeeping.invalidate(),
  });
  const last = status.data?.last;
  const running = runNow.isPending || status.data?.running;
  return (
    <Panel title={t("admin.housekeeping.title")} description={t("admin.housekeeping.description")} testId="admin-housekeeping">
      {status.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {status.error ? <ErrorNote>{friendlyError(status.error, t)}</ErrorNote> : null}
      {status.data && !last ? <EmptyNote>{t("admin.housekeeping.none")}</EmptyNote> : null}
      {last ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="housekeeping-when">
            {t(last.finishedAt === null ? "admin.housekeeping.runningSince" : "admin.housekeeping.last", {
              when: format.dateTime(last.startedAt),
              trigger: t(`admin.housekeeping.trigger.${last.trigger}`),
            })}
          </p>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2" data-testid="housekeeping-removed">
            {KINDS.map((kind) => (
              <div
                key={kind}
                className="flex min-w-0 items-baseline justify-between gap-3 border-b border-slate-100 py-1 dark:border-slate-800"
              >
                <dt className="min-w-0 text-slate-600 dark:text-slate-300">{t(`admin.housekeeping.kinds.${kind}`)}</dt>
                <dd className="shrink-0 font-medium tabular-nums" data-testid={`housekeeping-${kind}`}>
                  {format.number(last.removed[kind] ?? 0)}
                  {kind === "orphanFiles" && (last.removed.orphanBytes ?? 0) > 0 ? ` (${format.bytes(last.removed.orphanBytes ?? 0)})` : ""}
                </dd>
              </div>
            ))}
          </dl>
          {Object.entries(last.errors).map(([step, error]) => (
            <ErrorNote key={step}>{t("admin.housekeeping.stepFailed", { step, error })}</ErrorNote>
          ))}
        </div>
      ) : null}
      {status.data ? (
        <button type="button" className={`${buttonClass.secondary} mt-4`} disabled={Boolean(running)} onClick={() => runNow.mutate()}>
          {running ? (
            <Loader2 className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          ) : (
            <Sparkles className="size-4" aria-hidden="true" />
          )}
          {running ? t("admin.housekeeping.running") : t("admin.housekeeping.now")}
        </button>
      ) : null}
    </Panel>
  );
}
