/**
 * The onboarding overlay of spec sections 2 and 4: five steps with "Step N of 5" and a progress
 * bar, Previous / Next / "Skip Tutorial" / "Get Started". It opens by itself a second after a
 * signed-in user loads a page, until the tour has been completed or skipped on the account (on any
 * browser: decision 068). Escape counts as Skip. Finished on the landing page, it moves on to /upload.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { ArrowLeft, ArrowRight, Camera, Check, CircleCheck, Columns2, ImageIcon, Info, Paintbrush, Palette, Sparkles } from "lucide-react";
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "wouter";
import { ONBOARDING } from "../../../shared/constants";
import { useEngine } from "../../hooks/useEngine";
import { useSession } from "../../hooks/useSession";
import { createOnboarding, LAST_STEP } from "../../lib/onboarding";
import { setSharedData } from "../../lib/queries";
import { ProgressBar } from "../render/ProgressBar";
import { buttonClass } from "../ui/buttons";
import { currentStudio } from "../../lib/studio";
import { AR_MEASURE_TOLERANCE_CM, PHOTO_MEASURE_FIGURES } from "../../../shared/measures";

/**
 * Completed or skipped: on the account, so that no other browser opens it again. The session's copy
 * says so at once; should the server not hear it, the tour stays closed for this visit only. A plain
 * POST as tRPC's httpLink sends a call without input (superjson's envelope of nothing): it leaves at
 * once, with no batching timer, and needs no data layer.
 */
async function storeOnboardingDone(): Promise<void> {
  setSharedData("auth.session", (old) => (old?.user ? { ...old, user: { ...old.user, onboardingDone: true } } : old));
  try {
    await fetch("/trpc/account.finishOnboarding", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      keepalive: true,
    });
  } catch {
    // Offline: the next visit shows the tour again.
  }
}

export function OnboardingOverlay() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [location, navigate] = useLocation();
  const where = useRef({ location, navigate });
  useEffect(() => {
    where.current = { location, navigate };
  }, [location, navigate]);
  const doneOnAccount = !!user?.onboardingDone;
  const accountDone = useRef(doneOnAccount);
  useEffect(() => {
    accountDone.current = doneOnAccount;
  }, [doneOnAccount]);

  const [onboarding] = useState(() =>
    createOnboarding({
      account: { done: () => accountDone.current, markDone: () => void storeOnboardingDone() },
      onFinish() {
        // Completed or skipped on the landing page: on to the upload (spec section 2).
        if (where.current.location === "/") where.current.navigate("/upload");
      },
    }),
  );
  const state = useSyncExternalStore(onboarding.subscribe, onboarding.getState);

  const signedIn = !!user;
  useEffect(() => onboarding.scheduleAutoOpen(signedIn && !doneOnAccount), [onboarding, signedIn, doneOnAccount]);
  useEffect(() => () => onboarding.dispose(), [onboarding]);

  const open = state.status !== "closed";
  const completing = state.status === "completing";
  const last = state.step === LAST_STEP;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onboarding.dispatch({ type: "skip" });
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm transition-opacity duration-200 starting:opacity-0 motion-reduce:transition-none" />
        <Dialog.Content
          className={
            "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden " +
            "rounded-2xl border border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900 " +
            "transition-[opacity,scale] duration-200 starting:scale-95 starting:opacity-0 motion-reduce:transition-none"
          }
          // The tour ends only through its buttons or Escape, not a stray tap beside it.
          onPointerDownOutside={(event) => event.preventDefault()}
          onEscapeKeyDown={(event) => {
            // Finishing already: the check stays its 1.5 s.
            if (completing) event.preventDefault();
          }}
          data-testid="onboarding"
          data-step={state.step}
        >
          <Header step={state.step} completing={completing} onSkip={() => onboarding.dispatch({ type: "skip" })} />
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-5 sm:px-7" aria-live="polite">
            {completing ? <Completing /> : <StepBody step={state.step} />}
          </div>
          <div className="flex items-center justify-between gap-3 border-t border-slate-200 px-5 py-4 sm:px-7 dark:border-slate-800">
            <button
              type="button"
              className={`${buttonClass.secondary} ${state.step === 0 || completing ? "invisible" : ""}`}
              onClick={() => onboarding.dispatch({ type: "previous" })}
              disabled={completing || state.step === 0}
              aria-hidden={state.step === 0 || completing || undefined}
              data-testid="onboarding-previous"
            >
              <ArrowLeft className="size-4" aria-hidden="true" />
              {t("onboarding.previous")}
            </button>
            <StepDots step={state.step} disabled={completing} onGoTo={(step) => onboarding.dispatch({ type: "goTo", step })} />
            <button
              type="button"
              className={buttonClass.primary}
              onClick={() => onboarding.dispatch(last ? { type: "getStarted" } : { type: "next" })}
              disabled={completing}
              aria-busy={completing || undefined}
              data-testid={last ? "onboarding-get-started" : "onboarding-next"}
            >
              {last ? (
                <>
                  {completing ? <Check className="size-4" aria-hidden="true" /> : null}
                  {t("onboarding.getStarted")}
                </>
              ) : (
                <>
                  {t("onboarding.next")}
                  <ArrowRight className="size-4" aria-hidden="true" />
                </>
              )}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Header({ step, completing, onSkip }: { step: number; completing: boolean; onSkip(): void }) {
  const { t } = useTranslation();
  const shown = completing ? ONBOARDING.steps : step + 1;
  return (
    <div className="space-y-3 border-b border-slate-200 px-5 pt-4 pb-4 sm:px-7 dark:border-slate-800">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-medium text-slate-600 dark:text-slate-400" data-testid="onboarding-step">
          {t("onboarding.stepOf", { step: step + 1, total: ONBOARDING.steps })}
        </p>
        <button
          type="button"
          className={`${buttonClass.ghost} -mr-2 px-2 py-1 text-slate-600 dark:text-slate-300`}
          onClick={onSkip}
          disabled={completing}
          data-testid="onboarding-skip"
        >
          {t("onboarding.skip")}
        </button>
      </div>
      <ProgressBar value={(shown / ONBOARDING.steps) * 100} label={t("onboarding.progressLabel")} />
    </div>
  );
}

