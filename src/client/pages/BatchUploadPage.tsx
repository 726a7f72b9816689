/**
 * /batch-upload (rendering needs an account): several pictures at once, each with its own
 * thumbnail, upload progress and state; then the style(s) and note once for all, and one render
 * per picture per style.
 */
import { AlertCircle, CheckCircle2, FileX2, Files, Loader2, RotateCcw, Sparkles, Trash2, Wand2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation } from "wouter";
import { CREDITS } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { RENDER } from "../../shared/render";
import { isCustomStyleKey, type StyleKey } from "../../shared/custom-styles";
import { guessRoomType, type InputMode, type RoomType } from "../../shared/styles";
import { NoteField } from "../components/render/NoteField";
import {
  AllowanceNote,
  Callout,
  DemoRefusedLine,
  EngineNote,
  FreeCreditsLockedCallout,
  SignUpCallout,
  waitsForConfirmation,
} from "../components/render/Callouts";
import { DropZone } from "../components/render/DropZone";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { ProgressBar } from "../components/render/ProgressBar";
import { StylePicker } from "../components/render/StylePicker";
import { ModeChoice, ProjectSelect, RoomTypeSelect, useProjectChoice } from "../components/render/UploadOptions";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, linkClass } from "../components/ui/buttons";
import { useSession } from "../hooks/useSession";
import { formatBytes } from "../lib/format";
import { errorMessage, friendlyError } from "../lib/friendlyError";
import { checkFile, UploadAbortedError, uploadImage, type UploadHandle } from "../lib/upload";
import { trpc } from "../trpc";
import { currentStudio } from "../lib/studio";

type RowStatus = "waiting" | "uploading" | "done" | "failed";

interface Row {
  key: string;
  file: File;
  preview: string;
  status: RowStatus;
  progress: number;
  error?: string;
  /** The file itself was refused (type, size, unreadable): sending it again cannot help. */
  refused?: boolean;
  /** The browser could not show the picture: a file icon instead of a broken image. */
  noPreview?: boolean;
  imageId?: string;
  projectId?: string;
}

/** Pictures sent at the same time. */
const PARALLEL_UPLOADS = 2;
let rowCounter = 0;

/** Server answers about the file itself: the same file would get them again. */
const FILE_REFUSALS: readonly string[] = [
  MESSAGES.uploadUnsupportedType,
  MESSAGES.uploadTooLarge,
  MESSAGES.uploadTooManyPixels,
  MESSAGES.uploadTooSmall,
  MESSAGES.uploadTooNarrow,
  MESSAGES.uploadUnreadable,
  MESSAGES.uploadEmpty,
];

export default function BatchUploadPage() {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  if (isLoading) return <Spinner label={t("common.checkingSession")} />;
  if (!user) {
    return (
      <PageShell title={t("pages.batchUpload.title")} intro={t("batch.intro")}>
        <SignUpCallout title={t("batch.visitorTitle")} body={t("batch.visitorBody", { credits: currentStudio().signUpCredits })} />
        <VisitorDemo />
      </PageShell>
    );
  }
  return <BatchUploader />;
}

/** A visitor's free demo, said before anything is uploaded: still theirs (one photo, on /upload), or why not. */
function VisitorDemo() {
  const { t } = useTranslation();
  const allowance = trpc.render.allowance.useQuery(undefined, { staleTime: 0 });
  const data = allowance.data;
  if (!data || data.signedIn) return null;
  if (!data.demoAvailable) return <DemoRefusedLine refusal={data.demoRefusal ?? "used"} />;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="demo-note">
      {t("batch.visitorDemo")}{" "}
      <Link href="/upload" className={linkClass}>
        {t("batch.visitorDemoLink")}
      </Link>
    </p>
  );
}

