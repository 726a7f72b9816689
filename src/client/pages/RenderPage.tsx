/**
 * /render?jobs=ID[,ID…]: a card per job, following it live until it is done, then comparing,
 * downloading, sharing. /render?share=TOKEN: a shared render, read-only, for anyone.
 */
import { jobTitle } from "../lib/jobTitle";
import { LayoutDashboard, Plus, Wand2 } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearch } from "wouter";
import { isFinalStatus } from "../../shared/render";
import { BeforeAfter } from "../components/render/BeforeAfter";
import { JobCard } from "../components/render/JobCard";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass } from "../components/ui/buttons";
import { useRenderJobs } from "../hooks/useRenderJobs";
import { useSession } from "../hooks/useSession";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";
import { MissingPicture } from "./StyleSelectPage";

const MAX_JOBS_SHOWN = 100;

function SharedRender({ token }: { token: string }) {
  const { t } = useTranslation();
  const shared = trpc.render.shared.useQuery({ token }, { retry: false });
  if (shared.isLoading) return <Spinner label={t("common.loading")} />;
  if (!shared.data)
    return (
      <MissingPicture title={t("share.notFoundTitle")} body={shared.error ? friendlyError(shared.error, t) : t("share.notFoundBody")} />
    );
  const { roomType, before, after, width, height } = shared.data;
  const style = jobTitle(t, shared.data);
  const subject = `${style} · ${t(`roomTypes.${roomType}`)}`;
  return (
    <PageShell title={t("share.sharedTitle", { style })} intro={t(`roomTypes.${roomType}`)}>
      <div className={`${cardClass} p-3 sm:p-5`} data-testid="shared-render">
        <BeforeAfter before={before} after={after} subject={subject} width={width} height={height} />
      </div>
      <div className="flex flex-col items-start gap-3 rounded-xl bg-brand-50 p-5 sm:flex-row sm:items-center sm:justify-between dark:bg-brand-700/15">
        <p className="font-medium">{t("share.tryYourself")}</p>
        <Link href="/upload" className={buttonClass.primary}>
          <Wand2 className="size-4" aria-hidden="true" />
          {t("share.tryCta")}
        </Link>
      </div>
    </PageShell>
  );
}

function Jobs({ ids }: { ids: string[] }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { user } = useSession();
  const { jobs, streamBroken } = useRenderJobs(ids);
  // The most recent projects to move a render to (a page of the most the server gives).
  const projects = trpc.projects.list.useQuery({ limit: 100 }, { enabled: !!user });

  const loaded = jobs.filter((entry) => entry.job);
  const done = loaded.filter((entry) => entry.job && isFinalStatus(entry.job.status)).length;
  const succeeded = loaded.filter((entry) => entry.job?.status === "succeeded").length;
  const missing = jobs.filter((entry) => !entry.isLoading && !entry.job);

  const onDeleted = (id: string) => {
    const rest = ids.filter((other) => other !== id);
    if (rest.length > 0) navigate(`/render?jobs=${rest.join(",")}`, { replace: true });
    else navigate(user ? "/dashboard" : "/upload");
  };

  const title = ids.length > 1 ? t("render.titleMany") : t("pages.render.title");
  const intro =
    loaded.length === 0
      ? undefined
      : done === loaded.length
        ? t("render.allDone", { count: succeeded, total: ids.length })
        : t("render.progress", { done, total: ids.length });

  return (
    <PageShell
      title={title}
      intro={intro}
      wide={ids.length > 1}
      actions={
        <>
          {user ? (
            <Link href="/dashboard" className={buttonClass.secondary}>
              <LayoutDashboard className="size-4" aria-hidden="true" />
              {t("nav.dashboard")}
            </Link>
          ) : null}
          <Link href="/upload" className={buttonClass.primary}>
            <Plus className="size-4" aria-hidden="true" />
            {t("render.newRender")}
          </Link>
        </>
      }
    >
      {streamBroken ? (
        <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100">
          {t("render.streamBroken")}
        </p>
      ) : null}
      {jobs.every((entry) => entry.isLoading) ? <Spinner label={t("render.loadingJobs")} /> : null}
      <div className={`grid gap-6 ${ids.length > 1 ? "lg:grid-cols-2" : ""}`}>
        {jobs.map((entry) =>
          entry.job ? (
            <JobCard key={entry.id} job={entry.job} signedIn={!!user} projects={projects.data?.projects ?? []} onDeleted={onDeleted} />
          ) : null,
        )}
      </div>
      {missing.length > 0 ? (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
        >
          {t("render.missing", { count: missing.length })}
        </p>
      ) : null}
    </PageShell>
  );
}

export default function RenderPage() {
  const { t } = useTranslation();
  const search = useSearch();
  const params = new URLSearchParams(search);
  const share = params.get("share");
  const jobsParam = params.get("jobs") ?? "";
  const ids = useMemo(
    () =>
      [
        ...new Set(
          jobsParam
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ].slice(0, MAX_JOBS_SHOWN),
    [jobsParam],
  );

  if (share) return <SharedRender token={share} />;
  if (ids.length === 0) return <MissingPicture title={t("render.noJobsTitle")} body={t("render.noJobsBody")} />;
  return <Jobs ids={ids} />;
}
