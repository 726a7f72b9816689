/**
 * A project's sets ("Apply to the whole project"), newest first: each photo's before and after side
 * by side, and how far the set is. While pictures are still rendering, the render events (server-sent)
 * say when one starts or ends and the list is read again then; a slow poll stays under them as a
 * safety net, faster if the stream breaks.
 */
import { FileArchive, FileImage } from "lucide-react";
import { skipToken } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { SUPPORTED_LANGUAGES } from "../../../shared/constants";
import { LISTING_ROUTES } from "../../../shared/listing";
import { friendlyError } from "../../lib/friendlyError";
import { buttonClass } from "../ui/buttons";
import { isFinalStatus, type RenderEvent, type RenderSetView } from "../../../shared/render";
import { trpc } from "../../trpc";
import { styleLabel } from "../../lib/styleNames";

const POLL_WITH_STREAM_MS = 15_000;
const POLL_WITHOUT_STREAM_MS = 3_000;
/** The events that change what a set shows: a picture starts, or ends. */
const SHOWN_CHANGES: ReadonlySet<RenderEvent["type"]> = new Set(["preprocessing", "succeeded", "failed", "canceled"]);

export function RenderSets({ projectId }: { projectId: string }) {
  const { t, i18n } = useTranslation();
  const [streamBroken, setStreamBroken] = useState(false);
  const sets = trpc.render.sets.useQuery(
    { projectId },
    {
      staleTime: 0,
      refetchInterval: (query) =>
        query.state.data?.some((set) => set.pictures.some((picture) => !isFinalStatus(picture.status)))
          ? streamBroken
            ? POLL_WITHOUT_STREAM_MS
            : POLL_WITH_STREAM_MS
          : false,
    },
  );
  const utils = trpc.useUtils();
  const rendering = useMemo(
    () =>
      new Set(
        sets.data?.flatMap((set) => set.pictures.filter((picture) => !isFinalStatus(picture.status)).map((picture) => picture.jobId)),
      ),
    [sets.data],
  );
  trpc.render.events.useSubscription(rendering.size > 0 ? { lastEventId: null } : skipToken, {
    onStarted: () => setStreamBroken(false),
    onData: ({ data: event }) => {
      if (SHOWN_CHANGES.has(event.type) && rendering.has(event.jobId)) void utils.render.sets.invalidate({ projectId });
    },
    onError: () => setStreamBroken(true),
  });
  // The project's own list of renders shows the same pictures: read again as each one finishes.
  const finished = sets.data?.reduce((sum, set) => sum + set.pictures.filter((picture) => isFinalStatus(picture.status)).length, 0) ?? 0;
  useEffect(() => {
    if (finished > 0) void utils.projects.get.invalidate({ id: projectId });
  }, [finished, projectId, utils]);
  if (!sets.data || sets.data.length === 0) return null;
  const date = (at: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" }).format(at);
  return (
    <section className="space-y-4" aria-labelledby="render-sets-title" data-testid="render-sets">
      <h3 id="render-sets-title" className="text-lg font-semibold">
        {t("renderSets.setsTitle")}
      </h3>
      {sets.data.map((set) => (
        <SetCard
          key={set.id}
          projectId={projectId}
          set={set}
          heading={t("renderSets.setHeading", { style: styleLabel(t, set.style, set.styleName), date: date(set.createdAt) })}
        />
      ))}
    </section>
  );
}

function SetCard({ projectId, set, heading }: { projectId: string; set: RenderSetView; heading: string }) {
  const { t, i18n } = useTranslation();
  const done = set.pictures.filter((picture) => isFinalStatus(picture.status)).length;
  const exportSet = trpc.listing.createForSet.useMutation();
  const utils = trpc.useUtils();
  const [exported, setExported] = useState(false);
  const finished = done === set.pictures.length && set.pictures.some((picture) => picture.status === "succeeded");
  const onExport = async () => {
    try {
      const language = SUPPORTED_LANGUAGES.find((code) => code === i18n.resolvedLanguage) ?? "en";
      const made = await exportSet.mutateAsync({ setId: set.id, language });
      toast.success(t("renderSets.exported", { count: made.count }));
      setExported(true);
      await utils.listing.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };
  return (
    <article className="rounded-xl border border-slate-200 p-4 dark:border-slate-800" data-testid="render-set">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="font-semibold">{heading}</h4>
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="set-progress">
          {t("renderSets.progress", { done, total: set.pictures.length })}
          {set.referenceJobId ? ` · ${t("renderSets.withReference")}` : ""}
        </p>
      </div>
      <progress className="mt-2 h-1.5 w-full accent-brand-600" value={done} max={set.pictures.length} aria-hidden="true" />
      {finished ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={exportSet.isPending}
            onClick={() => void onExport()}
            data-testid="set-export"
          >
            <FileImage className="size-4" aria-hidden="true" />
            {t("renderSets.export")}
          </button>
          {exported ? (
            <a href={LISTING_ROUTES.setZip(projectId, set.id)} download className={buttonClass.primary} data-testid="set-zip">
              <FileArchive className="size-4" aria-hidden="true" />
              {t("renderSets.zip")}
            </a>
          ) : null}
        </div>
      ) : null}
      <ul className="mt-3 grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {set.pictures.map((picture) => (
          <li key={picture.jobId} className="space-y-1" data-testid="set-picture">
            <p className="text-sm font-medium">{t(`roomTypes.${picture.roomType}`)}</p>
            <div className="grid grid-cols-2 gap-1 overflow-hidden rounded-lg">
              <figure className="relative">
                <img src={picture.before} alt={t("renderSets.before")} className="aspect-[4/3] w-full object-cover" loading="lazy" />
                <figcaption className="absolute left-1 top-1 rounded bg-slate-950/70 px-1.5 text-xs text-white">
                  {t("renderSets.before")}
                </figcaption>
              </figure>
              <figure className="relative">
                {picture.after ? (
                  <img src={picture.after} alt={t("renderSets.after")} className="aspect-[4/3] w-full object-cover" loading="lazy" />
                ) : (
                  <div className="flex aspect-[4/3] w-full items-center justify-center bg-slate-100 p-2 text-center text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                    {picture.status === "failed"
                      ? t("renderSets.failed")
                      : picture.status === "canceled"
                        ? t("renderSets.canceled")
                        : t("renderSets.waiting")}
                  </div>
                )}
                <figcaption className="absolute left-1 top-1 rounded bg-slate-950/70 px-1.5 text-xs text-white">
                  {t("renderSets.after")}
                </figcaption>
              </figure>
            </div>
          </li>
        ))}
      </ul>
    </article>
  );
}
