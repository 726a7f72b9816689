/**
 * The landing page's top: what the studio does, the three ways in (spec section 2), and the engine
 * that renders here, said plainly. Its picture is the drawn idea of a restyled room only with an AI
 * engine; with the Preview engine it is the app's own example, before and after the Preview engine.
 */
import { ArrowRight, CirclePlay, LayoutDashboard } from "lucide-react";
import { useState, type ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useEngine } from "../../hooks/useEngine";
import { useSession } from "../../hooks/useSession";
import { withTexts } from "../../i18n";
import { SIGN_UP_HREF } from "../../lib/authLinks";
import { useSharedQuery } from "../../lib/queries";
import { demoExample, DRAWN_STYLE } from "../demo/demoExample";
import { EngineNote } from "../render/EngineNote";
import { buttonClass } from "../ui/buttons";
import { ROOM_DRAWING_RATIO, RoomSplit } from "./RoomDrawing";

// Radix Dialog and the demo's texts are not part of the first load: fetched when the visitor reaches for Watch Demo.
const loadDemoDialog = withTexts(() => import("../demo/DemoDialog"), ["demo"]);
type DemoDialogType = Awaited<ReturnType<typeof loadDemoDialog>>["DemoDialog"];
type DemoTriggerProps = { onClick?: () => void; onPointerEnter?: () => void; onPointerDown?: () => void; onFocus?: () => void };

/**
 * Watch Demo: a plain button until first used, then the demo dialog's trigger, opened at once. Its
 * code and texts are fetched as soon as the pointer, a finger or the keyboard reaches the button
 * (most visits never open it, so the first load and what follows it do not carry it). No Suspense: its fallback is revealed on a timer, which a paused
 * clock (the demo's tests) would hold.
 */
function WatchDemo({ children }: { children: (props: DemoTriggerProps) => ReactElement }) {
  const [dialog, setDialog] = useState<{ component: DemoDialogType } | null>(null);
  if (!dialog) {
    const prefetch = () => void loadDemoDialog();
    return children({
      onClick: () => void loadDemoDialog().then((module) => setDialog({ component: module.DemoDialog })),
      onPointerEnter: prefetch,
      onPointerDown: prefetch,
      onFocus: prefetch,
    });
  }
  return <dialog.component defaultOpen>{children({})}</dialog.component>;
}

const captionClass = "rounded bg-slate-950/70 px-2 py-0.5 text-white";
const exampleCaptionClass = "mt-2 text-center text-xs text-slate-500 dark:text-slate-400";

/**
 * The example's caption, invisible, where there is none (yet): with the style the demo's example
 * usually has, it holds the caption's room, so nothing below moves when the example arrives.
 */
function CaptionRoom() {
  const { t } = useTranslation();
  return (
    <p className={`${exampleCaptionClass} invisible`} aria-hidden="true">
      {t("home.hero.exampleCaption")} · {t(`styles.${DRAWN_STYLE}`)}
    </p>
  );
}

