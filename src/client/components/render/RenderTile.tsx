/** A render in a grid (dashboard, project): its picture, style, room, state and date; opens it (an edit opens in the studio). */
import { jobTitle } from "../../lib/jobTitle";
import { AlertCircle, Ban, Loader2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import type { JobView } from "../../lib/renderTypes";
import { Picture } from "./Picture";

export function RenderTile({ job }: { job: JobView }) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" }).format(job.createdAt);
  const picture = job.result?.thumb ?? job.before;
  const working = job.status !== "succeeded" && job.status !== "failed" && job.status !== "canceled";
  return (
    <li>
      <Link
        href={
          job.kind === "edit" ? `/modification-studio?picture=${encodeURIComponent(job.id)}` : `/render?jobs=${encodeURIComponent(job.id)}`
        }
        className="group block overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500 hover:shadow dark:border-slate-800 dark:bg-slate-900 dark:hover:border-brand-500"
        data-testid="render-tile"
      >
        <div className="relative aspect-[4/3] bg-slate-100 dark:bg-slate-800">
          <Picture
            src={picture}
            alt=""
            loading="lazy"
            className={`size-full object-contain ${job.status === "succeeded" ? "" : "opacity-60"}`}
          />
          {job.status !== "succeeded" ? (
            <span className="absolute left-2 top-2 inline-flex items-center gap-1 rounded-full bg-slate-950/75 px-2 py-0.5 text-xs font-medium text-white">
              {working ? (
                <Loader2 className="size-3 animate-spin" aria-hidden="true" />
              ) : job.status === "failed" ? (
                <AlertCircle className="size-3" aria-hidden="true" />
              ) : (
                <Ban className="size-3" aria-hidden="true" />
              )}
              {t(`job.status.${job.status}`)}
            </span>
          ) : null}
        </div>
        <div className="px-3 py-2">
          <p className="truncate text-sm font-semibold group-hover:text-brand-700 dark:group-hover:text-brand-100">{jobTitle(t, job)}</p>
          <p className="truncate text-xs text-slate-500 dark:text-slate-400">
            {t(`roomTypes.${job.roomType}`)} · {date}
          </p>
        </div>
      </Link>
    </li>
  );
}
