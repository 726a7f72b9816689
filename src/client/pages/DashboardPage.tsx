/**
 * /dashboard (signed in): credits, projects (create, rename, delete, open), recent renders, a big
 * "New render" button, and deleting every image for privacy. ?project=ID opens one project.
 */
import { ApplyToProject } from "../components/render/ApplyToProject";
import { RenderSets } from "../components/render/RenderSets";
import { ArMeasures } from "../components/measure/ArMeasures";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import {
  ArrowLeft,
  Files,
  FolderOpen,
  FolderPlus,
  ImageIcon,
  MoreVertical,
  Pencil,
  ShieldAlert,
  Sparkles,
  Trash2,
  Wand2,
} from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation, useSearch } from "wouter";
import { projectNameSchema } from "../../shared/render";
import { inputClass } from "../components/auth/fields";
import { ProjectClientPicker } from "../components/clients/ProjectClientPicker";
import { MoveProjectToTeam } from "../components/teams/MoveProjectToTeam";
import { ProjectListingZip } from "../components/listing/ProjectListingZip";
import { ProjectVideos } from "../components/listing/ProjectVideos";
import { EngineNote } from "../components/render/Callouts";
import { Picture } from "../components/render/Picture";
import { RenderTile } from "../components/render/RenderTile";
import { ReviewLinksPanel } from "../components/review/ReviewLinksPanel";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, labelClass, linkClass } from "../components/ui/buttons";
import { ConfirmDialog, FormDialog } from "../components/ui/Dialog";
import { useSession } from "../hooks/useSession";
import { track } from "../lib/analytics";
import { friendlyError } from "../lib/friendlyError";
import type { ProjectSummary } from "../lib/renderTypes";
import { trpc } from "../trpc";

/** Projects per page of the dashboard. */
const PROJECT_PAGE = 24;

type DialogState =
  | { kind: "create" }
  | { kind: "rename"; project: ProjectSummary }
  | { kind: "delete"; project: ProjectSummary }
  | { kind: "deleteAll" }
  | null;

function ProjectThumbs({ thumbs }: { thumbs: string[] }) {
  if (thumbs.length === 0) {
    return (
      <div className="flex aspect-[4/3] items-center justify-center bg-slate-100 text-slate-400 dark:bg-slate-800 dark:text-slate-500">
        <ImageIcon className="size-8" aria-hidden="true" />
      </div>
    );
  }
  const shown = thumbs.slice(0, 4);
  return (
    <div
      className={`grid aspect-[4/3] gap-0.5 bg-slate-200 dark:bg-slate-800 ${shown.length > 1 ? "grid-cols-2" : ""} ${shown.length > 2 ? "grid-rows-2" : ""}`}
    >
      {shown.map((thumb, index) => (
        <Picture
          key={thumb}
          compact
          src={thumb}
          alt=""
          loading="lazy"
          className={`size-full min-h-0 object-cover ${shown.length === 3 && index === 0 ? "row-span-2" : ""}`}
        />
      ))}
    </div>
  );
}

function ProjectCard({ project, onRename, onDelete }: { project: ProjectSummary; onRename(): void; onDelete(): void }) {
  const { t, i18n } = useTranslation();
  const updated = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium" }).format(project.updatedAt);
  return (
    <li className={`${cardClass} group relative overflow-hidden`} data-testid="project-card">
      <Link href={`/dashboard?project=${encodeURIComponent(project.id)}`} className="block focus-visible:outline-offset-[-2px]">
        <ProjectThumbs thumbs={project.thumbs} />
        <div className="px-4 py-3 pr-12">
          <p className="truncate font-semibold group-hover:text-brand-700 dark:group-hover:text-brand-100">{project.name}</p>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {t("dashboard.renderCount", { count: project.renderCount })} · {updated}
          </p>
        </div>
      </Link>
      <div className="absolute bottom-3 right-2">
        <ProjectMenu name={project.name} onRename={onRename} onDelete={onDelete} />
      </div>
    </li>
  );
}

