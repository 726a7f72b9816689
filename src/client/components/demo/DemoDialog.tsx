/**
 * The demo dialog (spec sections 2 and 4): "<product> See How It Works", four steps that play by
 * themselves on open (each for its own duration), Play/Pause, step dots (a click goes there and
 * stops), the step list, the "Why Choose" panel, and Try Without Signup (closes, goes to /upload).
 * Radix Dialog: focus stays inside, Escape closes, focus returns to Watch Demo.
 *
 * The spec's words ("AI Magic Happens", "photorealistic quality"...) are for an AI engine. With the
 * Preview engine the dialog says what it really does (useEngine's rule) and shows the app's own
 * example pair, made by the Preview engine from a room the app drew, with a caption saying so.
 */
import * as Dialog from "@radix-ui/react-dialog";
import { ArrowRight, Check, Pause, Play, X } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";

import { useEngine } from "../../hooks/useEngine";
import { useDemoPlayback } from "../../lib/demoPlayback";
import { useSharedQuery } from "../../lib/queries";
import { buttonClass } from "../ui/buttons";
import { DEMO_STEPS, DemoStage, demoExample, type DemoPictures } from "./DemoStage";
import { currentStudio } from "../../lib/studio";

const REASONS = [
  { title: "demo.reasons.fast", body: "demo.reasons.fastBody" },
  { title: "demo.reasons.quality", body: "demo.reasons.qualityBody" },
  { title: "demo.reasons.easy", body: "demo.reasons.easyBody" },
  { title: "demo.reasons.price", body: "demo.reasons.priceBody" },
] as const;

/** A thin bar filling up over the current step's time while playing (drawn with the Web Animations API). */
function StepProgress({ step, playing, durationMs }: { step: number; playing: boolean; durationMs: number }) {
  const bar = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = bar.current;
    if (!element || !playing || typeof element.animate !== "function") return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const animation = element.animate([{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }], {
      duration: durationMs,
      easing: "linear",
      fill: "forwards",
    });
    return () => animation.cancel();
  }, [step, playing, durationMs]);
  return (
    <span className="block h-1 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700" aria-hidden="true">
      <span ref={bar} className="block h-full w-full origin-left scale-x-0 bg-brand-600 dark:bg-brand-500" />
    </span>
  );
}

