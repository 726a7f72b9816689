import { Construction } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";

export type PlannedPageKey =
  | "upload" | "batchUpload" | "styleSelect" | "render" | "pricing" | "features" | "gallery"
  | "aiLab" | "test" | "performance" | "guide" | "userGuide" | "dashboard" | "enhancedDashboard"
  | "socialHub" | "admin" | "teams" | "profile" | "community" | "marketplace"
  | "developers" | "modificationStudio";

/** A route whose page has not been built yet: says what the area will be, and that it is not open yet. */
export default function PlannedPage({ page }: { page: PlannedPageKey }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-2xl flex-col items-center justify-center gap-4 px-6 py-16 text-center">
      <span className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-800 dark:bg-amber-900/40 dark:text-amber-200">
        <Construction className="size-4" aria-hidden="true" />
        {t("common.notOpenYet")}
      </span>
      <h1 className="text-3xl font-bold tracking-tight">{t(`pages.${page}.title`)}</h1>
      <p className="text-lg text-slate-600 dark:text-slate-300">{t(`pages.${page}.description`)}</p>
      <p className="text-sm text-slate-500 dark:text-slate-400">{t("common.notOpenYetBody")}</p>
      <Link href="/" className="mt-2 rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800">
        {t("common.backHome")}
      </Link>
    </section>
  );
}
