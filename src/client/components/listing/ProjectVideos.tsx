/**
 * A project's listing videos (issue 33): choose its finished renders, the format (16:9 or 9:16), the
 * length and the captions' language, then follow the video as it is made (progress over server-sent
 * events, cancel), and play or download it. Each picture is a before/after wipe with the studio's
 * brand and the render's disclosure.
 */
import { skipToken } from "@tanstack/react-query";
import { Ban, Clapperboard, Download, Trash2 } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type Language } from "../../../shared/constants";
import { LISTING_VIDEO, listingVideoRequestSchema, type VideoFormat } from "../../../shared/listing-video";
import { friendlyError, translateServerMessage } from "../../lib/friendlyError";
import { MESSAGES } from "../../../shared/messages";
import { jobTitle } from "../../lib/jobTitle";
import type { JobView, ListingVideoView } from "../../lib/renderTypes";
import { trpc } from "../../trpc";
import { Picture } from "../render/Picture";
import { ErrorText } from "../render/PageShell";
import { buttonClass, cardClass, labelClass, selectClass } from "../ui/buttons";
import { ConfirmDialog } from "../ui/Dialog";

type VideoView = ListingVideoView;

export function ProjectVideos({ projectId, renders }: { projectId: string; renders: JobView[] }) {
  const { t, i18n } = useTranslation();
  const finished = useMemo(() => renders.filter((job) => job.status === "succeeded" && job.result), [renders]);
  const utils = trpc.useUtils();
  const videos = trpc.listing.videos.useQuery({ projectId }, { staleTime: 0 });
  const create = trpc.listing.createVideo.useMutation();
  const [chosen, setChosen] = useState<string[] | null>(null);
  const picked = chosen ?? finished.slice(0, 10).map((job) => job.id);
  const [format, setFormat] = useState<VideoFormat>("landscape");
  const [seconds, setSeconds] = useState<string>("");
  const [language, setLanguage] = useState<Language>(
    (SUPPORTED_LANGUAGES as readonly string[]).includes(i18n.resolvedLanguage ?? "") ? (i18n.resolvedLanguage as Language) : "en",
  );
  const [error, setError] = useState<string>();
  if (finished.length === 0) return null;
  const suggested = Math.min(LISTING_VIDEO.secondsMax, Math.max(LISTING_VIDEO.secondsMin, picked.length * 3));
  const length = seconds === "" ? suggested : Number(seconds);

  const submit = async () => {
    const input = { projectId, jobIds: picked, format, seconds: length };
    const parsed = listingVideoRequestSchema.safeParse(input);
    if (!parsed.success) return setError(friendlyError(parsed.error.issues[0]!, t));
    setError(undefined);
    try {
      await create.mutateAsync({ ...parsed.data, language });
      await utils.listing.videos.invalidate({ projectId });
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };

  return (
    <section className={`${cardClass} space-y-4 p-4 sm:p-5`} aria-labelledby="project-videos-title" data-testid="project-videos">
      <div>
        <h3 id="project-videos-title" className="flex items-center gap-2 text-lg font-semibold">
          <Clapperboard className="size-5" aria-hidden="true" />
          {t("listing.video.title")}
        </h3>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("listing.video.intro")}</p>
      </div>
      <form
        className="space-y-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <fieldset>
          <legend className={labelClass}>{t("listing.video.pictures", { count: picked.length, max: LISTING_VIDEO.picturesMax })}</legend>
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5 lg:grid-cols-8">
            {finished.map((job) => {
              const position = picked.indexOf(job.id) + 1;
              const on = position > 0;
              return (
                <li key={job.id}>
                  <label className="relative block cursor-pointer overflow-hidden rounded-lg border-2 border-transparent has-[:checked]:border-brand-600 dark:has-[:checked]:border-brand-500">
                    {/* Its place in the video: pictures play in the order they were ticked. */}
                    {on ? (
                      <span
                        className="absolute left-1 top-1 grid size-6 place-items-center rounded-full bg-brand-600 text-xs font-bold text-white shadow"
                        aria-hidden="true"
                        data-testid="video-picture-position"
                      >
                        {position}
                      </span>
                    ) : null}
                    <Picture
                      src={job.result!.thumb}
                      alt=""
                      loading="lazy"
                      className="aspect-[4/3] w-full bg-slate-100 object-cover dark:bg-slate-800"
                    />
                    <span className="flex items-center gap-1.5 px-1.5 py-1 text-xs">
                      <input
                        type="checkbox"
                        checked={on}
                        onChange={() => setChosen(on ? picked.filter((id) => id !== job.id) : [...picked, job.id])}
                      />
                      <span className="truncate">{jobTitle(t, job)}</span>
                      {on ? <span className="sr-only">{t("listing.video.position", { position })}</span> : null}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <label htmlFor="video-format" className={labelClass}>
              {t("listing.video.format")}
            </label>
            <select
              id="video-format"
              className={selectClass}
              value={format}
              onChange={(event) => setFormat(event.target.value as VideoFormat)}
            >
              <option value="landscape">{t("listing.video.landscape")}</option>
              <option value="portrait">{t("listing.video.portrait")}</option>
            </select>
          </div>
          <div>
            <label htmlFor="video-seconds" className={labelClass}>
              {t("listing.video.seconds", { min: LISTING_VIDEO.secondsMin, max: LISTING_VIDEO.secondsMax })}
            </label>
            <input
              id="video-seconds"
              className={selectClass}
              inputMode="numeric"
              value={seconds === "" ? String(suggested) : seconds}
              onChange={(event) => setSeconds(event.target.value.replace(/[^\d]/g, ""))}
            />
          </div>
          <div>
            <label htmlFor="video-language" className={labelClass}>
              {t("listing.video.language")}
            </label>
            <select
              id="video-language"
              className={selectClass}
              value={language}
              onChange={(event) => setLanguage(event.target.value as Language)}
            >
              {SUPPORTED_LANGUAGES.map((code) => (
                <option key={code} value={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <ErrorText message={error} />
        <button type="submit" className={buttonClass.primary} disabled={create.isPending || picked.length === 0} data-testid="video-make">
          <Clapperboard className="size-4" aria-hidden="true" />
          {t("listing.video.make")}
        </button>
      </form>
      {(videos.data ?? []).length > 0 ? (
        <ul className="space-y-3" data-testid="video-list">
          {videos.data!.map((video) => (
            <VideoItem key={video.id} video={video} onEnded={() => void utils.listing.videos.invalidate({ projectId })} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** One video: its progress while it is made (live), then the player and the download. */
function VideoItem({ video, onEnded }: { video: VideoView; onEnded(): void }) {
  const { t, i18n } = useTranslation();
  const [live, setLive] = useState<VideoView>(video);
  const cancel = trpc.listing.cancelVideo.useMutation();
  const show = trpc.listing.setVideoOnListingPages.useMutation();
  const remove = trpc.listing.deleteVideo.useMutation();
  const [confirming, setConfirming] = useState(false);
  const deleteVideo = async () => {
    try {
      await remove.mutateAsync({ id: live.id });
      setConfirming(false);
      toast.success(t("listing.video.deleted"));
      onEnded();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };
  const working = live.status === "queued" || live.status === "making";
  useEffect(() => setLive(video), [video]);
  trpc.listing.videoEvents.useSubscription(working ? { id: video.id } : skipToken, {
    onData: (view) => {
      setLive(view);
      if (view.status !== "queued" && view.status !== "making") onEnded();
    },
  });
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" }).format(live.createdAt);
  const label = t("listing.video.label", {
    format: t(live.format === "landscape" ? "listing.video.landscape" : "listing.video.portrait"),
    seconds: live.seconds,
    count: live.pictures,
  });
  return (
    <li className="rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid="video-item" data-status={live.status}>
      <p className="text-sm font-medium">
        {label} <span className="font-normal text-slate-500 dark:text-slate-400">· {date}</span>
      </p>
      {working ? (
        <div className="mt-2 flex items-center gap-3">
          <progress className="h-2 flex-1 accent-brand-600" max={1} value={live.progress} aria-label={t("listing.video.making")} />
          <span className="text-sm tabular-nums" aria-live="polite">
            {live.status === "queued"
              ? t("listing.video.queued")
              : t("listing.video.percent", { percent: Math.round(live.progress * 100) })}
          </span>
          {/* A team member who did not order it sees it made; its author, the Owner and Admins may cancel it. */}
          {live.mayManage ? (
            <button
              type="button"
              className={buttonClass.secondary}
              onClick={() => cancel.mutate({ id: live.id })}
              disabled={cancel.isPending}
            >
              <Ban className="size-4" aria-hidden="true" />
              {t("listing.video.cancel")}
            </button>
          ) : null}
        </div>
      ) : null}
      {live.status === "succeeded" && live.url ? (
        <div className="mt-2 space-y-2">
          <video
            controls
            preload="metadata"
            src={live.url}
            className={`max-h-[70vh] rounded-lg bg-black ${live.format === "portrait" ? "aspect-[9/16] w-auto" : "aspect-video w-full"}`}
            data-testid="video-player"
          >
            <track kind="captions" />
          </video>
          <div className="flex flex-wrap items-center gap-3">
            <a href={`${live.url}?download=1`} className={buttonClass.secondary} download>
              <Download className="size-4" aria-hidden="true" />
              {t("listing.video.download")}
            </a>
            <label className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={live.onListingPages}
                disabled={show.isPending || !live.mayManage}
                onChange={(event) =>
                  show.mutate(
                    { id: live.id, on: event.target.checked },
                    {
                      onSuccess: (view) => {
                        setLive(view);
                        onEnded();
                      },
                    },
                  )
                }
                data-testid="video-on-listing-pages"
              />
              {t("listing.video.onListingPages")}
            </label>
          </div>
        </div>
      ) : null}
      {live.status === "failed" ? <ErrorText message={translateServerMessage(live.error ?? MESSAGES.videoFailed, t)} /> : null}
      {live.status === "canceled" ? <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t("listing.video.canceled")}</p> : null}
      {live.mayManage && !working ? (
        <button type="button" className={`${buttonClass.ghost} mt-2`} onClick={() => setConfirming(true)} data-testid="video-delete">
          <Trash2 className="size-4" aria-hidden="true" />
          {t("listing.video.delete")}
        </button>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("listing.video.deleteTitle")}
        description={t("listing.video.deleteBody")}
        confirmLabel={t("listing.video.delete")}
        busy={remove.isPending}
        onConfirm={() => void deleteVideo()}
      />
    </li>
  );
}
