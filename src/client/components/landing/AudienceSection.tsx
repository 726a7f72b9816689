/** Who it is for (spec section 1): homeowners, interior designers and real estate agents. */
import { ArrowRight, Building2, House, Palette } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useEngine } from "../../hooks/useEngine";
import { buttonClass, cardClass } from "../ui/buttons";
import { SectionHeading } from "./SectionHeading";

const AUDIENCES = [
  { icon: House, title: "home.audience.homeowners", body: "home.audience.homeownersBody" },
  { icon: Palette, title: "home.audience.designers", body: "home.audience.designersBody" },
  { icon: Building2, title: "home.audience.agents", body: "home.audience.agentsBody" },
] as const;

export function AudienceSection() {
  const { t } = useTranslation();
  const { textKey } = useEngine();
  return (
    <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6" aria-labelledby="audience-title">
      <SectionHeading id="audience-title" eyebrow={t("home.audience.eyebrow")} title={t("home.audience.title")} />
      <ul className="mt-10 grid gap-4 md:grid-cols-3">
        {AUDIENCES.map(({ icon: Icon, title, body }) => (
          <li key={title} className={`${cardClass} p-6`}>
            <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600 text-white">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <h3 className="mt-4 text-lg font-semibold">{t(title)}</h3>
            <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">{t(textKey(body))}</p>
          </li>
        ))}
      </ul>
      <div className="mt-8 flex justify-center">
        <Link href="/pricing" className={buttonClass.secondary}>
          {t("home.audience.viewPricing")}
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
    </section>
  );
}
