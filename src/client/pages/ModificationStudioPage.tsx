/**
 * /modification-studio?picture=ID[&version=ID] (signed in): targeted edits of one photo's versions.
 * Paint a mask over the version being edited (brush, eraser, rectangle, undo/redo), say what to do
 * there (or pick a quick instruction), and run the edit for one credit through the render queue,
 * followed live; the result is a new version in the history, which shows the photo's whole tree,
 * compares any two versions, downloads, re-rolls and deletes them. Without a picture: the user's
 * recent renders to pick from. The Preview engine only tints the painted region; the page says so.
 */
import { ListingExportButton } from "../components/listing/ListingExportDialog";
import { Brush, ImageIcon, PaintBucket, PaintRoller, Ruler, Wand2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation, useSearch } from "wouter";
import { CREDITS } from "../../shared/constants";
import { EDIT, EDIT_PRESETS, type EditPreset, type VersionNode } from "../../shared/edits";
import { isFinalStatus } from "../../shared/render";
import { BeforeAfter } from "../components/render/BeforeAfter";
import { Callout, FreeCreditsLockedCallout, waitsForConfirmation } from "../components/render/Callouts";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { Picture } from "../components/render/Picture";
import { Spinner } from "../components/Spinner";
import { EditProgress } from "../components/studio/EditProgress";
import { exportMask, MaskCanvas } from "../components/studio/MaskCanvas";
import { MeasureTool } from "../components/studio/MeasureTool";
import { PriceNote } from "../components/studio/PriceNote";
import { PaintPanel, ProjectColours } from "../components/studio/PaintPanel";
import { paintColourLabel, Swatch } from "../components/studio/PaintColour";
import { smartSelect, type PaintSurface } from "../../shared/paint";
import { ShortcutList, StudioTools } from "../components/studio/StudioTools";
import { downloadHref, versionLabel, VersionHistory } from "../components/studio/VersionHistory";
import { buttonClass, cardClass, labelClass, linkClass, selectClass } from "../components/ui/buttons";
import { ConfirmDialog } from "../components/ui/Dialog";
import { useRenderJobs } from "../hooks/useRenderJobs";
import { friendlyError } from "../lib/friendlyError";
import {
  BRUSH,
  canRedo,
  canUndo,
  emptyHistory,
  isBlank,
  MASK_OPACITY,
  maskCoverage,
  pushOp,
  redo,
  regionOp,
  shortcutFor,
  stepBrush,
  undo,
  type MaskHistory,
  type MaskOp,
  type MaskTool,
} from "../lib/maskPainting";
import { finishedAncestor, isFinished, startingVersion, versionRows } from "../lib/versionTree";
import { jobTitle } from "../lib/jobTitle";
import { trpc } from "../trpc";

const STUDIO_PATH = "/modification-studio";

export function studioHref(picture: string, version?: string): string {
  const params = new URLSearchParams({ picture });
  if (version && version !== picture) params.set("version", version);
  return `${STUDIO_PATH}?${params.toString()}`;
}

/** Keys typed into these go to the field, not to the studio's shortcuts. */
function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target.tagName === "INPUT" && (target as HTMLInputElement).type !== "range";
}

