import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PRODUCT_NAME } from "../../shared/constants";
import { BrandMark } from "./Brand";

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div className="flex max-w-sm items-start gap-3">
          <BrandMark className="size-7 shrink-0" />
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("footer.tagline")}</p>
        </div>
        <div className="flex gap-4 text-sm">
          <Link href="/features" className="text-slate-700 hover:underline dark:text-slate-300">
            {t("nav.features")}
          </Link>
          <Link href="/pricing" className="text-slate-700 hover:underline dark:text-slate-300">
            {t("nav.pricing")}
          </Link>
        </div>
      </div>
      <p className="pb-6 text-center text-xs text-slate-500">
        © {year} {PRODUCT_NAME}. {t("footer.rightsReserved")}
      </p>
    </footer>
  );
}
