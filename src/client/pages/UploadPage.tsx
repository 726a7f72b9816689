/**
 * /upload: what the picture shows, the room, the project (signed in) or the free demo (visitors),
 * then the picture itself: dropped, chosen or taken with the camera. The upload shows its
 * progress; each refusal says why. Then on to /style-select.
 *
 * A visitor learns before uploading whether the free demo render is still theirs (render.allowance);
 * once it is used in this browser, or this network's demos are used up for today, the page leads
 * to sign-up instead of taking a picture it could not render. Until the allowance has arrived the
 * drop zone takes nothing.
 */
import { isBuiltInStyle } from "../../shared/custom-styles";
import { Files, Gift, Sparkles, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearch } from "wouter";
import { RENDER } from "../../shared/render";
import { CREDITS } from "../../shared/constants";
import type { InputMode, RoomType } from "../../shared/styles";
import { AllowanceNote, Callout, DemoRefusedCallout, EngineNote, SIGN_UP_HREF } from "../components/render/Callouts";
import { DropZone } from "../components/render/DropZone";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { ProgressBar } from "../components/render/ProgressBar";
import { ModeChoice, ProjectSelect, RoomTypeSelect, useProjectChoice } from "../components/render/UploadOptions";
import { buttonClass, cardClass, linkClass } from "../components/ui/buttons";
import { useSession } from "../hooks/useSession";
import { friendlyError } from "../lib/friendlyError";
import { checkFile, UploadAbortedError, uploadImage, type UploadHandle } from "../lib/upload";
import { trpc } from "../trpc";
import { currentStudio } from "../lib/studio";

interface Sending {
  name: string;
  preview: string;
  progress: number;
}

export default function UploadPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const search = useSearch();
  const { user } = useSession();
  const allowance = trpc.render.allowance.useQuery(undefined, { staleTime: 0 });
  const [mode, setMode] = useState<InputMode>("room-photo");
  const [roomType, setRoomType] = useState<RoomType>("living-room");
  const projectChoice = useProjectChoice(!!user, new URLSearchParams(search).get("project"));
  const [sending, setSending] = useState<Sending | null>(null);
  const [error, setError] = useState<string>();
  const handle = useRef<UploadHandle | null>(null);

  // The preview's object URL lives as long as it is shown.
  const preview = sending?.preview;
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  // Leaving the page stops an upload on its way.
  useEffect(() => () => handle.current?.abort(), []);

  const visitor = allowance.data && !allowance.data.signedIn ? allowance.data : null;
  /** Why this visitor cannot render a free demo now (null: they can, or they are signed in). */
  const demoRefusal = visitor && !visitor.demoAvailable ? (visitor.demoRefusal ?? "used") : null;
  const outOfCredits = allowance.data?.signedIn && (allowance.data.credits ?? 0) < CREDITS.perRender;

  const start = async ([file]: File[]) => {
    if (!file || sending || demoRefusal || allowance.isPending) return;
    setError(undefined);
    const refused = checkFile(file);
    if (refused) {
      setError(friendlyError(refused, t));
      return;
    }
    let projectId: string | undefined;
    if (user) {
      try {
        projectId = await projectChoice.resolve();
      } catch (caught) {
        setError(friendlyError(caught, t));
        return;
      }
      if (!projectId) return;
    }
    setSending({ name: file.name, preview: URL.createObjectURL(file), progress: 0 });
    const upload = uploadImage(file, { mode, roomType, projectId }, (progress) =>
      setSending((current) => (current ? { ...current, progress } : current)),
    );
    handle.current = upload;
    try {
      const uploaded = await upload.promise;
      // "Use this style" on /community (decision 102) comes with a built-in style, passed on to the style page.
      const style = new URLSearchParams(search).get("style");
      const chosen = style && isBuiltInStyle(style) ? `&style=${encodeURIComponent(style)}` : "";
      navigate(`/style-select?image=${encodeURIComponent(uploaded.imageId)}&project=${encodeURIComponent(uploaded.projectId)}${chosen}`);
    } catch (caught) {
      if (!(caught instanceof UploadAbortedError)) setError(friendlyError(caught, t));
      setSending(null);
    } finally {
      handle.current = null;
    }
  };

  return (
    <PageShell
      title={t("pages.upload.title")}
      intro={t("upload.intro")}
      actions={allowance.data ? <AllowanceNote allowance={allowance.data} /> : null}
    >
      {visitor ? (
        visitor.demoAvailable ? (
          <Callout
            testId="demo-note"
            icon={<Gift className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
            title={t("upload.demoTitle")}
            actions={
              <Link href={SIGN_UP_HREF} className={linkClass}>
                {t("upload.demoSignUp", { credits: currentStudio().signUpCredits })}
              </Link>
            }
          >
            {t("upload.demoBody", { credits: currentStudio().signUpCredits, days: RENDER.visitorWorkDays })}
          </Callout>
        ) : (
          <DemoRefusedCallout refusal={demoRefusal ?? "used"} />
        )
      ) : null}
      {outOfCredits ? (
        <Callout
          tone="amber"
          icon={<Sparkles className="size-5" aria-hidden="true" />}
          title={t("flow.noCreditsTitle")}
          actions={
            <Link href="/pricing" className={buttonClass.primary}>
              {t("flow.buyCredits")}
            </Link>
          }
        >
          {t("flow.noCreditsBody")}
        </Callout>
      ) : null}

      {demoRefusal ? null : (
        <div className={`${cardClass} space-y-5 p-4 sm:p-6`} data-testid="upload-card">
          <div className={`grid gap-4 ${user ? "md:grid-cols-3" : "md:grid-cols-2"}`}>
            <ModeChoice
              value={mode}
              onChange={setMode}
              disabled={!!sending}
              planNone={allowance.data?.engine.capabilities.floorPlan === "none"}
            />
            <RoomTypeSelect value={roomType} onChange={setRoomType} disabled={!!sending} />
            {user ? <ProjectSelect choice={projectChoice} disabled={!!sending} /> : null}
          </div>

          {sending ? (
            <div
              className="flex items-center gap-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
              data-testid="upload-progress"
            >
              <img src={sending.preview} alt="" className="size-16 shrink-0 rounded-lg object-cover sm:size-20" />
              <div className="min-w-0 flex-1 space-y-2">
                <p className="truncate text-sm font-medium">{sending.name}</p>
                <ProgressBar value={sending.progress * 100} label={t("upload.progressLabel")} />
                <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
                  {sending.progress >= 1 ? t("upload.processing") : t("upload.uploading", { percent: Math.round(sending.progress * 100) })}
                </p>
              </div>
              <button
                type="button"
                className={buttonClass.icon}
                aria-label={t("upload.cancel")}
                title={t("upload.cancel")}
                onClick={() => handle.current?.abort()}
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            </div>
          ) : (
            <DropZone onFiles={(files) => void start(files)} disabled={allowance.isPending} />
          )}
          <ErrorText message={error} />
          <p className="text-sm text-slate-500 dark:text-slate-400">{t("upload.privacy")}</p>
        </div>
      )}

      <div className="space-y-4">
        <Link href="/batch-upload" className={`inline-flex items-center gap-2 text-sm ${linkClass}`}>
          <Files className="size-4 shrink-0" aria-hidden="true" />
          {t("upload.batchLink")}
        </Link>
        {allowance.data ? <EngineNote engine={allowance.data.engine} /> : null}
      </div>
    </PageShell>
  );
}