function PicturePicker() {
  const { t } = useTranslation();
  const recent = trpc.render.list.useQuery({ limit: 24 }, { staleTime: 0 });
  const finished = (recent.data ?? []).filter((job) => job.status === "succeeded" && job.result);
  return (
    <PageShell wide title={t("pages.modificationStudio.title")} intro={t("studio.intro")}>
      <section className={`${cardClass} space-y-4 p-4 sm:p-6`} aria-labelledby="studio-pick-title" data-testid="studio-picker">
        <div>
          <h2 id="studio-pick-title" className="text-lg font-semibold">
            {t("studio.pick.title")}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("studio.pick.body")}</p>
        </div>
        {recent.isLoading ? <Spinner label={t("common.loading")} /> : null}
        {recent.isSuccess && finished.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
            <ImageIcon className="mx-auto size-8 text-slate-400" aria-hidden="true" />
            <p className="mt-2 text-slate-600 dark:text-slate-400">{t("studio.pick.empty")}</p>
            <Link href="/upload" className={`${buttonClass.primary} mt-4`}>
              <Wand2 className="size-4" aria-hidden="true" />
              {t("render.newRender")}
            </Link>
          </div>
        ) : null}
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {finished.map((job) => {
            const name = job.kind === "edit" ? t("studio.pick.edit") : jobTitle(t, job);
            return (
              <li key={job.id}>
                <Link
                  href={studioHref(job.id)}
                  className="group block overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-brand-500"
                  data-testid="studio-pick"
                >
                  <Picture
                    src={job.result?.thumb ?? job.before}
                    alt=""
                    loading="lazy"
                    className="aspect-[4/3] w-full bg-slate-100 object-contain dark:bg-slate-800"
                  />
                  <span className="block truncate px-3 py-2 text-sm font-semibold group-hover:text-brand-700 dark:group-hover:text-brand-100">
                    {name}
                    <span className="font-normal text-slate-500 dark:text-slate-400"> · {t(`roomTypes.${job.roomType}`)}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
    </PageShell>
  );
}

function EngineStudioNote({ engine }: { engine: { label: string; isAi: boolean; capabilities: { masks: boolean } } }) {
  const { t } = useTranslation();
  if (!engine.capabilities.masks)
    return (
      <Callout tone="red" title={t("studio.engine.cannotTitle")} testId="studio-engine-note">
        {t("studio.engine.cannotBody", { name: engine.label })}
      </Callout>
    );
  if (engine.isAi)
    return (
      <Callout title={t("studio.engine.aiTitle", { name: engine.label })} testId="studio-engine-note">
        {t("studio.engine.aiBody")}
      </Callout>
    );
  return (
    <Callout tone="amber" title={t("studio.engine.previewTitle")} testId="studio-engine-note">
      {t("studio.engine.previewBody")}
    </Callout>
  );
}

function Studio({ picture, versionParam }: { picture: string; versionParam: string | null }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  // The previous tree stays while the same photo's tree is asked for by another id (the URL moves to the photo's id).
  const versions = trpc.render.versions.useQuery({ id: picture }, { retry: false, staleTime: 0, placeholderData: (previous) => previous });
  const allowance = trpc.render.allowance.useQuery(undefined, { staleTime: 0 });
  const edit = trpc.render.edit.useMutation();
  const paint = trpc.render.paint.useMutation();
  const rerender = trpc.render.rerender.useMutation();
  const remove = trpc.render.delete.useMutation();

  const nodes = useMemo(() => versions.data?.nodes ?? [], [versions.data]);
  const rows = useMemo(() => versionRows(nodes), [nodes]);
  const current = startingVersion(nodes, versionParam ?? picture);
  const size = useMemo(
    () => (current?.width && current.height ? { width: current.width, height: current.height } : null),
    [current?.width, current?.height],
  );
  const uploadId = versions.data?.uploadId ?? picture;
  const sizeKey = size ? `${uploadId}:${size.width}x${size.height}` : "";

  // Paint a mask for an edit, paint a surface in exact colours (issue 33), or measure the room (decision 089).
  const [mode, setMode] = useState<"paint" | "colour" | "measure">("paint");
  const [tool, setTool] = useState<MaskTool>("brush");
  const [brushSize, setBrushSize] = useState<number>(BRUSH.default);
  const [opacity, setOpacity] = useState<number>(MASK_OPACITY.default);
  // The mask belongs to the photo's picture size: choosing another version of the same size keeps it; a
  // finished edit clears it (the new version is shown without the strokes that made it).
  const [mask, setMask] = useState<{ key: string; history: MaskHistory }>({ key: "", history: emptyHistory });
  const history = mask.key === sizeKey ? mask.history : emptyHistory;
  const [painted, setPainted] = useState(0);
  const canvasRef = useRef<HTMLCanvasElement>(null);

  const [instruction, setInstruction] = useState("");
  const [preset, setPreset] = useState<EditPreset | null>(null);
  const [submitError, setSubmitError] = useState<string>();
  const [runningId, setRunningId] = useState<string | null>(null);
  const [compare, setCompare] = useState<{ a: string; b: string } | null>(null);
  const [toDelete, setToDelete] = useState<VersionNode | null>(null);

  const followed = useMemo(() => (runningId ? [runningId] : []), [runningId]);
  const running = useRenderJobs(followed).jobs[0]?.job;
  // The Paint tool's versions, one per colour, from one version (shown side by side when done).
  const [painting, setPainting] = useState<{ parentId: string; jobIds: string[]; settled: boolean } | null>(null);
  const paintFollowed = useMemo(() => painting?.jobIds ?? [], [painting?.jobIds]);
  const paintJobs = useRenderJobs(paintFollowed).jobs.map((entry) => entry.job);
  // A paint is busy until every one of its versions has ended (a job not read yet counts as running).
  const paintEnded = paintJobs.every((job) => job !== undefined && isFinalStatus(job.status));
  const paintRunning = paintJobs.find((job) => job !== undefined && !isFinalStatus(job.status));
  const busy = (!!running && !isFinalStatus(running.status)) || (!!painting && !painting.settled && !paintEnded);

  const change = useCallback(
    (update: (history: MaskHistory) => MaskHistory) =>
      setMask((previous) => ({ key: sizeKey, history: update(previous.key === sizeKey ? previous.history : emptyHistory) })),
    [sizeKey],
  );
  const commit = useCallback((op: MaskOp) => change((history) => pushOp(history, op)), [change]);
  const clear = useCallback(() => change((history) => (isBlank(history) ? history : pushOp(history, { kind: "clear" }))), [change]);

  // The URL names the photo and the version: a deleted version's id never becomes the picture asked for.
  const selectVersion = useCallback(
    (node: VersionNode) => navigate(studioHref(uploadId, node.id), { replace: true }),
    [navigate, uploadId],
  );

  // When the followed edit ends: the history shows it, and a success becomes the version edited.
  const settled = useRef<string | null>(null);
  useEffect(() => {
    if (!running || !isFinalStatus(running.status) || settled.current === running.id) return;
    settled.current = running.id;
    void utils.render.versions.invalidate();
    void utils.render.allowance.invalidate();
    void utils.render.list.invalidate();
    if (running.status === "succeeded") {
      const parent = current?.id;
      if (parent) setCompare({ a: parent, b: running.id });
      // The mask did its work: the new version is shown as it came out, without the old strokes over it.
      setMask({ key: "", history: emptyHistory });
      navigate(studioHref(uploadId, running.id), { replace: true });
    }
  }, [running, utils, navigate, uploadId, current?.id]);

  // The paint versions, once all have ended: the history shows them and the first one made is shown.
  useEffect(() => {
    if (!painting || painting.settled || paintJobs.length !== painting.jobIds.length || !paintEnded) return;
    setPainting({ ...painting, settled: true });
    void utils.render.versions.invalidate();
    void utils.render.allowance.invalidate();
    void utils.render.list.invalidate();
    void utils.render.paintColours.invalidate();
    const made = paintJobs.find((job) => job?.status === "succeeded");
    if (made) {
      setMask({ key: "", history: emptyHistory });
      navigate(studioHref(uploadId, made.id), { replace: true });
    }
  }, [painting, paintJobs, paintEnded, utils, navigate, uploadId]);

  // The smart selection reads the version's pixels at the mask's size, once per picture.
  const pixels = useRef<{ url: string; data: ImageData } | null>(null);
  const pictureUrl = current?.picture ?? null;
  const selectAt = useCallback(
    async (point: { x: number; y: number }) => {
      if (!pictureUrl || !size) return;
      let cached = pixels.current;
      if (!cached || cached.url !== `${pictureUrl}:${size.width}x${size.height}`) {
        const image = new Image();
        image.src = pictureUrl;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = size.width;
        canvas.height = size.height;
        const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
        ctx.drawImage(image, 0, 0, size.width, size.height);
        cached = { url: `${pictureUrl}:${size.width}x${size.height}`, data: ctx.getImageData(0, 0, size.width, size.height) };
        pixels.current = cached;
      }
      const selected = smartSelect({ width: size.width, height: size.height, data: cached.data.data, channels: 4 }, point);
      if (selected.some(Boolean)) commit(regionOp(selected, size));
    },
    [pictureUrl, size, commit],
  );

  // Keyboard shortcuts (not while typing in a field or with a dialog open).
  useEffect(() => {
    if (mode === "measure") return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || typingInto(event.target) || document.querySelector("[role=alertdialog]")) return;
      const action = shortcutFor(event);
      if (!action) return;
      event.preventDefault();
      if (action === "brush" || action === "eraser" || action === "rectangle" || action === "select") setTool(action);
      else if (action === "smaller") setBrushSize((value) => stepBrush(value, -1));
      else if (action === "larger") setBrushSize((value) => stepBrush(value, 1));
      else if (action === "undo") change(undo);
      else if (action === "redo") change(redo);
      else clear();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [change, clear, mode]);

  if (versions.isLoading) return <Spinner label={t("common.loading")} />;
  if (!versions.data || !current || !size || !isFinished(current)) {
    return (
      <PageShell title={t("pages.modificationStudio.title")}>
        <ErrorText message={versions.error ? friendlyError(versions.error, t) : t("studio.notFound")} />
        <Link href={STUDIO_PATH} className={linkClass}>
          {t("studio.pick.other")}
        </Link>
      </PageShell>
    );
  }

  const engine = allowance.data?.engine;
  const credits = allowance.data?.credits ?? null;
  const coverage = maskCoverage(painted, size);
  const noCredits = credits !== null && credits < CREDITS.perRender;
  const waitsForAddress = waitsForConfirmation(allowance.data, CREDITS.perRender);
  const canSubmit = coverage === "ok" && !!engine?.capabilities.masks && !busy && !edit.isPending && !noCredits && !waitsForAddress;

  const finishedNodes = nodes.filter(isFinished);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const defaultA = (current.parentId && byId.get(current.parentId)) || finishedNodes[0]!;
  const pairIds =
    compare && byId.get(compare.a) && byId.get(compare.b) && isFinished(byId.get(compare.a)!) && isFinished(byId.get(compare.b)!)
      ? compare
      : { a: isFinished(defaultA) ? defaultA.id : finishedNodes[0]!.id, b: current.id };
  const a = byId.get(pairIds.a)!;
  const b = byId.get(pairIds.b)!;
  const numberOf = new Map(rows.map((row) => [row.node.id, row.number]));
  const optionLabel = (node: VersionNode) => `v${numberOf.get(node.id) ?? "?"} · ${versionLabel(node, t)}`;

  const choosePreset = (next: EditPreset) => {
    setPreset(next);
    setInstruction(t(`studio.presets.${next}Template`));
  };

  const submit = async () => {
    const canvas = canvasRef.current;
    if (!canvas || !canSubmit) return;
    setSubmitError(undefined);
    setRunningId(null);
    try {
      const created = await edit.mutateAsync({
        ...(current.kind === "photo" ? { uploadId: current.id } : { sourceJobId: current.id }),
        mask: exportMask(canvas),
        instruction: instruction.trim(),
        ...(preset ? { preset } : {}),
      });
      settled.current = null;
      setRunningId(created.jobId);
      void utils.render.allowance.invalidate();
      void utils.render.versions.invalidate();
    } catch (caught) {
      setSubmitError(friendlyError(caught, t));
    }
  };

  const submitPaint = async (choice: { surface: PaintSurface; colours: string[] }) => {
    const canvas = canvasRef.current;
    if (!canvas || coverage !== "ok" || busy) return;
    setSubmitError(undefined);
    try {
      const created = await paint.mutateAsync({
        ...(current.kind === "photo" ? { uploadId: current.id } : { sourceJobId: current.id }),
        mask: exportMask(canvas),
        ...choice,
      });
      setPainting({ parentId: current.id, jobIds: created.jobIds, settled: false });
      void utils.render.allowance.invalidate();
      void utils.render.versions.invalidate();
    } catch (caught) {
      setSubmitError(friendlyError(caught, t));
    }
  };

  const onReroll = async (node: VersionNode) => {
    try {
      const created = await rerender.mutateAsync({ id: node.id, seed: "new" });
      toast.success(t("studio.versions.rerollStarted"));
      settled.current = null;
      setRunningId(created.jobs[0]!.id);
      void utils.render.allowance.invalidate();
      void utils.render.versions.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const onDelete = async () => {
    const node = toDelete;
    if (!node) return;
    try {
      await remove.mutateAsync({ id: node.id });
      setToDelete(null);
      toast.success(t("studio.versions.deleted"));
      if (node.id === current.id || node.id === picture)
        selectVersion(node.id === current.id ? (finishedAncestor(nodes, node.id) ?? current) : current);
      if (compare && (compare.a === node.id || compare.b === node.id)) setCompare(null);
      await Promise.all([utils.render.versions.invalidate(), utils.render.list.invalidate()]);
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const coverageText =
    coverage === "empty"
      ? t(mode === "colour" ? "paint.coverageEmpty" : "studio.mask.empty")
      : coverage === "tooSmall"
        ? t("studio.mask.tooSmall", { min: EDIT.maskMinPaintedPixels })
        : coverage === "tooLarge"
          ? t("studio.mask.tooLarge", { max: Math.round(EDIT.maskMaxPaintedShare * 100) })
          : t("studio.mask.painted", { percent: Math.max(1, Math.round((painted / (size.width * size.height)) * 100)) });

  return (
    <PageShell
      wide
      title={t("pages.modificationStudio.title")}
      intro={t("studio.editing", { label: `v${numberOf.get(current.id) ?? 1} · ${versionLabel(current, t)}` })}
      actions={
        <div className="flex flex-wrap gap-2">
          {current.kind !== "photo" ? <ListingExportButton jobId={current.id} renderMode={current.renderMode ?? "redesign"} /> : null}
          <Link href={STUDIO_PATH} className={buttonClass.secondary}>
            <ImageIcon className="size-4" aria-hidden="true" />
            {t("studio.pick.other")}
          </Link>
        </div>
      }
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <section className={`${cardClass} min-w-0 space-y-4 p-3 sm:p-5`} aria-labelledby="studio-mask-title" data-testid="studio-mask">
          <h2 id="studio-mask-title" className="sr-only">
            {t("studio.mask.title")}
          </h2>
          <div className="flex flex-wrap gap-2" role="group" aria-label={t("measure.modeLabel")}>
            {(["paint", "colour", "measure"] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={mode === option}
                onClick={() => {
                  setMode(option);
                  // Painting a colour starts with a click on the surface; an edit with the brush.
                  if (option === "colour") setTool("select");
                  else if (option === "paint" && tool === "select") setTool("brush");
                }}
                className="inline-flex items-center gap-2 rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:border-brand-500 dark:aria-pressed:bg-brand-700/20 dark:aria-pressed:text-white"
                data-testid={`studio-mode-${option}`}
              >
                {option === "paint" ? (
                  <Brush className="size-4" aria-hidden="true" />
                ) : option === "colour" ? (
                  <PaintBucket className="size-4" aria-hidden="true" />
                ) : (
                  <Ruler className="size-4" aria-hidden="true" />
                )}
                {option === "colour" ? t("paint.mode") : t(`measure.modes.${option}`)}
              </button>
            ))}
          </div>
          {mode === "measure" ? (
            <MeasureTool
              uploadId={uploadId}
              versionId={current.id}
              download={downloadHref(current)}
              picture={current.picture}
              alt={versionLabel(current, t)}
              size={size}
            />
          ) : (
            <>
              <MaskCanvas
                picture={current.picture}
                alt={versionLabel(current, t)}
                size={size}
                history={history}
                tool={tool}
                brushSize={brushSize}
                opacity={opacity}
                disabled={busy}
                canvasRef={canvasRef}
                onCommit={commit}
                onPaintedChange={setPainted}
                onSelectAt={(point) => void selectAt(point)}
              />
              <p
                className={`text-sm ${coverage === "ok" ? "text-slate-600 dark:text-slate-300" : "text-slate-500 dark:text-slate-400"}`}
                aria-live="polite"
                data-testid="mask-coverage"
                data-coverage={coverage}
                data-painted={painted}
              >
                {coverageText}
              </p>
              <StudioTools
                tool={tool}
                onTool={setTool}
                brushSize={brushSize}
                onBrushSize={setBrushSize}
                opacity={opacity}
                onOpacity={setOpacity}
                canUndo={canUndo(history)}
                canRedo={canRedo(history)}
                canClear={!isBlank(history)}
                onUndo={() => change(undo)}
                onRedo={() => change(redo)}
                onClear={clear}
              />
              <ShortcutList />
            </>
          )}
        </section>

        <div className="min-w-0 space-y-4">
          {mode === "colour" ? (
            <PaintPanel
              maskReady={coverage === "ok"}
              busy={busy || paint.isPending}
              credits={credits}
              submitError={submitError}
              onSubmit={(choice) => void submitPaint(choice)}
            />
          ) : null}
          {mode === "colour" && paintRunning ? <EditProgress job={paintRunning} /> : null}
          {mode !== "colour" && engine ? <EngineStudioNote engine={engine} /> : null}
          {versions.data.projectId ? (
            <ProjectColours
              projectId={versions.data.projectId}
              onOpen={(jobId) => navigate(studioHref(uploadId, jobId), { replace: true })}
            />
          ) : null}
          <form
            hidden={mode === "colour"}
            className={`${cardClass} space-y-4 p-4 sm:p-5`}
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
            aria-labelledby="studio-instruction-title"
            noValidate
          >
            <h2 id="studio-instruction-title" className="text-lg font-semibold">
              {t("studio.instruction.title")}
            </h2>
            <div>
              <p className={labelClass} id="studio-presets-label">
                {t("studio.presets.label")}
              </p>
              <div className="flex flex-wrap gap-2" role="group" aria-labelledby="studio-presets-label">
                {EDIT_PRESETS.map((name) => (
                  <button
                    key={name}
                    type="button"
                    aria-pressed={preset === name}
                    onClick={() => choosePreset(name)}
                    className="rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 aria-pressed:border-brand-600 aria-pressed:bg-brand-50 aria-pressed:text-brand-700 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:border-brand-500 dark:aria-pressed:bg-brand-700/20 dark:aria-pressed:text-white"
                    data-testid={`preset-${name}`}
                  >
                    {t(`studio.presets.${name}`)}
                  </button>
                ))}
              </div>
            </div>
            <div>
              <div className="flex items-baseline justify-between gap-2">
                <label htmlFor="studio-instruction" className={labelClass}>
                  {t("studio.instruction.label")}
                </label>
                <span
                  className={`text-xs tabular-nums ${instruction.length >= EDIT.instructionMax ? "text-red-600 dark:text-red-400" : "text-slate-500 dark:text-slate-400"}`}
                  data-testid="instruction-counter"
                  aria-hidden="true"
                >
                  {instruction.length}/{EDIT.instructionMax}
                </span>
              </div>
              <textarea
                id="studio-instruction"
                rows={3}
                maxLength={EDIT.instructionMax}
                value={instruction}
                onChange={(event) => {
                  setInstruction(event.target.value);
                  if (event.target.value.trim() === "") setPreset(null);
                }}
                placeholder={t("studio.instruction.placeholder")}
                aria-describedby="studio-instruction-hint"
                className={`${selectClass} resize-y`}
              />
              <p id="studio-instruction-hint" className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
                {t("studio.instruction.hint", { max: EDIT.instructionMax })}
              </p>
            </div>
            <PriceNote
              price={t("studio.price", { count: CREDITS.perRender })}
              credits={credits}
              short={noCredits}
              testId="studio-price"
              creditsTestId="studio-credits"
            />
            {waitsForAddress && engine ? <FreeCreditsLockedCallout count={allowance.data?.freeCreditsLocked ?? 0} engine={engine} /> : null}
            <ErrorText message={submitError} />
            <button type="submit" className={`${buttonClass.primary} w-full`} disabled={!canSubmit} data-testid="studio-submit">
              <PaintRoller className="size-4" aria-hidden="true" />
              {busy || edit.isPending ? t("studio.submitting") : t("studio.submit")}
            </button>
            {coverage !== "ok" ? <p className="text-xs text-slate-500 dark:text-slate-400">{t("studio.submitNeedsMask")}</p> : null}
            {running ? <EditProgress job={running} /> : null}
          </form>
        </div>
      </div>

      {painting ? <PaintComparison parentId={painting.parentId} jobIds={painting.jobIds} nodes={nodes} onOpen={selectVersion} /> : null}

      <div className="grid gap-6 lg:grid-cols-[26rem_minmax(0,1fr)]">
        <section className={`${cardClass} min-w-0 space-y-3 p-4 sm:p-5`} aria-labelledby="studio-versions-title">
          <div>
            <h2 id="studio-versions-title" className="text-lg font-semibold">
              {t("studio.versions.title")}
            </h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("studio.versions.intro")}</p>
          </div>
          <VersionHistory
            rows={rows}
            currentId={current.id}
            busy={busy || remove.isPending || rerender.isPending}
            onSelect={selectVersion}
            onReroll={(node) => void onReroll(node)}
            onDelete={setToDelete}
          />
        </section>

        <section
          className={`${cardClass} min-w-0 space-y-4 p-4 sm:p-5`}
          aria-labelledby="studio-compare-title"
          data-testid="studio-compare"
        >
          <h2 id="studio-compare-title" className="text-lg font-semibold">
            {t("studio.compare.title")}
          </h2>
          <div className="grid gap-3 sm:grid-cols-2">
            {(["a", "b"] as const).map((side) => (
              <div key={side}>
                <label htmlFor={`studio-compare-${side}`} className={labelClass}>
                  {t(side === "a" ? "studio.compare.a" : "studio.compare.b")}
                </label>
                <select
                  id={`studio-compare-${side}`}
                  className={selectClass}
                  value={pairIds[side]}
                  onChange={(event) => setCompare({ ...pairIds, [side]: event.target.value })}
                >
                  {rows
                    .filter((row) => isFinished(row.node))
                    .map((row) => (
                      <option key={row.node.id} value={row.node.id}>
                        {optionLabel(row.node)}
                      </option>
                    ))}
                </select>
              </div>
            ))}
          </div>
          {isFinished(a) && isFinished(b) ? (
            <BeforeAfter
              before={a.picture}
              after={b.picture}
              subject={`${optionLabel(a)} / ${optionLabel(b)}`}
              width={a.width}
              height={a.height}
            />
          ) : null}
        </section>
      </div>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null);
        }}
        title={t("studio.versions.deleteTitle", { label: toDelete ? optionLabel(toDelete) : "" })}
        description={t("studio.versions.deleteBody")}
        confirmLabel={t("job.delete")}
        busy={remove.isPending}
        onConfirm={() => void onDelete()}
      />
    </PageShell>
  );
}

/** The colours of one paint side by side with the version they were painted on (issue 33). */
function PaintComparison({
  parentId,
  jobIds,
  nodes,
  onOpen,
}: {
  parentId: string;
  jobIds: string[];
  nodes: VersionNode[];
  onOpen(node: VersionNode): void;
}) {
  const { t } = useTranslation();
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parent = byId.get(parentId);
  const shown = [parent, ...jobIds.map((id) => byId.get(id))].filter((node): node is VersionNode => !!node && isFinished(node));
  if (shown.length < 2) return null;
  return (
    <section className={`${cardClass} space-y-3 p-4 sm:p-5`} aria-labelledby="paint-compare-title" data-testid="paint-compare">
      <h2 id="paint-compare-title" className="text-lg font-semibold">
        {t("paint.compareTitle")}
      </h2>
      <ul className={`grid gap-3 ${shown.length > 2 ? "sm:grid-cols-2 xl:grid-cols-4" : "sm:grid-cols-2"}`}>
        {shown.map((node) => (
          <li key={node.id}>
            <button
              type="button"
              onClick={() => onOpen(node)}
              className="group block w-full overflow-hidden rounded-xl border border-slate-200 bg-white text-left hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-brand-500"
              data-testid="paint-compare-item"
            >
              <Picture
                src={node.picture!}
                alt={node.paint ? paintColourLabel(t, node.paint) : versionLabel(node, t)}
                className="aspect-[4/3] w-full bg-slate-100 object-contain dark:bg-slate-800"
              />
              <span className="flex items-center gap-2 px-3 py-2 text-sm font-medium">
                {node.paint ? <Swatch colour={node.paint.colour} /> : null}
                {node.paint ? paintColourLabel(t, node.paint) : t("paint.before")}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function ModificationStudioPage() {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const picture = params.get("picture");
  const version = params.get("version");
  if (!picture) return <PicturePicker />;
  return <Studio picture={picture} versionParam={version} />;
}
