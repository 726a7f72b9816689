/**
 * The edit being run, followed live like a render (render.events through useRenderJobs): its
 * place in the queue, percent where the engine reports it, saving; Cancel while it can be
 * stopped; the failure (refunded) or the cancel when it ends that way.
 */
import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import type { FollowedJob } from "../../hooks/useRenderJobs";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { CANCELABLE, phaseText, progressValue, StatusIcon } from "../render/JobCard";
import { ProgressBar } from "../render/ProgressBar";
import { buttonClass } from "../ui/buttons";

export function EditProgress({ job }: { job: FollowedJob }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const cancel = trpc.render.cancel.useMutation();

  const onCancel = async () => {
    try {
      await cancel.mutateAsync({ id: job.id });
      await utils.render.job.invalidate({ id: job.id });
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const tone = job.status === "failed" ? "danger" : job.status === "canceled" ? "muted" : job.status === "succeeded" ? "success" : "brand";
  return (
    <div className="space-y-3" data-testid="edit-progress" data-status={job.status} data-job-id={job.id}>
      <div className="flex items-center justify-between gap-3">
        <p className="flex min-w-0 items-center gap-2 text-sm font-medium" aria-live="polite" data-testid="edit-phase">
          <StatusIcon job={job} size="size-4 shrink-0" />
          <span className="truncate">{phaseText(job, t)}</span>
        </p>
        {CANCELABLE.has(job.status) ? (
          <button
            type="button"
            className={`${buttonClass.secondary} shrink-0 px-3 py-1.5`}
            onClick={() => void onCancel()}
            disabled={cancel.isPending}
          >
            <X className="size-4" aria-hidden="true" />
            {t("job.cancel")}
          </button>
        ) : null}
      </div>
      <ProgressBar value={progressValue(job)} label={t("studio.progress.label")} tone={tone} />
      {job.status === "failed" ? (
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
          data-testid="edit-failure"
        >
          <p className="font-medium">{job.error ? friendlyError(job.error, t) : t("job.failedGeneric")}</p>
          <p className="mt-1">{t("studio.progress.refunded")}</p>
        </div>
      ) : null}
      {job.status === "canceled" ? <p className="text-sm text-slate-600 dark:text-slate-300">{t("studio.progress.canceled")}</p> : null}
      {job.status === "succeeded" ? <p className="text-sm text-slate-600 dark:text-slate-300">{t("studio.progress.done")}</p> : null}
    </div>
  );
}
