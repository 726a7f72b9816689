/**
 * A named area whose behaviour is not built yet (spec section 2 names it, nothing more): a drawn
 * page that says what the area will be and that it is not open yet, and what works today
 * instead, with links. Never a fake feature.
 */
import { ArrowRight, Construction, MessagesSquare, Share2, Store } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { UnderConstruction } from "../components/info/Drawings";
import { cardClass } from "../components/ui/buttons";

export type PlannedPageKey = "socialHub" | "community" | "marketplace";

type LinkKey = "dashboard" | "upload" | "gallery" | "features" | "status" | "performance" | "guide" | "batch";

const LINK_TARGETS: Record<LinkKey, string> = {
  dashboard: "/dashboard",
  upload: "/upload",
  gallery: "/gallery",
  features: "/features",
  status: "/test",
  performance: "/performance",
  guide: "/guide",
  batch: "/batch-upload",
};

/** Each area's icon, and what already works today in its place. */
const AREAS: Record<PlannedPageKey, { icon: ReactNode; today: LinkKey[] }> = {
  socialHub: { icon: <Share2 />, today: ["gallery", "dashboard", "upload"] },
  community: { icon: <MessagesSquare />, today: ["gallery", "guide", "features"] },
  marketplace: { icon: <Store />, today: ["features", "upload", "gallery"] },
};

export default function PlannedPage({ page }: { page: PlannedPageKey }) {
  const { t } = useTranslation();
  const area = AREAS[page];
  const points = ["p1", "p2", "p3"] as const;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12" data-testid="planned-page" data-area={page}>
      <div className="grid items-center gap-8 md:grid-cols-[1fr_20rem] lg:grid-cols-[1fr_24rem]">
        <div className="min-w-0">
          <span
            className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-100"
            data-testid="not-open-yet"
          >
            <Construction className="size-4" aria-hidden="true" />
            {t("common.notOpenYet")}
          </span>
          <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">{t(`pages.${page}.title`)}</h1>
          <p className="mt-3 text-lg text-slate-600 dark:text-slate-300">{t(`pages.${page}.description`)}</p>
          <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t("common.notOpenYetBody")}</p>
        </div>
        <div className="order-first md:order-none">
          <UnderConstruction icon={area.icon} label={t("infoPages.planned.illustration")} />
        </div>
      </div>

      <div className="mt-10 grid gap-4 md:grid-cols-2">
        <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="planned-will-be">
          <h2 id="planned-will-be" className="text-lg font-semibold">
            {t("infoPages.planned.whatItWillBe")}
          </h2>
          <ul className="mt-3 space-y-2.5">
            {points.map((point) => (
              <li key={point} className="flex gap-3 text-sm text-slate-700 dark:text-slate-300">
                <span className="mt-1.5 size-2 shrink-0 rounded-full bg-amber-400" aria-hidden="true" />
                {t(`infoPages.planned.areas.${page}.${point}`)}
              </li>
            ))}
          </ul>
        </section>
        <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="planned-today">
          <h2 id="planned-today" className="text-lg font-semibold">
            {t("infoPages.planned.todayTitle")}
          </h2>
          <ul className="mt-3 space-y-1">
            {area.today.map((link) => (
              <li key={link}>
                <Link
                  href={LINK_TARGETS[link]}
                  className="group flex items-center justify-between gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-slate-800"
                >
                  {t(`infoPages.planned.links.${link}`)}
                  <ArrowRight className="size-4 shrink-0 transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
                </Link>
              </li>
            ))}
            <li>
              <Link
                href="/"
                className="flex items-center justify-between gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              >
                {t("common.backHome")}
              </Link>
            </li>
          </ul>
        </section>
      </div>
    </div>
  );
}