function StepDots({ step, disabled, onGoTo }: { step: number; disabled: boolean; onGoTo(step: number): void }) {
  const { t } = useTranslation();
  return (
    <div className="hidden items-center gap-1.5 min-[400px]:flex">
      {Array.from({ length: ONBOARDING.steps }, (_, index) => (
        <button
          key={index}
          type="button"
          className="group inline-flex size-6 items-center justify-center rounded-full"
          aria-label={t("onboarding.goToStep", { step: index + 1 })}
          aria-current={index === step ? "step" : undefined}
          disabled={disabled}
          onClick={() => onGoTo(index)}
        >
          <span
            className={`block h-2 rounded-full transition-all motion-reduce:transition-none ${
              index === step
                ? "w-5 bg-brand-600 dark:bg-brand-500"
                : "w-2 bg-slate-300 group-hover:bg-slate-400 dark:bg-slate-700 dark:group-hover:bg-slate-600"
            }`}
          />
        </button>
      ))}
    </div>
  );
}

function StepIcon({ children, tone = "brand" }: { children: ReactNode; tone?: "brand" | "success" }) {
  const tones = {
    brand: "bg-brand-50 text-brand-600 ring-brand-100 dark:bg-brand-700/25 dark:text-brand-100 dark:ring-brand-700/50",
    success: "bg-emerald-50 text-emerald-600 ring-emerald-100 dark:bg-emerald-900/30 dark:text-emerald-300 dark:ring-emerald-800/60",
  };
  return (
    <span className={`inline-flex size-14 items-center justify-center rounded-2xl ring-1 ring-inset [&>svg]:size-7 ${tones[tone]}`}>
      {children}
    </span>
  );
}

function StepTitle({ children, badge }: { children: ReactNode; badge?: string }) {
  return (
    <div className="mt-4 flex flex-wrap items-center gap-2">
      <Dialog.Title className="text-xl font-semibold tracking-tight" data-testid="onboarding-title">
        {children}
      </Dialog.Title>
      {badge ? (
        <span
          className="inline-flex items-center rounded-full bg-accent-500/15 px-2.5 py-0.5 text-xs font-semibold text-amber-800 ring-1 ring-accent-500/40 ring-inset dark:text-amber-200"
          data-testid="onboarding-badge"
        >
          {badge}
        </span>
      ) : null}
    </div>
  );
}

const textClass = "mt-2 text-sm leading-relaxed text-slate-600 dark:text-slate-300";

