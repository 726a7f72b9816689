/** The problem: studio renderings take 2-4 weeks and cost $500-5000 (spec section 1); ours, next to it. */
import { ArrowRight, Clock, Coins, Hourglass, Zap } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";

import { buttonClass } from "../ui/buttons";
import { SectionHeading } from "./SectionHeading";
import { currentStudio } from "../../lib/studio";

function Row({ icon, value, label }: { icon: ReactNode; value: string; label: string }) {
  return (
    <li className="flex items-start gap-3">
      <span className="mt-1 shrink-0">{icon}</span>
      <span>
        <span className="block text-2xl font-bold tracking-tight">{value}</span>
        <span className="block text-sm opacity-80">{label}</span>
      </span>
    </li>
  );
}

export function ProblemSection() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6" aria-labelledby="problem-title">
      <SectionHeading
        id="problem-title"
        eyebrow={t("home.problem.eyebrow")}
        title={t("home.problem.title")}
        body={t("home.problem.body")}
      />
      <div className="mt-10 grid gap-4 md:grid-cols-2">
        <div
          className="rounded-2xl border border-slate-200 bg-slate-50 p-6 text-slate-800 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200"
          data-testid="problem-studio"
        >
          <h3 className="flex items-center gap-2 font-semibold">
            <Hourglass className="size-5 text-slate-500" aria-hidden="true" />
            {t("home.problem.studio")}
          </h3>
          <ul className="mt-5 space-y-4">
            <Row
              icon={<Clock className="size-5 text-slate-500" aria-hidden="true" />}
              value={t("home.problem.studioTime")}
              label={t("home.problem.studioTimeLabel")}
            />
            <Row
              icon={<Coins className="size-5 text-slate-500" aria-hidden="true" />}
              value={t("home.problem.studioCost")}
              label={t("home.problem.studioCostLabel")}
            />
          </ul>
        </div>
        <div
          className="rounded-2xl border border-brand-100 bg-brand-50 p-6 text-slate-900 dark:border-brand-700/40 dark:bg-brand-700/20 dark:text-white"
          data-testid="problem-ours"
        >
          <h3 className="flex items-center gap-2 font-semibold">
            <Zap className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
            {t("home.problem.ours", { product: currentStudio().name })}
          </h3>
          <ul className="mt-5 space-y-4">
            <Row
              icon={<Clock className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
              value={t("home.problem.oursTime")}
              label={t("home.problem.oursTimeLabel")}
            />
            <Row
              icon={<Coins className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
              value={t("home.problem.oursCost")}
              label={t("home.problem.oursCostLabel", { credits: currentStudio().signUpCredits })}
            />
          </ul>
        </div>
      </div>
      <div className="mt-8 flex justify-center">
        <Link href="/upload" className={`${buttonClass.primary} px-5 py-3 text-base`}>
          {t("home.problem.tryItFreeNow")}
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
    </section>
  );
}
