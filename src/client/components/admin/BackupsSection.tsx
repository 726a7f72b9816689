/**
 * Admin · System: the last backup, its size and age, the schedule, "Back up now" (issue 16), and the
 * backup key an operator must keep a copy of to restore elsewhere (decision 065).
 */
import { AlertTriangle, Archive, CheckCircle2, Loader2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { Spinner } from "../Spinner";
import { buttonClass } from "../ui/buttons";
import { Badge, ErrorNote, Panel, useFormatters } from "./common";

export function BackupsSection() {
  const { t } = useTranslation();
  const format = useFormatters();
  const utils = trpc.useUtils();
  const status = trpc.admin.backups.useQuery(undefined, { staleTime: 0, refetchInterval: 30_000 });
  const backUp = trpc.admin.backUpNow.useMutation({
    onSuccess: (record) => {
      toast.success(t("admin.backups.done", { file: record.fileName, size: format.bytes(record.bytes ?? 0) }));
    },
    onError: (error) => toast.error(friendlyError(error, t)),
    onSettled: () => utils.admin.backups.invalidate(),
  });
  const data = status.data;
  const now = Date.now();
  const last = data?.lastSuccess;
  const running = backUp.isPending || data?.running;
  return (
    <Panel title={t("admin.backups.title")} description={t("admin.backups.description")} testId="admin-backups">
      {status.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {status.error ? <ErrorNote>{friendlyError(status.error, t)}</ErrorNote> : null}
      {data ? (
        <div className="space-y-4">
          <div className="flex flex-wrap items-start gap-3">
            <span className="mt-0.5 shrink-0 [&>svg]:size-5">
              {data.overdue || data.lastFailure ? (
                <AlertTriangle className="text-amber-600 dark:text-amber-400" aria-hidden="true" />
              ) : last ? (
                <CheckCircle2 className="text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              ) : (
                <Archive className="text-slate-400" aria-hidden="true" />
              )}
            </span>
            <div className="min-w-0 flex-1 space-y-1" data-testid="backup-last">
              {last ? (
                <>
                  <p className="font-medium">
                    {t("admin.backups.last", { age: format.ago(now - last.startedAt), size: format.bytes(last.bytes ?? 0) })}
                  </p>
                  <p className="break-all text-xs text-slate-500 dark:text-slate-400">
                    {format.dateTime(last.startedAt)} · {last.fileName} · {t("admin.backups.files", { count: last.files ?? 0 })} ·{" "}
                    {t(`admin.backups.trigger.${last.trigger}`)}
                  </p>
                </>
              ) : (
                <p className="font-medium">{t("admin.backups.none")}</p>
              )}
              {data.overdue ? (
                <p className="text-sm text-amber-800 dark:text-amber-200" data-testid="backup-overdue">
                  {t("admin.backups.overdue", { every: format.period(data.everyMs) })}
                </p>
              ) : null}
              {data.lastFailure ? (
                <p className="break-words text-sm text-red-700 dark:text-red-300" data-testid="backup-failure">
                  {t("admin.backups.failed", { when: format.dateTime(data.lastFailure.startedAt), error: data.lastFailure.error ?? "" })}
                </p>
              ) : null}
            </div>
          </div>
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
            {data.dir ? (
              <>
                <Badge tone="green">{t("admin.backups.scheduled")}</Badge>
                <span className="min-w-0 break-all" data-testid="backup-schedule">
                  {t("admin.backups.schedule", { every: format.period(data.everyMs), dir: data.dir, keep: data.keep })}
                </span>
              </>
            ) : (
              <>
                <Badge tone="amber">{t("admin.backups.notScheduled")}</Badge>
                <span className="min-w-0">{t("admin.backups.howTo")}</span>
              </>
            )}
          </div>
          {data.filesElsewhere ? (
            <p className="break-words text-sm text-amber-800 dark:text-amber-200" data-testid="backup-database-only">
              {t("admin.backups.databaseOnly", { location: data.filesElsewhere })}
            </p>
          ) : null}
          <p className="break-words text-sm text-slate-600 dark:text-slate-300" data-testid="backup-key">
            {data.key.id
              ? t("admin.backups.key", { id: data.key.id, file: data.key.file })
              : t("admin.backups.keyNotYet", { file: data.key.file })}
          </p>
          {data.dir ? (
            <button type="button" className={buttonClass.secondary} disabled={Boolean(running)} onClick={() => backUp.mutate()}>
              {running ? (
                <Loader2 className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
              ) : (
                <Archive className="size-4" aria-hidden="true" />
              )}
              {running ? t("admin.backups.running") : t("admin.backups.now")}
            </button>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}
