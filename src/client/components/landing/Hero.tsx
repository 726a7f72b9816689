/** The landing page's top: what the studio does, and the three ways in (spec section 2). */
import { ArrowRight, CirclePlay, LayoutDashboard } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useSession } from "../../hooks/useSession";
import { DemoDialog } from "../demo/DemoDialog";
import { buttonClass } from "../ui/buttons";
import { RoomSplit } from "./RoomDrawing";

const bigSecondary = `${buttonClass.secondary} py-3`;
const bigPrimary = `${buttonClass.primary} py-3 shadow-md`;

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
            <DemoDialog>
              <button type="button" className={bigSecondary}>
                <CirclePlay className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
                {t("home.hero.watchDemo")}
              </button>
            </DemoDialog>
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
              // Spec: shown to a visitor only (a signed-in user gets Go to Dashboard instead).
              <Link href="/auth" className={bigSecondary}>
                {t("landing.signUpForMore")}
              </Link>
            )}
          </div>
          <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">{t("landing.freeTrialNote")}</p>
        </div>
        <figure className="relative min-w-0">
          <div className="overflow-hidden rounded-2xl shadow-xl ring-1 ring-slate-900/5 dark:ring-white/10">
            <RoomSplit label={t("home.hero.illustrationAlt")} />
          </div>
          <figcaption className="pointer-events-none absolute inset-x-3 top-3 flex justify-between text-xs font-semibold uppercase tracking-wide">
            <span className="rounded bg-slate-950/70 px-2 py-0.5 text-white">{t("compare.before")}</span>
            <span className="rounded bg-slate-950/70 px-2 py-0.5 text-white">{t("compare.after")}</span>
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
