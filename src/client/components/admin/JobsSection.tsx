/** Admin · Render jobs: filter by status; provider, duration and error of each; retry and cancel. */
import { jobTitle } from "../../lib/jobTitle";
import { Ban, RotateCcw } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { JOB_STATUSES, isFinalStatus, type JobStatus } from "../../../shared/render";
import { labelled } from "../../lib/format";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { Spinner } from "../Spinner";
import { buttonClass, selectClass } from "../ui/buttons";
import { ConfirmDialog } from "../ui/Dialog";
import { Badge, EmptyNote, ErrorNote, Pager, Panel, jobStatusTone, useFormatters } from "./common";

const PAGE_SIZE = 25;

export function JobsSection() {
  const { t } = useTranslation();
  const format = useFormatters();
  const utils = trpc.useUtils();
  const [status, setStatus] = useState<JobStatus | "">("");
  const [offset, setOffset] = useState(0);
  const [cancelId, setCancelId] = useState<string | null>(null);
  const jobs = trpc.admin.jobs.useQuery(
    { status: status || undefined, limit: PAGE_SIZE, offset },
    { staleTime: 0, refetchInterval: 10_000, placeholderData: (previous) => previous },
  );
  const retry = trpc.admin.retryJob.useMutation();
  const cancel = trpc.admin.cancelJob.useMutation();

  const onRetry = async (id: string) => {
    try {
      await retry.mutateAsync({ id });
      toast.success(t("admin.jobs.retried"));
      await utils.admin.jobs.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const onCancel = async () => {
    if (!cancelId) return;
    try {
      await cancel.mutateAsync({ id: cancelId });
      toast.success(t("admin.jobs.canceled"));
      setCancelId(null);
      await utils.admin.jobs.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const list = jobs.data?.jobs ?? [];
  return (
    <Panel
      title={t("admin.jobs.title")}
      description={jobs.data ? t("admin.jobs.count", { count: jobs.data.total }) : undefined}
      testId="admin-jobs"
      actions={
        <div className="flex items-center gap-2">
          <label htmlFor="job-status" className="whitespace-nowrap text-sm font-medium text-slate-700 dark:text-slate-200">
            {t("admin.jobs.statusFilter")}
          </label>
          <select
            id="job-status"
            className={`${selectClass} w-auto`}
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as JobStatus | "");
              setOffset(0);
            }}
          >
            <option value="">{t("admin.jobs.allStatuses")}</option>
            {JOB_STATUSES.map((value) => (
              <option key={value} value={value}>
                {t(`admin.jobs.status.${value}`)}
              </option>
            ))}
          </select>
        </div>
      }
    >
      {jobs.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {jobs.error ? <ErrorNote>{friendlyError(jobs.error, t)}</ErrorNote> : null}
      {jobs.data && list.length === 0 ? <EmptyNote>{t("admin.jobs.none")}</EmptyNote> : null}
      {list.length > 0 ? (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          data-testid="admin-job-list"
        >
          {list.map((job) => (
            <li
              key={job.id}
              className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:items-start sm:px-4"
              data-testid="admin-job"
              data-status={job.status}
            >
              <div className="min-w-0 flex-1 space-y-1">
                <div className="flex flex-wrap items-center gap-1.5">
                  <p className="font-medium">{jobTitle(t, job)}</p>
                  <Badge tone={jobStatusTone(job.status)}>{t(`admin.jobs.status.${job.status}`, { defaultValue: job.status })}</Badge>
                </div>
                <p className="truncate text-sm text-slate-600 dark:text-slate-300">
                  {job.owner === "visitor" ? t("admin.jobs.visitor") : job.owner}
                </p>
                <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-500 dark:text-slate-400">
                  <span>{labelled(t("admin.jobs.engineLabel"), job.provider, format.language)}</span>
                  <span>{format.dateTime(job.createdAt)}</span>
                  {job.durationMs !== null ? <span>{t("admin.jobs.duration", { duration: format.duration(job.durationMs) })}</span> : null}
                  {job.attempts > 1 ? <span>{t("admin.jobs.attempts", { count: job.attempts })}</span> : null}
                  <span className="font-mono">{job.id}</span>
                </p>
                {job.error ? <p className="break-words text-xs text-red-700 dark:text-red-300">{friendlyError(job.error, t)}</p> : null}
              </div>
              <div className="flex shrink-0 gap-2">
                {job.status === "failed" || job.status === "canceled" ? (
                  <button
                    type="button"
                    className={`${buttonClass.secondary} px-3 py-1.5`}
                    disabled={retry.isPending}
                    onClick={() => void onRetry(job.id)}
                  >
                    <RotateCcw className="size-4" aria-hidden="true" />
                    {t("admin.jobs.retry")}
                  </button>
                ) : null}
                {!isFinalStatus(job.status) ? (
                  <button type="button" className={`${buttonClass.dangerOutline} px-3 py-1.5`} onClick={() => setCancelId(job.id)}>
                    <Ban className="size-4" aria-hidden="true" />
                    {t("admin.jobs.cancel")}
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {jobs.data ? <Pager offset={offset} limit={PAGE_SIZE} total={jobs.data.total} onChange={setOffset} /> : null}
      <ConfirmDialog
        open={cancelId !== null}
        onOpenChange={(open) => {
          if (!open) setCancelId(null);
        }}
        title={t("admin.jobs.cancelTitle")}
        description={t("admin.jobs.cancelBody")}
        confirmLabel={t("admin.jobs.cancel")}
        busy={cancel.isPending}
        onConfirm={() => void onCancel()}
      />
    </Panel>
  );
}
