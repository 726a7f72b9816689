import { ArrowRight, Palette, SplitSquareHorizontal, Upload } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useSession } from "../hooks/useSession";

const STEPS = [
  { icon: Upload, title: "landing.step1Title", body: "landing.step1Body" },
  { icon: Palette, title: "landing.step2Title", body: "landing.step2Body" },
  { icon: SplitSquareHorizontal, title: "landing.step3Title", body: "landing.step3Body" },
] as const;

export default function Landing() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-b from-brand-50 to-white dark:from-slate-900 dark:to-slate-950">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24">
          <div>
            <span className="inline-block rounded-full bg-brand-100 px-3 py-1 text-sm font-medium text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
              {t("landing.badge")}
            </span>
            <h1 className="mt-4 text-4xl font-extrabold tracking-tight sm:text-5xl">{t("landing.title")}</h1>
            <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{t("landing.subtitle")}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link
                href="/upload"
                className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-5 py-3 font-semibold text-white shadow hover:bg-brand-700"
              >
                {t("landing.tryWithoutSignup")}
                <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
              {user ? null : (
                <Link
                  href="/auth"
                  className="inline-flex items-center rounded-md border border-slate-300 bg-white px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
                >
                  {t("landing.signUpForMore")}
                </Link>
              )}
            </div>
            <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">{t("landing.freeTrialNote")}</p>
          </div>
          <RoomIllustration />
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 className="text-center text-2xl font-bold">{t("landing.stepsTitle")}</h2>
        <ol className="mt-8 grid gap-6 sm:grid-cols-3">
          {STEPS.map(({ icon: Icon, title, body }, index) => (
            <li key={title} className="rounded-xl border border-slate-200 p-6 dark:border-slate-800">
              <div className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-full bg-brand-100 text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span className="text-sm font-semibold text-slate-500">{index + 1}</span>
              </div>
              <h3 className="mt-4 font-semibold">{t(title)}</h3>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t(body)}</p>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

/** A drawn room, before (left) and restyled (right): the product's own picture, nothing hot-linked. */
function RoomIllustration() {
  return (
    <svg viewBox="0 0 480 320" className="w-full rounded-2xl shadow-xl" role="img" aria-hidden="true">
      <defs>
        <clipPath id="left-half">
          <rect x="0" y="0" width="240" height="320" />
        </clipPath>
        <clipPath id="right-half">
          <rect x="240" y="0" width="240" height="320" />
        </clipPath>
      </defs>
      <g clipPath="url(#left-half)">
        <rect width="480" height="320" fill="#d6d3d1" />
        <rect y="230" width="480" height="90" fill="#a8a29e" />
        <rect x="60" y="60" width="110" height="90" fill="#e7e5e4" stroke="#78716c" strokeWidth="4" />
        <rect x="40" y="180" width="170" height="60" rx="6" fill="#78716c" />
        <rect x="250" y="190" width="70" height="50" fill="#57534e" />
      </g>
      <g clipPath="url(#right-half)">
        <rect width="480" height="320" fill="#eef2ff" />
        <rect y="230" width="480" height="90" fill="#d6b98c" />
        <rect x="310" y="60" width="110" height="90" fill="#bae6fd" stroke="#ffffff" strokeWidth="6" />
        <rect x="270" y="180" width="180" height="58" rx="14" fill="#4f46e5" />
        <rect x="280" y="168" width="50" height="30" rx="10" fill="#f59e0b" />
        <circle cx="440" cy="120" r="18" fill="#22c55e" />
        <rect x="436" y="136" width="8" height="60" fill="#15803d" />
        <rect x="290" y="250" width="140" height="10" rx="5" fill="#b45309" opacity="0.5" />
      </g>
      <rect x="238" y="0" width="4" height="320" fill="#ffffff" />
      <circle cx="240" cy="160" r="14" fill="#ffffff" stroke="#4f46e5" strokeWidth="3" />
    </svg>
  );
}