/** The hero's picture: before on the left, after on the right. */
function HeroPicture() {
  const { t } = useTranslation();
  const { engine, isAi } = useEngine();
  const gallery = useSharedQuery("render.gallery", { enabled: !!engine && !isAi });
  const example = demoExample(gallery.data?.examples);
  const labels = (
    <figcaption className="pointer-events-none absolute inset-x-3 top-3 flex justify-between text-xs font-semibold uppercase tracking-wide">
      <span className={captionClass}>{t("compare.before")}</span>
      <span className={captionClass}>{t("compare.after")}</span>
    </figcaption>
  );
  const frame = "overflow-hidden rounded-2xl shadow-xl ring-1 ring-slate-900/5 dark:ring-white/10";

  if (isAi) {
    return (
      <figure className="relative min-w-0" data-testid="hero-picture" data-pictures="drawn">
        <div className={frame}>
          <RoomSplit label={t("home.hero.illustrationAlt")} />
        </div>
        {labels}
        <CaptionRoom />
      </figure>
    );
  }
  if (!example) {
    // The engine or the example is on its way (or there is none): an empty frame of the same shape, claiming nothing.
    return (
      <figure className="relative min-w-0" data-testid="hero-picture" data-pictures="pending">
        <div className={`${frame} bg-slate-100 dark:bg-slate-800`} style={{ aspectRatio: ROOM_DRAWING_RATIO }} />
        <CaptionRoom />
      </figure>
    );
  }
  const style = t(`styles.${example.style}`);
  return (
    <figure className="relative min-w-0" data-testid="hero-picture" data-pictures="example">
      <div
        className={`${frame} relative bg-slate-100 dark:bg-slate-800`}
        style={{ aspectRatio: ROOM_DRAWING_RATIO }}
        role="img"
        aria-label={t("home.hero.exampleAlt", { style })}
      >
        <img src={example.after} alt="" className="absolute inset-0 size-full object-contain" />
        <img src={example.before} alt="" className="absolute inset-0 size-full object-contain [clip-path:inset(0_50%_0_0)]" />
        <span className="absolute inset-y-0 left-1/2 w-1 -translate-x-1/2 bg-white" aria-hidden="true" />
      </div>
      {labels}
      <p className={exampleCaptionClass} data-testid="hero-example-caption">
        {t("home.hero.exampleCaption")} · {style}
      </p>
    </figure>
  );
}

const bigSecondary = `${buttonClass.secondary} py-3`;
const bigPrimary = `${buttonClass.primary} py-3 shadow-md`;

/** Which engine renders here and, for the Preview engine, that it is not AI; room is held for it meanwhile. */
function HeroEngine() {
  const { engine } = useEngine();
  // The Preview engine's note (the longer one), invisible in the same grid cell, holds the room:
  // nothing below moves when the server's answer comes, whichever engine it names.
  return (
    <div className="mt-3 grid *:col-start-1 *:row-start-1">
      <EngineNote engine={{ isAi: false, label: "" }} sizer />
      {engine ? <EngineNote engine={engine} /> : null}
    </div>
  );
}

export function Hero() {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  return (
    <section
      className="relative overflow-hidden bg-gradient-to-b from-brand-50 to-white dark:from-slate-900 dark:to-slate-950"
      aria-labelledby="hero-title"
    >
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 md:py-20 lg:grid-cols-[6fr_5fr]">
        <div className="min-w-0">
          <span className="inline-block rounded-full bg-brand-100 px-3 py-1 text-sm font-medium text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
            {t("landing.badge")}
          </span>
          <h1 id="hero-title" className="mt-4 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
            {t("landing.title")}
          </h1>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{t("landing.subtitle")}</p>
          <div className="mt-8 flex flex-wrap gap-3" data-testid="hero-actions">
            <Link href="/upload" className={bigPrimary}>
              {t("landing.tryWithoutSignup")}
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
            <WatchDemo>
              {(props) => (
                <button type="button" className={bigSecondary} {...props}>
                  <CirclePlay className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
                  {t("home.hero.watchDemo")}
                </button>
              )}
            </WatchDemo>
            {isLoading ? (
              // Holds the place of the third button while the session is checked, so nothing jumps.
              <span className={`${bigSecondary} invisible`} aria-hidden="true">
                {t("landing.signUpForMore")}
              </span>
            ) : user ? (
              <Link href="/dashboard" className={bigSecondary}>
                <LayoutDashboard className="size-4" aria-hidden="true" />
                {t("home.hero.goToDashboard")}
              </Link>
            ) : (
              // Spec: shown to a visitor only (a signed-in user gets Go to Dashboard instead); it opens
              // /auth on the sign-up tab, as Start Free Trial does (someone asking for more has no account yet).
              <Link href={SIGN_UP_HREF} className={bigSecondary}>
                {t("landing.signUpForMore")}
              </Link>
            )}
          </div>
          <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">{t("landing.freeTrialNote")}</p>
          <HeroEngine />
        </div>
        <HeroPicture />
      </div>
    </section>
  );
}