function ProjectMenu({ name, onRename, onDelete }: { name: string; onRename(): void; onDelete(): void }) {
  const { t } = useTranslation();
  const item =
    "flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500 data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800";
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={buttonClass.icon} aria-label={t("dashboard.projectActions", { name })}>
        <MoreVertical className="size-4" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <DropdownMenu.Item className={item} onSelect={onRename}>
            <Pencil className="size-4" aria-hidden="true" />
            {t("dashboard.rename")}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={`${item} text-red-700 dark:text-red-300`} onSelect={onDelete}>
            <Trash2 className="size-4" aria-hidden="true" />
            {t("dashboard.deleteProject")}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function ProjectView({
  id,
  onRename,
  onDelete,
}: {
  id: string;
  onRename(project: ProjectSummary): void;
  onDelete(project: ProjectSummary): void;
}) {
  const { t } = useTranslation();
  const detail = trpc.projects.get.useQuery({ id }, { retry: false });
  if (detail.isLoading) return <Spinner label={t("common.loading")} />;
  if (!detail.data) {
    return (
      <div className="space-y-4">
        <Link href="/dashboard" className={`inline-flex items-center gap-1.5 text-sm ${linkClass}`}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t("dashboard.allProjects")}
        </Link>
        <p role="alert" className="text-slate-600 dark:text-slate-300">
          {friendlyError(detail.error, t)}
        </p>
      </div>
    );
  }
  const { project, renders } = detail.data;
  const asSummary: ProjectSummary = { ...project, renderCount: renders.length, thumbs: [] };
  return (
    <section className="space-y-5" aria-labelledby="project-title" data-testid="project-view">
      <Link href="/dashboard" className={`inline-flex items-center gap-1.5 text-sm ${linkClass}`}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        {t("dashboard.allProjects")}
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id="project-title" className="truncate text-xl font-bold">
            {project.name}
          </h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">{t("dashboard.renderCount", { count: renders.length })}</p>
          <ProjectClientPicker projectId={project.id} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href={`/upload?project=${encodeURIComponent(project.id)}`} className={buttonClass.primary}>
            <Wand2 className="size-4" aria-hidden="true" />
            {t("dashboard.renderHere")}
          </Link>
          <ApplyToProject projectId={project.id} projectTeamId={project.teamId} renders={renders} />
          <ProjectListingZip projectId={project.id} />
          <MoveProjectToTeam project={project} />
          <button type="button" className={buttonClass.secondary} onClick={() => onRename(asSummary)}>
            <Pencil className="size-4" aria-hidden="true" />
            {t("dashboard.rename")}
          </button>
          <button type="button" className={buttonClass.dangerOutline} onClick={() => onDelete(asSummary)}>
            <Trash2 className="size-4" aria-hidden="true" />
            {t("dashboard.deleteProject")}
          </button>
        </div>
      </div>
      {renders.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:border-slate-700 dark:text-slate-400">
          {t("dashboard.projectEmpty")}
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {renders.map((job) => (
            <RenderTile key={job.id} job={job} />
          ))}
        </ul>
      )}
      <ProjectVideos projectId={project.id} renders={renders} />
      <RenderSets projectId={project.id} />
      <ArMeasures projectId={project.id} />
      <ReviewLinksPanel projectId={project.id} />
    </section>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const search = useSearch();
  const openProject = new URLSearchParams(search).get("project");
  const { user } = useSession();
  const utils = trpc.useUtils();
  const allowance = trpc.render.allowance.useQuery(undefined, { staleTime: 0 });
  // The team whose space this is (decision 070): its projects and balance are shown, not the user's own.
  const spaces = trpc.teams.mine.useQuery(undefined, { enabled: user !== null });
  const team = allowance.data?.teamId ? spaces.data?.teams.find((entry) => entry.id === allowance.data?.teamId) : undefined;
  // Pages of projects, latest first; "Show more" asks for the next (decision 044).
  const projects = trpc.projects.list.useInfiniteQuery({ limit: PROJECT_PAGE }, { getNextPageParam: (page) => page.nextCursor });
  const recent = trpc.render.list.useQuery({ limit: 8 }, { staleTime: 0 });
  const createProject = trpc.projects.create.useMutation();
  const renameProject = trpc.projects.rename.useMutation();
  const deleteProject = trpc.projects.delete.useMutation();
  const deleteAll = trpc.account.deleteAllImages.useMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string>();

  // Back from Stripe Checkout after paying: the credits arrive with the payment's webhook.
  useEffect(() => {
    if (new URLSearchParams(search).get("purchase") !== "success") return;
    toast.success(t("pricing.successToast"), { description: t("pricing.successToastBody") });
    track({ category: "payment", action: "checkout_returned" });
    void utils.render.allowance.invalidate();
    navigate("/dashboard", { replace: true });
  }, [search, navigate, t, utils]);

  const sortedProjects = projects.data?.pages.flatMap((page) => page.projects) ?? [];
  const firstPage = projects.data?.pages[0];
  const totalProjects = firstPage?.total ?? 0;
  const totalRenders = firstPage?.renders ?? 0;

  const openDialog = (next: DialogState) => {
    setNameError(undefined);
    setName(next?.kind === "rename" ? next.project.name : "");
    setDialog(next);
  };
  const closeDialog = (open: boolean) => {
    if (!open) setDialog(null);
  };

  const refresh = () => Promise.all([utils.projects.invalidate(), utils.render.invalidate()]);

  const submitName = async () => {
    const parsed = projectNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(friendlyError(parsed.error.issues[0]!.message, t));
      return;
    }
    try {
      if (dialog?.kind === "rename") {
        await renameProject.mutateAsync({ id: dialog.project.id, name: parsed.data });
        toast.success(t("dashboard.renamed"));
      } else {
        const project = await createProject.mutateAsync({ name: parsed.data });
        toast.success(t("dashboard.created", { name: project.name }));
      }
      setDialog(null);
      await refresh();
    } catch (caught) {
      setNameError(friendlyError(caught, t));
    }
  };

  const confirmDelete = async () => {
    try {
      if (dialog?.kind === "delete") {
        await deleteProject.mutateAsync({ id: dialog.project.id });
        toast.success(t("dashboard.projectDeleted", { name: dialog.project.name }));
        if (openProject === dialog.project.id) navigate("/dashboard", { replace: true });
      } else if (dialog?.kind === "deleteAll") {
        const result = await deleteAll.mutateAsync();
        toast.success(t("dashboard.deletedAll"), {
          description: t("dashboard.deletedAllDetail", { renders: result.deletedRenders, uploads: result.deletedUploads }),
        });
      }
      setDialog(null);
      await refresh();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-8 sm:px-6 sm:py-10">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("pages.dashboard.title")}</h1>
          <p className="mt-1 truncate text-slate-600 dark:text-slate-300">
            {user ? t("dashboard.welcome", { name: user.fullName }) : null}
          </p>
          {team ? (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300" data-testid="dashboard-space">
              {t("teamSpace.workingIn")}{" "}
              <Link
                href={`/teams?team=${encodeURIComponent(team.id)}`}
                className="font-semibold text-brand-700 hover:underline dark:text-brand-100"
              >
                {team.name}
              </Link>
            </p>
          ) : null}
          <p className="mt-1 flex gap-4 text-sm">
            <Link href="/profile" className="font-medium text-brand-700 hover:underline dark:text-brand-100">
              {t("pages.profile.title")}
            </Link>
            <Link href="/settings" className="font-medium text-brand-700 hover:underline dark:text-brand-100">
              {t("pages.settings.title")}
            </Link>
            <Link href="/styles" className="font-medium text-brand-700 hover:underline dark:text-brand-100">
              {t("customStyles.title")}
            </Link>
          </p>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Link href="/batch-upload" className={buttonClass.secondary}>
            <Files className="size-4" aria-hidden="true" />
            {t("dashboard.batch")}
          </Link>
          <Link href="/upload" className={buttonClass.big} data-testid="new-render">
            <Wand2 className="size-5" aria-hidden="true" />
            {t("dashboard.newRender")}
          </Link>
        </div>
      </header>

      <div className="grid grid-cols-3 gap-2 sm:gap-4">
        <div className={`${cardClass} min-w-0 p-3 sm:p-5`} data-testid="credits-card">
          <p className="flex items-start gap-1.5 text-xs font-medium text-slate-500 sm:items-center sm:gap-2 sm:text-sm dark:text-slate-400">
            <Sparkles className="size-4 shrink-0 text-accent-500" aria-hidden="true" />
            {allowance.data?.teamId ? t("teamSpace.credits") : t("dashboard.credits")}
          </p>
          <p className="mt-1 text-2xl font-bold tabular-nums sm:text-3xl">{allowance.data?.credits ?? "–"}</p>
          <Link href="/pricing" className={`mt-1 inline-block text-xs sm:mt-2 sm:text-sm ${linkClass}`}>
            {t("flow.buyCredits")}
          </Link>
        </div>
        <div className={`${cardClass} min-w-0 p-3 sm:p-5`}>
          <p className="flex items-start gap-1.5 text-xs font-medium text-slate-500 sm:items-center sm:gap-2 sm:text-sm dark:text-slate-400">
            <FolderOpen className="size-4 shrink-0" aria-hidden="true" />
            {t("dashboard.projects")}
          </p>
          <p className="mt-1 text-2xl font-bold tabular-nums sm:text-3xl">{projects.data ? totalProjects : "–"}</p>
        </div>
        <div className={`${cardClass} min-w-0 p-3 sm:p-5`}>
          <p className="flex items-start gap-1.5 text-xs font-medium text-slate-500 sm:items-center sm:gap-2 sm:text-sm dark:text-slate-400">
            <ImageIcon className="size-4 shrink-0" aria-hidden="true" />
            {t("dashboard.renders")}
          </p>
          <p className="mt-1 text-2xl font-bold tabular-nums sm:text-3xl">{projects.data ? totalRenders : "–"}</p>
        </div>
      </div>
      {allowance.data ? <EngineNote engine={allowance.data.engine} /> : null}

      {openProject ? (
        <ProjectView
          id={openProject}
          onRename={(project) => openDialog({ kind: "rename", project })}
          onDelete={(project) => openDialog({ kind: "delete", project })}
        />
      ) : (
        <>
          <section className="space-y-4" aria-labelledby="projects-heading">
            <div className="flex items-center justify-between gap-3">
              <h2 id="projects-heading" className="text-xl font-bold">
                {t("dashboard.projects")}
              </h2>
              <button type="button" className={buttonClass.secondary} onClick={() => openDialog({ kind: "create" })}>
                <FolderPlus className="size-4" aria-hidden="true" />
                {t("dashboard.newProject")}
              </button>
            </div>
            {projects.isLoading ? <Spinner label={t("common.loading")} /> : null}
            {projects.data && sortedProjects.length === 0 ? (
              <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:border-slate-700 dark:text-slate-400">
                {t("dashboard.noProjects")}
              </p>
            ) : null}
            <ul className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 lg:grid-cols-4">
              {sortedProjects.map((project) => (
                <ProjectCard
                  key={project.id}
                  project={project}
                  onRename={() => openDialog({ kind: "rename", project })}
                  onDelete={() => openDialog({ kind: "delete", project })}
                />
              ))}
            </ul>
            {projects.hasNextPage ? (
              <div className="flex flex-col items-center gap-2">
                <p className="text-sm text-slate-500 dark:text-slate-400">
                  {t("dashboard.shownOf", { shown: sortedProjects.length, total: totalProjects })}
                </p>
                <button
                  type="button"
                  className={buttonClass.secondary}
                  disabled={projects.isFetchingNextPage}
                  onClick={() => void projects.fetchNextPage()}
                >
                  {projects.isFetchingNextPage ? t("common.loading") : t("dashboard.loadMore")}
                </button>
              </div>
            ) : null}
          </section>

          <section className="space-y-4" aria-labelledby="recent-heading">
            <h2 id="recent-heading" className="text-xl font-bold">
              {t("dashboard.recent")}
            </h2>
            {recent.data && recent.data.length === 0 ? (
              <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:border-slate-700 dark:text-slate-400">
                {t("dashboard.noRenders")}{" "}
                <Link href="/upload" className={linkClass}>
                  {t("dashboard.startFirst")}
                </Link>
              </p>
            ) : null}
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
              {(recent.data ?? []).map((job) => (
                <RenderTile key={job.id} job={job} />
              ))}
            </ul>
          </section>
        </>
      )}

      <section className="rounded-xl border border-red-200 p-5 dark:border-red-900/60" aria-labelledby="privacy-heading">
        <h2 id="privacy-heading" className="flex items-center gap-2 text-lg font-semibold">
          <ShieldAlert className="size-5 text-red-600 dark:text-red-400" aria-hidden="true" />
          {t("dashboard.privacyTitle")}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {/* It removes personal pictures only: in a team's space, say so (the team's work stays). */}
          {allowance.data?.teamId ? t("teamSpace.privacyBody") : t("dashboard.privacyBody")}
        </p>
        <button type="button" className={`${buttonClass.dangerOutline} mt-4`} onClick={() => openDialog({ kind: "deleteAll" })}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t("dashboard.deleteAll")}
        </button>
      </section>

      <FormDialog
        open={dialog?.kind === "create" || dialog?.kind === "rename"}
        onOpenChange={closeDialog}
        title={dialog?.kind === "rename" ? t("dashboard.renameTitle") : t("dashboard.newProject")}
        submitLabel={dialog?.kind === "rename" ? t("dashboard.rename") : t("dashboard.create")}
        busy={createProject.isPending || renameProject.isPending}
        onSubmit={() => void submitName()}
      >
        <div>
          <label htmlFor="project-name" className={labelClass}>
            {t("dashboard.projectName")}
          </label>
          <input
            id="project-name"
            className={inputClass}
            value={name}
            autoComplete="off"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "project-name-error" : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {nameError ? (
            <p id="project-name-error" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
              {nameError}
            </p>
          ) : null}
        </div>
      </FormDialog>

      <ConfirmDialog
        open={dialog?.kind === "delete" || dialog?.kind === "deleteAll"}
        onOpenChange={closeDialog}
        title={dialog?.kind === "delete" ? t("dashboard.deleteProjectTitle", { name: dialog.project.name }) : t("dashboard.deleteAllTitle")}
        description={
          dialog?.kind === "delete" ? t("dashboard.deleteProjectBody", { count: dialog.project.renderCount }) : t("dashboard.deleteAllBody")
        }
        confirmLabel={dialog?.kind === "delete" ? t("dashboard.deleteProject") : t("dashboard.deleteAll")}
        busy={deleteProject.isPending || deleteAll.isPending}
        onConfirm={() => void confirmDelete()}
      />
    </div>
  );
}