function BatchUploader() {
  const { t, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const allowance = trpc.render.allowance.useQuery(undefined, { staleTime: 0 });
  const create = trpc.render.create.useMutation();
  const projectChoice = useProjectChoice(true);
  const [mode, setMode] = useState<InputMode>("room-photo");
  const [roomType, setRoomType] = useState<RoomType>("living-room");
  const [rows, setRows] = useState<Row[]>([]);
  const [projectId, setProjectId] = useState<string | null>(null);
  const [chosenStyles, setStyles] = useState<StyleKey[]>([]);
  // The space the pictures go to (the chosen project's, else the one the user works in) offers its own styles.
  const spaces = trpc.teams.mine.useQuery();
  const project = projectChoice.projects.find((candidate) => candidate.id === (projectId ?? projectChoice.value));
  const spaceTeamId = project ? project.teamId : (spaces.data?.current ?? null);
  const customStyles = trpc.styles.list.useQuery({ teamId: spaceTeamId }, { enabled: spaces.isSuccess, retry: false });
  // A custom style counts while the chosen space has it (another project may be in another space).
  const styles = chosenStyles.filter((key) => !isCustomStyleKey(key) || customStyles.data?.styles.some((style) => style.id === key));
  const [multi, setMulti] = useState(false);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string>();
  const [renderError, setRenderError] = useState<string>();
  const [creditsShort, setCreditsShort] = useState(false);
  const [freeCreditsRefused, setFreeCreditsRefused] = useState(false);
  const [rendering, setRendering] = useState(false);
  const handles = useRef(new Map<string, UploadHandle>());
  const rowsRef = useRef(rows);
  useEffect(() => {
    rowsRef.current = rows;
  }, [rows]);

  // Previews live as long as the page; uploads on their way stop when it closes.
  useEffect(
    () => () => {
      for (const row of rowsRef.current) URL.revokeObjectURL(row.preview);
      for (const handle of handles.current.values()) handle.abort();
    },
    [],
  );

  const patch = (key: string, change: Partial<Row>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const send = async (row: Row, target: string) => {
    patch(row.key, { status: "uploading", progress: 0, error: undefined });
    // A file whose name names its room ("kitchen.jpg", "chambre-2.jpg") goes in as that room.
    const fileRoom = mode === "room-photo" ? (guessRoomType(row.file.name) ?? roomType) : roomType;
    const upload = uploadImage(row.file, { mode, roomType: fileRoom, projectId: target }, (progress) => patch(row.key, { progress }));
    handles.current.set(row.key, upload);
    try {
      const uploaded = await upload.promise;
      patch(row.key, { status: "done", progress: 1, imageId: uploaded.imageId, projectId: uploaded.projectId });
    } catch (caught) {
      if (caught instanceof UploadAbortedError) return;
      patch(row.key, { status: "failed", error: friendlyError(caught, t), refused: FILE_REFUSALS.includes(errorMessage(caught)) });
    } finally {
      handles.current.delete(row.key);
    }
  };

  /** Sends the rows a few at a time. */
  const sendAll = async (queue: Row[], target: string) => {
    const pending = [...queue];
    const worker = async () => {
      for (let row = pending.shift(); row; row = pending.shift()) await send(row, target);
    };
    await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, worker));
  };

  const add = async (files: File[]) => {
    setError(undefined);
    const room = RENDER.batchMaxFiles - rows.length;
    if (files.length > room) setError(t("batch.tooMany", { max: RENDER.batchMaxFiles }));
    const added: Row[] = files.slice(0, Math.max(0, room)).map((file) => {
      const refused = checkFile(file);
      return {
        key: `row-${++rowCounter}`,
        file,
        preview: URL.createObjectURL(file),
        status: refused ? "failed" : "waiting",
        progress: 0,
        ...(refused ? { error: friendlyError(refused, t), refused: true } : {}),
      };
    });
    if (added.length === 0) return;
    setRows((current) => [...current, ...added]);
    let target = projectId;
    if (!target) {
      try {
        target = (await projectChoice.resolve()) ?? null;
      } catch (caught) {
        setError(friendlyError(caught, t));
      }
      if (!target) {
        setRows((current) =>
          current.map((row) =>
            added.some((one) => one.key === row.key) && row.status === "waiting"
              ? { ...row, status: "failed", error: t("batch.noProject") }
              : row,
          ),
        );
        return;
      }
      setProjectId(target);
    }
    await sendAll(
      added.filter((row) => row.status === "waiting"),
      target,
    );
  };

  const retry = (row: Row) => {
    if (!projectId || checkFile(row.file)) return;
    void sendAll([row], projectId);
  };

  const removeRow = (row: Row) => {
    handles.current.get(row.key)?.abort();
    URL.revokeObjectURL(row.preview);
    setRows((current) => current.filter((one) => one.key !== row.key));
  };

  const ready = rows.filter((row) => row.status === "done");
  const busy = rows.some((row) => row.status === "uploading" || row.status === "waiting");
  const credits = allowance.data?.credits ?? 0;
  const cost = ready.length * styles.length * CREDITS.perRender;
  const tooFewCredits = cost > credits;
  // Said up front (before any picture or style is chosen) when even one render would wait for the address.
  const waitsForAddress = waitsForConfirmation(allowance.data, Math.max(cost, CREDITS.perRender));

  const render = async () => {
    if (styles.length === 0) {
      setRenderError(t("styleSelect.chooseOne"));
      return;
    }
    setRenderError(undefined);
    setCreditsShort(false);
    setFreeCreditsRefused(false);
    setRendering(true);
    const jobIds: string[] = [];
    const trimmed = note.trim();
    try {
      for (const row of ready) {
        const result = await create.mutateAsync({
          projectId: row.projectId ?? projectId ?? undefined,
          imageId: row.imageId,
          style: styles.length === 1 ? styles[0]! : styles,
          ...(trimmed ? { note: trimmed } : {}),
        });
        jobIds.push(...result.jobs.map((job) => job.id));
      }
    } catch (caught) {
      const message = errorMessage(caught);
      if (message === MESSAGES.notEnoughCredits) setCreditsShort(true);
      if (message === MESSAGES.freeCreditsNeedConfirmation) setFreeCreditsRefused(true);
      const text = friendlyError(caught, t);
      if (jobIds.length === 0) {
        setRenderError(message === MESSAGES.notEnoughCredits || message === MESSAGES.freeCreditsNeedConfirmation ? undefined : text);
        setRendering(false);
        await utils.render.allowance.invalidate();
        return;
      }
      toast.error(t("batch.partlyStarted", { count: jobIds.length }), { description: text });
    }
    await Promise.all([utils.render.allowance.invalidate(), utils.projects.invalidate()]);
    navigate(`/render?jobs=${jobIds.join(",")}`);
  };

  return (
    <PageShell
      title={t("pages.batchUpload.title")}
      intro={t("batch.intro")}
      wide
      actions={allowance.data ? <AllowanceNote allowance={allowance.data} /> : null}
    >
      <section className={`${cardClass} space-y-5 p-4 sm:p-6`} aria-labelledby="batch-step-1">
        <h2 id="batch-step-1" className="text-lg font-semibold">
          {t("batch.step1")}
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          <ModeChoice value={mode} onChange={setMode} disabled={busy} planNone={allowance.data?.engine.capabilities.floorPlan === "none"} />
          <RoomTypeSelect value={roomType} onChange={setRoomType} disabled={busy} />
          <ProjectSelect choice={projectChoice} disabled={busy || projectId !== null} />
        </div>
        {mode === "room-photo" ? <p className="text-xs text-slate-500 dark:text-slate-400">{t("renderSets.nameHint")}</p> : null}
        {rows.length < RENDER.batchMaxFiles ? <DropZone multiple onFiles={(files) => void add(files)} /> : null}
        <ErrorText message={error} />

        {rows.length > 0 ? (
          <ul
            className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
            data-testid="batch-rows"
          >
            {rows.map((row) => (
              <li key={row.key} className="flex items-center gap-3 p-3" data-testid="batch-row" data-status={row.status}>
                {row.refused || row.noPreview ? (
                  <span
                    className="flex size-14 shrink-0 items-center justify-center rounded-md bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400"
                    data-testid="batch-row-file-icon"
                  >
                    <FileX2 className="size-6" aria-hidden="true" />
                  </span>
                ) : (
                  <img
                    src={row.preview}
                    alt=""
                    className="size-14 shrink-0 rounded-md bg-slate-100 object-cover dark:bg-slate-800"
                    onError={() => patch(row.key, { noPreview: true })}
                  />
                )}
                <div className="min-w-0 flex-1 space-y-1.5">
                  <div className="flex items-baseline justify-between gap-2">
                    <p className="truncate text-sm font-medium">{row.file.name}</p>
                    <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">
                      {formatBytes(row.file.size, i18n.resolvedLanguage)}
                    </span>
                  </div>
                  {row.status === "failed" ? (
                    <p className="flex items-start gap-1.5 text-sm text-red-700 dark:text-red-300">
                      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                      {row.error}
                    </p>
                  ) : (
                    <>
                      <ProgressBar
                        value={row.status === "waiting" ? 0 : row.progress * 100}
                        label={t("batch.rowProgress", { name: row.file.name })}
                        tone={row.status === "done" ? "success" : "brand"}
                      />
                      <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
                        {row.status === "done" ? (
                          <CheckCircle2 className="size-3.5 text-emerald-500" aria-hidden="true" />
                        ) : row.status === "uploading" ? (
                          <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
                        ) : null}
                        {row.status === "done"
                          ? t("batch.rowDone")
                          : row.status === "uploading"
                            ? row.progress >= 1
                              ? t("upload.processing")
                              : t("upload.uploading", { percent: Math.round(row.progress * 100) })
                            : t("batch.rowWaiting")}
                      </p>
                    </>
                  )}
                </div>
                {row.status === "failed" && projectId && !row.refused ? (
                  <button
                    type="button"
                    className={buttonClass.icon}
                    aria-label={t("batch.retry", { name: row.file.name })}
                    title={t("batch.retry", { name: row.file.name })}
                    onClick={() => retry(row)}
                  >
                    <RotateCcw className="size-4" aria-hidden="true" />
                  </button>
                ) : null}
                <button
                  type="button"
                  className={buttonClass.icon}
                  aria-label={t("batch.remove", { name: row.file.name })}
                  title={t("batch.remove", { name: row.file.name })}
                  onClick={() => removeRow(row)}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {rows.length > 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="batch-summary">
            {t("batch.summary", { count: ready.length, total: rows.length })}
          </p>
        ) : null}
      </section>

      <section className={`${cardClass} space-y-6 p-4 sm:p-6`} aria-labelledby="batch-step-2">
        <h2 id="batch-step-2" className="text-lg font-semibold">
          {t("batch.step2")}
        </h2>
        <StylePicker
          value={styles}
          onChange={setStyles}
          multi={multi}
          onMultiChange={setMulti}
          multiAllowed
          pictures={Math.max(1, ready.length)}
          custom={customStyles.data}
          takesReference={allowance.data?.engine.capabilities.referencePicture === true}
        />
        <NoteField id="batch-note" rows={2} value={note} onChange={setNote} hint={t("batch.noteHint")} />
        {allowance.data ? <EngineNote engine={allowance.data.engine} /> : null}
        {(waitsForAddress || freeCreditsRefused) && allowance.data ? (
          <FreeCreditsLockedCallout count={allowance.data.freeCreditsLocked} engine={allowance.data.engine} />
        ) : null}
        {(tooFewCredits && ready.length > 0 && styles.length > 0) || creditsShort ? (
          <Callout
            tone="amber"
            testId="credits-callout"
            icon={<Sparkles className="size-5" aria-hidden="true" />}
            title={t("serverMessages.notEnoughCredits")}
            actions={
              <Link href="/pricing" className={buttonClass.primary}>
                {t("flow.buyCredits")}
              </Link>
            }
          >
            {t("styleSelect.creditsNeeded", { count: cost, credits })}
          </Callout>
        ) : null}
        <ErrorText message={renderError} />
        <div className="flex flex-col gap-3 border-t border-slate-200 pt-5 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("batch.costLine", { count: cost })}</p>
          <button
            type="button"
            className={`${buttonClass.big} w-full sm:w-auto`}
            disabled={rendering || busy || ready.length === 0 || styles.length === 0 || tooFewCredits || waitsForAddress}
            aria-busy={rendering || undefined}
            onClick={() => void render()}
          >
            {rendering ? <Loader2 className="size-5 animate-spin" aria-hidden="true" /> : <Wand2 className="size-5" aria-hidden="true" />}
            {rendering ? t("styleSelect.starting") : t("batch.render", { count: ready.length * Math.max(1, styles.length) })}
          </button>
        </div>
      </section>
      <Link href="/upload" className={`inline-flex items-center gap-2 text-sm ${linkClass}`}>
        <Files className="size-4" aria-hidden="true" />
        {t("batch.singleLink")}
      </Link>
    </PageShell>
  );
}
