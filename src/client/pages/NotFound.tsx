import { useTranslation } from "react-i18next";
import { Link } from "wouter";

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-6 text-center">
      <p className="text-7xl font-black text-brand-600" aria-hidden="true">
        {t("notFound.code")}
      </p>
      <h1 className="text-2xl font-semibold">{t("notFound.title")}</h1>
      <Link href="/" className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
        {t("notFound.returnHome")}
      </Link>
    </section>
  );
}
