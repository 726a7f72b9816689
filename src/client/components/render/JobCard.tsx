/**
 * One render job: its phase, progress and elapsed time while it works (Cancel while it can be
 * stopped); when done, the before/after comparison, downloads, another style, saving to a
 * project, sharing and deleting.
 */
import { jobTitle } from "../../lib/jobTitle";
import { AlertCircle, Ban, CheckCircle2, Clock, Copy, FolderInput, Link2, Loader2, Palette, Trash2, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { MESSAGES } from "../../../shared/messages";
import { isFinalStatus } from "../../../shared/render";
import { useServerNow } from "../../hooks/useNow";
import type { FollowedJob } from "../../hooks/useRenderJobs";
import { absoluteUrl, copyText, formatElapsed, formatSeconds, labelled } from "../../lib/format";
import { engineName } from "../info/common";
import { friendlyError, type Translate } from "../../lib/friendlyError";
import type { ProjectSummary } from "../../lib/renderTypes";
import { trpc } from "../../trpc";
import { buttonClass, cardClass, labelClass, selectClass } from "../ui/buttons";
import { ConfirmDialog } from "../ui/Dialog";
import { OpenInStudioLink } from "../studio/OpenInStudioLink";
import { PublishPanel } from "../community/PublishPanel";
import { ListingExportButton } from "../listing/ListingExportDialog";
import { BeforeAfter } from "./BeforeAfter";
import { Picture } from "./Picture";
import { SignUpCallout } from "./Callouts";
import { ProgressBar } from "./ProgressBar";
import { RenderDetails, RenderDownloads, RerenderActions, StructureScore } from "./RenderResultTools";

/** States in which a job can still be stopped (the studio's edit progress uses the same). */
export const CANCELABLE = new Set(["queued", "preprocessing", "rendering"]);

export function phaseText(job: FollowedJob, t: Translate): string {
  switch (job.status) {
    case "queued":
      return job.position && job.position > 0 ? t("job.queuedPosition", { position: job.position }) : t("job.queued");
    case "preprocessing":
      return t("job.preparing");
    case "rendering": {
      const text = job.percent !== null ? t("job.renderingPercent", { percent: Math.round(job.percent) }) : t("job.rendering");
      const attempt = job.attempt ?? job.attempts;
      return attempt > 1 ? `${text} · ${t("job.attempt", { attempt })}` : text;
    }
    case "saving":
      return t("job.saving");
    case "succeeded":
      return t("job.done");
    case "failed":
      return t("job.failed");
    case "canceled":
      return t("job.canceled");
  }
}

/** How full the bar is, or null when only "working" is known. */
export function progressValue(job: Pick<FollowedJob, "status" | "percent">): number | null {
  switch (job.status) {
    case "queued":
      return 4;
    case "preprocessing":
      return 12;
    case "rendering":
      return job.percent === null ? null : 15 + job.percent * 0.78;
    case "saving":
      return 95;
    default:
      return 100;
  }
}

/** The job's state as an icon; `size` is the icon's size class. */
export function StatusIcon({ job, size = "size-5" }: { job: Pick<FollowedJob, "status">; size?: string }) {
  if (job.status === "succeeded") return <CheckCircle2 className={`${size} text-emerald-500`} aria-hidden="true" />;
  if (job.status === "failed") return <AlertCircle className={`${size} text-red-500`} aria-hidden="true" />;
  if (job.status === "canceled") return <Ban className={`${size} text-slate-400`} aria-hidden="true" />;
  return <Loader2 className={`${size} animate-spin text-brand-600 motion-reduce:animate-none dark:text-brand-100`} aria-hidden="true" />;
}

const hasIdentity = (job: Pick<FollowedJob, "variation" | "seed">) => job.variation !== null || job.seed !== null;

/**
 * What tells cards of one request apart: "Variation 2 of 4" and the seed the engine used (an engine
 * without seeds, such as the Preview engine, records none, and none is shown).
 */
function JobIdentity({ job, id }: { job: FollowedJob; id: string }) {
  const { t } = useTranslation();
  if (!hasIdentity(job)) return null;
  return (
    <p id={id} className="mt-0.5 flex flex-wrap gap-x-1.5 text-xs text-slate-500 tabular-nums dark:text-slate-400">
      {job.variation ? (
        <span className="font-medium text-slate-700 dark:text-slate-200" data-testid="job-variation">
          {t("renderOptions.variationOf", { number: job.variation.number, total: job.variation.of })}
        </span>
      ) : null}
      {job.variation && job.seed !== null ? <span aria-hidden="true">·</span> : null}
      {job.seed !== null ? <span data-testid="job-seed">{t("renderOptions.seedValue", { seed: String(job.seed) })}</span> : null}
    </p>
  );
}

interface JobCardProps {
  job: FollowedJob;
  signedIn: boolean;
  projects: ProjectSummary[];
  onDeleted(id: string): void;
}

export function JobCard({ job, signedIn, projects, onDeleted }: JobCardProps) {
  const { t, i18n } = useTranslation();
  const final = isFinalStatus(job.status);
  const now = useServerNow(!final);
  const utils = trpc.useUtils();
  const cancel = trpc.render.cancel.useMutation();
  const remove = trpc.render.delete.useMutation();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const elapsed =
    job.status === "succeeded" && job.elapsedMs !== undefined ? job.elapsedMs : (final ? (job.finishedAt ?? now) : now) - job.createdAt;
  // While it works the clock ticks in whole seconds; once done, what it took is measured to a tenth
  // under 10 s (a render of 0.6 s did not take "0 s").
  const elapsedText =
    final && elapsed < 60_000 ? t("job.seconds", { value: formatSeconds(elapsed, i18n.language) }) : formatElapsed(elapsed);
  const styleName = jobTitle(t, job);
  const roomName = t(`roomTypes.${job.roomType}`);
  const identityId = `job-${job.id}-identity`;

  const onCancel = async () => {
    try {
      await cancel.mutateAsync({ id: job.id });
      await utils.render.job.invalidate({ id: job.id });
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const onDelete = async () => {
    try {
      await remove.mutateAsync({ id: job.id });
      setConfirmDelete(false);
      toast.success(t("job.deleted"));
      await Promise.all([utils.render.list.invalidate(), utils.projects.invalidate()]);
      onDeleted(job.id);
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const failureText = job.error ? friendlyError(job.error, t) : t("job.failedGeneric");
  const failureSaysCredit = job.error === MESSAGES.renderFailed;

  return (
    <article
      className={`${cardClass} overflow-hidden`}
      data-testid="job-card"
      data-status={job.status}
      aria-labelledby={hasIdentity(job) ? `job-${job.id}-title ${identityId}` : `job-${job.id}-title`}
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-5 dark:border-slate-800">
        <div className="flex min-w-0 items-start gap-3">
          <StatusIcon job={job} />
          <div className="min-w-0">
            <h2 id={`job-${job.id}-title`} className="font-semibold">
              {styleName} <span className="font-normal text-slate-500 dark:text-slate-400">· {roomName}</span>
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="job-phase">
              {phaseText(job, t)}
            </p>
            <JobIdentity job={job} id={identityId} />
          </div>
        </div>
        <div className="flex items-center gap-2">
          <span
            className="inline-flex items-center gap-1 text-sm tabular-nums text-slate-500 dark:text-slate-400"
            title={t("job.elapsedLabel")}
            data-testid="job-elapsed"
          >
            <Clock className="size-4" aria-hidden="true" />
            <span className="sr-only">{t("job.elapsedLabel")}: </span>
            {elapsedText}
          </span>
          {CANCELABLE.has(job.status) ? (
            <button
              type="button"
              className={`${buttonClass.secondary} px-3 py-1.5`}
              onClick={() => void onCancel()}
              disabled={cancel.isPending}
            >
              <X className="size-4" aria-hidden="true" />
              {t("job.cancel")}
            </button>
          ) : null}
        </div>
      </header>

      <div className="space-y-4 p-4 sm:p-5">
        {!final ? (
          <div className="space-y-3">
            <ProgressBar value={progressValue(job)} label={t("job.progressLabel", { style: styleName })} />
            <Picture
              src={job.before}
              alt={t("compare.beforeAlt", { subject: `${styleName} · ${roomName}` })}
              className="aspect-[4/3] w-full rounded-lg bg-slate-100 object-cover opacity-70 dark:bg-slate-800"
            />
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {labelled(t("job.engineLabel"), engineName({ id: job.engine.id, label: job.providerLabel }, t), i18n.language)}
            </p>
          </div>
        ) : null}

        {job.status === "failed" ? (
          <div
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
            data-testid="job-failure"
          >
            <p className="font-medium">{failureText}</p>
            {failureSaysCredit ? null : <p className="mt-1">{signedIn ? t("job.notCharged") : t("job.demoKept")}</p>}
          </div>
        ) : null}
        {job.status === "canceled" ? (
          <p className="rounded-lg bg-slate-100 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {signedIn ? t("job.canceledBody") : t("job.canceledBodyDemo")}
          </p>
        ) : null}
        {final && job.status !== "succeeded" ? (
          <div className="flex flex-wrap gap-2">
            <Link
              href={`/style-select?image=${encodeURIComponent(job.uploadId)}&project=${encodeURIComponent(job.projectId ?? "")}`}
              className={buttonClass.primary}
            >
              <Palette className="size-4" aria-hidden="true" />
              {t("job.tryAgain")}
            </Link>
            <button type="button" className={buttonClass.dangerOutline} onClick={() => setConfirmDelete(true)}>
              <Trash2 className="size-4" aria-hidden="true" />
              {t("job.delete")}
            </button>
          </div>
        ) : null}

        {job.status === "succeeded" && job.result ? (
          <SucceededPanel
            job={job}
            result={job.result}
            signedIn={signedIn}
            projects={projects}
            subject={`${styleName} · ${roomName}`}
            onDelete={() => setConfirmDelete(true)}
          />
        ) : null}
      </div>

      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t("job.deleteTitle")}
        description={t("job.deleteBody")}
        confirmLabel={t("job.delete")}
        busy={remove.isPending}
        onConfirm={() => void onDelete()}
      />
    </article>
  );
}

function SucceededPanel({
  job,
  result,
  signedIn,
  projects,
  subject,
  onDelete,
}: {
  job: FollowedJob;
  result: NonNullable<FollowedJob["result"]>;
  signedIn: boolean;
  projects: ProjectSummary[];
  subject: string;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const engine = trpc.render.allowance.useQuery().data?.engine;
  return (
    <div className="space-y-5">
      <BeforeAfter before={result.before} after={result.medium} subject={subject} />
      <StructureScore job={job} />
      <RenderDownloads job={job} />
      <RerenderActions job={job} engine={engine} signedIn={signedIn} />
      <div className="flex flex-wrap gap-2">
        <Link
          href={`/style-select?image=${encodeURIComponent(job.uploadId)}&project=${encodeURIComponent(job.projectId ?? "")}`}
          className={buttonClass.secondary}
        >
          <Palette className="size-4" aria-hidden="true" />
          {t("job.anotherStyle")}
        </Link>
        {signedIn ? <OpenInStudioLink jobId={job.id} /> : null}
        {signedIn ? <ListingExportButton jobId={job.id} renderMode={job.renderMode} /> : null}
        <button type="button" className={buttonClass.dangerOutline} onClick={onDelete}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t("job.delete")}
        </button>
      </div>
      <RenderDetails job={job} />
      {signedIn ? (
        <div className="grid gap-5 border-t border-slate-200 pt-5 md:grid-cols-2 dark:border-slate-800">
          <SaveToProject job={job} projects={projects} />
          <SharePanel job={job} />
        </div>
      ) : (
        <SignUpCallout title={t("job.visitorSaveTitle")} />
      )}
    </div>
  );
}

function SaveToProject({ job, projects }: { job: FollowedJob; projects: ProjectSummary[] }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const move = trpc.render.moveToProject.useMutation();
  const [target, setTarget] = useState<string | null>(null);
  const selected = target ?? job.projectId ?? projects[0]?.id ?? "";
  const selectId = `save-${job.id}`;

  const save = async () => {
    try {
      await move.mutateAsync({ id: job.id, projectId: selected });
      const name = projects.find((project) => project.id === selected)?.name ?? "";
      toast.success(t("job.savedTo", { name }));
      await Promise.all([utils.render.job.invalidate({ id: job.id }), utils.projects.invalidate()]);
      setTarget(null);
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  if (projects.length === 0) return null;
  return (
    <div>
      <label htmlFor={selectId} className={labelClass}>
        <FolderInput className="mr-1.5 inline size-4 align-[-2px]" aria-hidden="true" />
        {t("job.saveToProject")}
      </label>
      <div className="flex gap-2">
        <select id={selectId} className={selectClass} value={selected} onChange={(event) => setTarget(event.target.value)}>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className={`${buttonClass.secondary} shrink-0`}
          disabled={move.isPending || selected === job.projectId}
          onClick={() => void save()}
        >
          {t("job.save")}
        </button>
      </div>
      <p className="mt-1.5 text-sm text-slate-500 dark:text-slate-400">
        {job.projectId && selected === job.projectId
          ? t("job.inProject", { name: projects.find((project) => project.id === job.projectId)?.name ?? "" })
          : t("job.saveHint")}
      </p>
    </div>
  );
}

function SharePanel({ job }: { job: FollowedJob }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const sharing = trpc.render.setSharing.useMutation();
  const shareUrl = job.shareUrl ? absoluteUrl(job.shareUrl) : null;
  const inputId = `share-${job.id}`;

  const update = async (change: { link?: boolean }) => {
    try {
      const result = await sharing.mutateAsync({ id: job.id, ...change });
      utils.render.job.setData({ id: job.id }, (old) => (old ? { ...old, ...result } : old));
      if (change.link === true && result.shareUrl) {
        const copied = await copyText(absoluteUrl(result.shareUrl));
        if (copied) toast.success(t("share.linkCreatedCopied"));
      }
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const copy = async () => {
    if (!shareUrl) return;
    if (await copyText(shareUrl)) toast.success(t("share.copied"));
    else toast.error(t("share.copyFailed"));
  };

  return (
    <div className="space-y-3">
      <p className={labelClass}>
        <Link2 className="mr-1.5 inline size-4 align-[-2px]" aria-hidden="true" />
        {t("share.title")}
      </p>
      {shareUrl ? (
        <div className="space-y-2">
          <div className="flex gap-2">
            <label htmlFor={inputId} className="sr-only">
              {t("share.linkLabel")}
            </label>
            <input
              id={inputId}
              readOnly
              value={shareUrl}
              onFocus={(event) => event.target.select()}
              className={`${selectClass} font-mono text-xs`}
              data-testid="share-url"
            />
            <button type="button" className={`${buttonClass.secondary} shrink-0 px-3`} onClick={() => void copy()}>
              <Copy className="size-4" aria-hidden="true" />
              {t("share.copy")}
            </button>
          </div>
          <button
            type="button"
            className="text-sm font-medium text-red-600 hover:underline dark:text-red-400"
            disabled={sharing.isPending}
            onClick={() => void update({ link: false })}
          >
            {t("share.stop")}
          </button>
        </div>
      ) : (
        <button type="button" className={buttonClass.secondary} disabled={sharing.isPending} onClick={() => void update({ link: true })}>
          <Link2 className="size-4" aria-hidden="true" />
          {t("share.create")}
        </button>
      )}
      <PublishPanel jobId={job.id} />
    </div>
  );
}