/** The dialog, opened by `children` (the Watch Demo button), which gets the focus back on close; Hero loads it on first use. */
export function DemoDialog({ children, defaultOpen = false }: { children: ReactNode; defaultOpen?: boolean }) {
  const { t } = useTranslation();
  const [open, onOpenChange] = useState(defaultOpen);
  const { step, playing, stepCount, durationMs, toggle, goTo } = useDemoPlayback(open);
  const current = DEMO_STEPS[step]!;
  const { isAi, textKey } = useEngine();
  const gallery = useSharedQuery("render.gallery", { enabled: open && !isAi });
  const pictures: DemoPictures = isAi ? { kind: "drawn" } : { kind: "example", pair: demoExample(gallery.data?.examples) };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{children}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm" />
        <Dialog.Content
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900"
          data-testid="demo-dialog"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 py-3 sm:px-6 sm:py-4 dark:border-slate-800">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-bold sm:text-xl">{t("demo.title", { product: currentStudio().name })}</Dialog.Title>
              <Dialog.Description className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">
                {t(textKey("demo.description"))}
              </Dialog.Description>
            </div>
            <Dialog.Close className={`${buttonClass.icon} shrink-0`} aria-label={t("common.close")}>
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>

          <div className="grid min-h-0 flex-1 overflow-y-auto lg:grid-cols-[minmax(0,1fr)_18rem]">
            <div className="min-w-0 space-y-4 p-4 sm:p-6">
              <DemoStage step={step} pictures={pictures} textKey={textKey} />
              {pictures.kind === "example" ? (
                <p className="-mt-2 text-xs text-slate-500 dark:text-slate-400" data-testid="demo-examples-caption">
                  {t("demo.preview.examplesCaption")}
                </p>
              ) : null}

              <div aria-live={playing ? "off" : "polite"} data-testid="demo-caption">
                <p className="text-xs font-semibold uppercase tracking-wide text-brand-600 dark:text-brand-100">
                  {t("demo.stepOf", { step: step + 1, total: stepCount })}
                </p>
                <h3 className="mt-0.5 text-lg font-semibold">{t(textKey(current.title))}</h3>
                <p className="text-sm text-slate-600 dark:text-slate-400">{t(textKey(current.body), { product: currentStudio().name })}</p>
              </div>

              <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
                <button type="button" onClick={toggle} className={`${buttonClass.secondary} min-w-28`} data-testid="demo-play-pause">
                  {playing ? <Pause className="size-4" aria-hidden="true" /> : <Play className="size-4" aria-hidden="true" />}
                  {playing ? t("demo.pause") : t("demo.play")}
                </button>
                <div className="flex items-center gap-1" role="group" aria-label={t("demo.stepsLabel")}>
                  {DEMO_STEPS.map((item, index) => (
                    <button
                      key={item.key}
                      type="button"
                      onClick={() => goTo(index)}
                      aria-label={t("demo.goToStep", { step: index + 1, title: t(textKey(item.title)) })}
                      aria-current={index === step ? "step" : undefined}
                      className="group flex size-8 items-center justify-center rounded-full"
                      data-testid="demo-dot"
                    >
                      <span
                        className={`block h-2.5 rounded-full transition-all ${index === step ? "w-6 bg-brand-600 dark:bg-brand-500" : "w-2.5 bg-slate-300 group-hover:bg-slate-400 dark:bg-slate-600 dark:group-hover:bg-slate-500"}`}
                      />
                    </button>
                  ))}
                </div>
                <div className="min-w-24 flex-1">
                  <StepProgress step={step} playing={playing} durationMs={durationMs} />
                </div>
              </div>

              <ol className="grid gap-2 sm:grid-cols-2" aria-label={t("demo.stepsLabel")} data-testid="demo-step-list">
                {DEMO_STEPS.map((item, index) => {
                  const done = index < step;
                  const active = index === step;
                  return (
                    <li
                      key={item.key}
                      aria-current={active ? "step" : undefined}
                      className={`flex items-center gap-2.5 rounded-lg border px-3 py-2 text-sm ${active ? "border-brand-600 bg-brand-50 font-semibold text-slate-900 dark:border-brand-500 dark:bg-brand-700/20 dark:text-white" : "border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-300"}`}
                    >
                      <span
                        className={`flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${done || active ? "bg-brand-600 text-white" : "bg-slate-200 text-slate-600 dark:bg-slate-700 dark:text-slate-200"}`}
                      >
                        {done ? <Check className="size-3.5" aria-hidden="true" /> : index + 1}
                      </span>
                      {t(textKey(item.title))}
                    </li>
                  );
                })}
              </ol>
            </div>

            <aside
              className="border-t border-slate-200 bg-slate-50 p-4 sm:p-6 lg:border-l lg:border-t-0 dark:border-slate-800 dark:bg-slate-950/40"
              aria-labelledby="demo-why-title"
              data-testid="demo-why"
            >
              <h3 id="demo-why-title" className="font-bold">
                {t("demo.whyChoose", { product: currentStudio().name })}
              </h3>
              <ul className="mt-4 space-y-4">
                {REASONS.map((reason) => (
                  <li key={reason.title} className="flex gap-3">
                    <span className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-white">
                      <Check className="size-3.5" aria-hidden="true" />
                    </span>
                    <span>
                      <span className="block text-sm font-semibold">{t(textKey(reason.title))}</span>
                      <span className="block text-sm text-slate-600 dark:text-slate-400">
                        {t(textKey(reason.body), { credits: currentStudio().signUpCredits })}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
              <Link href="/upload" onClick={() => onOpenChange(false)} className={`${buttonClass.primary} mt-6 w-full py-3`}>
                {t("landing.tryWithoutSignup")}
                <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
            </aside>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
