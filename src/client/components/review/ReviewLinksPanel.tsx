/**
 * A project's client review links (issue 28, decision 073), on the project's page: make one (how
 * long it works, every picture or chosen ones, the "Draft" watermark), copy it (shown once: only a
 * hash of its token is kept), revoke it; and each picture's state with its comments and decisions,
 * updated live over server-sent events (review.events).
 */
import { Check, Copy, Link2, Plus, Radio, Stamp, XCircle } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { REVIEW, type ReviewExpiryDays, type ReviewLinkView } from "../../../shared/review";
import { inputClass } from "../auth/fields";
import { Picture } from "../render/Picture";
import { buttonClass, cardClass, labelClass, selectClass } from "../ui/buttons";
import { ConfirmDialog } from "../ui/Dialog";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { ReviewFeedbackList, ReviewStateBadge } from "./ReviewFeedback";

interface RenderThumb {
  id: string;
  status: string;
  result: { thumb: string } | null;
}

function CreateForm({
  projectId,
  renders,
  onMade,
  onCancel,
}: {
  projectId: string;
  renders: RenderThumb[];
  onMade(url: string): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const create = trpc.review.create.useMutation();
  const utils = trpc.useUtils();
  const [label, setLabel] = useState("");
  const [days, setDays] = useState<ReviewExpiryDays>(REVIEW.defaultExpiryDays);
  const [chosenOnly, setChosenOnly] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [watermark, setWatermark] = useState(false);
  const [error, setError] = useState<string>();
  const finished = renders.filter((job) => job.status === "succeeded");

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const made = await create.mutateAsync({
        projectId,
        label: label.trim() || undefined,
        expiresInDays: days,
        jobIds: chosenOnly ? chosen : null,
        watermark,
      });
      setError(undefined);
      onMade(`${window.location.origin}${made.path}`);
      await utils.review.list.invalidate({ projectId });
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };

  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
      data-testid="review-create-form"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-label`} className={labelClass}>
            {t("review.panel.label")}
          </label>
          <input
            id={`${id}-label`}
            className={inputClass}
            value={label}
            maxLength={REVIEW.labelMax}
            placeholder={t("review.panel.labelPlaceholder")}
            onChange={(event) => setLabel(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-days`} className={labelClass}>
            {t("review.panel.expiry")}
          </label>
          <select
            id={`${id}-days`}
            className={selectClass}
            value={days}
            onChange={(event) => setDays(Number(event.target.value) as ReviewExpiryDays)}
          >
            {REVIEW.expiryDays.map((count) => (
              <option key={count} value={count}>
                {t("review.panel.days", { count })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="space-y-1.5">
        <legend className={labelClass}>{t("review.panel.pictures")}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name={`${id}-which`} checked={!chosenOnly} onChange={() => setChosenOnly(false)} />
          {t("review.panel.allPictures")}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name={`${id}-which`} checked={chosenOnly} onChange={() => setChosenOnly(true)} />
          {t("review.panel.chosenPictures")}
        </label>
        {chosenOnly ? (
          <ul className="flex flex-wrap gap-2 pt-1">
            {finished.map((job, index) => (
              <li key={job.id}>
                <label className="relative block cursor-pointer">
                  <input
                    type="checkbox"
                    className="peer absolute left-1.5 top-1.5 size-4"
                    checked={chosen.includes(job.id)}
                    aria-label={t("review.panel.choosePicture", { number: index + 1 })}
                    onChange={(event) =>
                      setChosen((current) => (event.target.checked ? [...current, job.id] : current.filter((jobId) => jobId !== job.id)))
                    }
                  />
                  {job.result ? (
                    <Picture
                      compact
                      src={job.result.thumb}
                      alt=""
                      className="size-20 rounded-md object-cover ring-2 ring-transparent peer-checked:ring-brand-600"
                    />
                  ) : null}
                </label>
              </li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5" checked={watermark} onChange={(event) => setWatermark(event.target.checked)} />
        <span>
          <span className="font-medium">{t("review.panel.watermark")}</span>
          <span className="block text-slate-500 dark:text-slate-400">{t("review.panel.watermarkHint")}</span>
        </span>
      </label>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <button type="submit" className={buttonClass.primary} disabled={create.isPending || (chosenOnly && chosen.length === 0)}>
        <Link2 className="size-4" aria-hidden="true" />
        {t("review.panel.make")}
      </button>
      <button type="button" className={`${buttonClass.ghost} ml-2`} onClick={onCancel}>
        {t("common.cancel")}
      </button>
    </form>
  );
}

function MadeLink({ url }: { url: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const id = useId();
  return (
    <div className="space-y-2 rounded-lg bg-emerald-50 p-3 dark:bg-emerald-950/40" role="status">
      <p className="text-sm text-emerald-900 dark:text-emerald-100">{t("review.panel.made")}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          readOnly
          className={`${inputClass} font-mono`}
          value={url}
          aria-label={t("review.panel.copy")}
          data-testid="review-made-url"
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(() => setCopied(true));
          }}
        >
          {copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
          {copied ? t("review.panel.copied") : t("review.panel.copy")}
        </button>
      </div>
    </div>
  );
}

function LinkCard({
  link,
  thumbs,
  onRevoke,
}: {
  link: ReviewLinkView;
  thumbs: Map<string, { thumb: string; number: number }>;
  onRevoke(): void;
}) {
  const { t, i18n } = useTranslation();
  const date = (at: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium" }).format(at);
  const status = link.revokedAt
    ? t("review.panel.revoked")
    : link.active
      ? t("review.panel.active", { date: date(link.expiresAt) })
      : t("review.panel.expired");
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-testid="review-link" data-link={link.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold [overflow-wrap:anywhere]">{link.label ?? t("review.panel.untitled")}</p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {status}
            {link.createdBy ? ` · ${t("review.panel.madeBy", { name: link.createdBy, date: date(link.createdAt) })}` : ""}
            {link.watermark ? (
              <span className="ml-1 inline-flex items-center gap-1">
                · <Stamp className="size-3" aria-hidden="true" /> {t("review.panel.watermarkOn")}
              </span>
            ) : null}
          </p>
        </div>
        {link.active ? (
          <button type="button" className={buttonClass.dangerOutline} onClick={onRevoke}>
            <XCircle className="size-4" aria-hidden="true" />
            {t("review.panel.revoke")}
          </button>
        ) : null}
      </div>
      <ul className="space-y-3">
        {link.pictures.map((picture) => {
          const thumb = thumbs.get(picture.jobId);
          return (
            <li key={picture.jobId} className="flex gap-3" data-testid="review-link-picture" data-job={picture.jobId}>
              {thumb ? <Picture compact src={thumb.thumb} alt="" className="size-16 shrink-0 rounded-md object-cover" /> : null}
              <div className="min-w-0 flex-1 space-y-1.5">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="text-sm font-medium">{t("review.panel.pictureLabel", { number: thumb?.number ?? "?" })}</span>
                  <ReviewStateBadge state={picture.state} />
                </div>
                <ReviewFeedbackList comments={picture.comments} decisions={picture.decisions} />
              </div>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

export function ReviewLinksPanel({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const project = trpc.projects.get.useQuery({ id: projectId }, { retry: false });
  const links = trpc.review.list.useQuery({ projectId }, { staleTime: 0 });
  const revoke = trpc.review.revoke.useMutation();
  const [creating, setCreating] = useState(false);
  const [madeUrl, setMadeUrl] = useState<string>();
  const [revoking, setRevoking] = useState<ReviewLinkView>();
  // Live: each comment or decision reloads the list (the stream's start too, so nothing is missed in between).
  trpc.review.events.useSubscription(
    { projectId },
    {
      onStarted: () => void utils.review.list.invalidate({ projectId }),
      onData: () => void utils.review.list.invalidate({ projectId }),
    },
  );

  const renders: RenderThumb[] = project.data?.renders ?? [];
  // Numbered oldest first, as the client's page numbers them.
  const thumbs = new Map(
    renders
      .filter((job) => job.status === "succeeded" && job.result)
      .reverse()
      .map((job, index) => [job.id, { thumb: job.result!.thumb, number: index + 1 }]),
  );
  const hasPictures = thumbs.size > 0;

  return (
    <section className={`${cardClass} space-y-4 p-4`} aria-labelledby="review-links-title" data-testid="review-links-panel">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 max-w-2xl">
          <h3 id="review-links-title" className="text-lg font-semibold">
            {t("review.panel.title")}
          </h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("review.panel.intro")}</p>
        </div>
        {hasPictures && !creating ? (
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => {
              setCreating(true);
              setMadeUrl(undefined);
            }}
          >
            <Plus className="size-4" aria-hidden="true" />
            {t("review.panel.create")}
          </button>
        ) : null}
      </div>
      {!hasPictures && project.data ? <p className="text-sm text-slate-500 dark:text-slate-400">{t("review.panel.noPictures")}</p> : null}
      {creating ? (
        <CreateForm
          projectId={projectId}
          renders={renders}
          onMade={(url) => {
            setMadeUrl(url);
            setCreating(false);
          }}
          onCancel={() => setCreating(false)}
        />
      ) : null}
      {madeUrl ? <MadeLink url={madeUrl} /> : null}
      {links.data && links.data.length > 0 ? (
        <>
          <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
            <Radio className="size-3.5" aria-hidden="true" />
            {t("review.panel.live")}
          </p>
          <ul className="space-y-3">
            {links.data.map((link) => (
              <LinkCard key={link.id} link={link} thumbs={thumbs} onRevoke={() => setRevoking(link)} />
            ))}
          </ul>
        </>
      ) : links.data && hasPictures ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{t("review.panel.none")}</p>
      ) : null}
      <ConfirmDialog
        open={revoking !== undefined}
        onOpenChange={(open) => {
          if (!open) setRevoking(undefined);
        }}
        title={t("review.panel.revoke")}
        description={t("review.panel.revokeConfirm")}
        confirmLabel={t("review.panel.revoke")}
        busy={revoke.isPending}
        onConfirm={() => {
          if (!revoking) return;
          void revoke.mutateAsync({ linkId: revoking.id }).then(async () => {
            setRevoking(undefined);
            await utils.review.list.invalidate({ projectId });
          });
        }}
      />
    </section>
  );
}