function StepBody({ step }: { step: number }) {
  const { t } = useTranslation();
  const { textKey } = useEngine();
  const product = currentStudio().name;
  switch (step) {
    case 0:
      return (
        <>
          <StepIcon>
            <Sparkles aria-hidden="true" />
          </StepIcon>
          <StepTitle>{t("onboarding.welcome.title", { product })}</StepTitle>
          <Dialog.Description className={textClass}>{t(textKey("onboarding.welcome.body"))}</Dialog.Description>
          <ol className="mt-4 space-y-2">
            {(["point1", "point2", "point3"] as const).map((point, index) => (
              <li key={point} className="flex items-center gap-3 text-sm">
                <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-600 text-xs font-semibold text-white">
                  {index + 1}
                </span>
                {t(`onboarding.welcome.${point}`)}
              </li>
            ))}
          </ol>
        </>
      );
    case 1:
      return (
        <>
          <StepIcon>
            <Camera aria-hidden="true" />
          </StepIcon>
          <StepTitle badge={t("onboarding.recommended")}>{t("onboarding.photo.title")}</StepTitle>
          <Dialog.Description className={textClass}>{t("onboarding.photo.body")}</Dialog.Description>
          <p
            className="mt-4 flex gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-950/50 dark:text-slate-300"
            data-testid="onboarding-photo-note"
          >
            <Info className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-100" aria-hidden="true" />
            {t("onboarding.photo.note", { product, ...PHOTO_MEASURE_FIGURES, arCm: AR_MEASURE_TOLERANCE_CM })}
          </p>
        </>
      );
    case 2:
      return (
        <>
          <StepIcon>
            <Palette aria-hidden="true" />
          </StepIcon>
          <StepTitle>{t("onboarding.howItWorks.title")}</StepTitle>
          <Dialog.Description className={textClass}>{t("onboarding.howItWorks.body")}</Dialog.Description>
          <ol className="mt-3 space-y-2.5">
            {(["step1", "step2", "step3", "step4"] as const).map((item, index) => (
              <li key={item} className="flex gap-3 text-sm leading-relaxed" data-testid="onboarding-how-item">
                <span className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold text-brand-700 ring-1 ring-brand-100 ring-inset dark:bg-brand-700/25 dark:text-brand-100 dark:ring-brand-700/50">
                  {index + 1}
                </span>
                <span className="pt-0.5">{t(textKey(`onboarding.howItWorks.${item}`))}</span>
              </li>
            ))}
          </ol>
        </>
      );
    case 3:
      return (
        <>
          <StepIcon>
            <Columns2 aria-hidden="true" />
          </StepIcon>
          <StepTitle>{t("onboarding.results.title")}</StepTitle>
          <Dialog.Description className={textClass}>{t("onboarding.results.body")}</Dialog.Description>
          <div className="mt-4 grid grid-cols-2 gap-3">
            <ResultCard
              title={t("onboarding.results.beforeTitle")}
              detail={t("onboarding.results.beforeDetail")}
              icon={<ImageIcon className="size-4" aria-hidden="true" />}
              tone="muted"
            />
            <ResultCard
              title={t("onboarding.results.afterTitle")}
              detail={t(textKey("onboarding.results.afterDetail"))}
              icon={<Paintbrush className="size-4" aria-hidden="true" />}
              tone="brand"
            />
          </div>
          <p className={`${textClass} mt-4`}>{t("onboarding.results.next")}</p>
        </>
      );
    default:
      return (
        <>
          <StepIcon tone="success">
            <CircleCheck aria-hidden="true" />
          </StepIcon>
          <StepTitle>{t("onboarding.allSet.title")}</StepTitle>
          <Dialog.Description className={textClass}>{t("onboarding.allSet.body")}</Dialog.Description>
          <p className={textClass}>{t("onboarding.allSet.help")}</p>
        </>
      );
  }
}

function ResultCard({ title, detail, icon, tone }: { title: string; detail: string; icon: ReactNode; tone: "muted" | "brand" }) {
  const frame =
    tone === "brand"
      ? "border-brand-100 bg-brand-50/60 dark:border-brand-700/50 dark:bg-brand-700/15"
      : "border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-950/50";
  return (
    <div className={`rounded-xl border p-3 sm:p-4 ${frame}`} data-testid="onboarding-result-card">
      <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-700 uppercase dark:text-slate-200">
        <span className="text-brand-600 dark:text-brand-100">{icon}</span>
        {title}
      </p>
      <p className="mt-1.5 text-sm leading-snug text-slate-700 dark:text-slate-300">{detail}</p>
    </div>
  );
}

function Completing() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center justify-center gap-3 py-8 text-center" role="status" data-testid="onboarding-completing">
      <span className="inline-flex size-16 items-center justify-center rounded-full bg-emerald-500 text-white shadow-lg shadow-emerald-900/20">
        <Check className="size-9" strokeWidth={3} aria-hidden="true" />
      </span>
      <Dialog.Title className="text-lg font-semibold">{t("onboarding.allDone")}</Dialog.Title>
      <Dialog.Description className="sr-only">{t("onboarding.allSet.body")}</Dialog.Description>
    </div>
  );
}
