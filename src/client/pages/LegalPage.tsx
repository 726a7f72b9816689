/**
 * /terms and /privacy (public): the studio's own texts, written in /admin → Studio, shown as plain
 * paragraphs (never as HTML). A studio that has not written one says so.
 */
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass } from "../components/ui/buttons";
import { trpc } from "../trpc";

export default function LegalPage({ page }: { page: "terms" | "privacy" }) {
  const { t } = useTranslation();
  const legal = trpc.system.legalText.useQuery({ page });
  const title = t(`legal.${page}Title`);
  const paragraphs = (legal.data?.text ?? "").split(/\n\s*\n/).filter((paragraph) => paragraph.trim() !== "");
  return (
    <PageShell title={title}>
      {legal.isLoading ? (
        <Spinner label={t("common.loading")} />
      ) : paragraphs.length === 0 ? (
        <div className="space-y-4" data-testid="legal-missing">
          <p className="text-slate-600 dark:text-slate-300">{t("legal.missing")}</p>
          <Link href="/" className={buttonClass.secondary}>
            {t("common.backHome")}
          </Link>
        </div>
      ) : (
        <article className="max-w-prose space-y-4 leading-relaxed [overflow-wrap:anywhere]" data-testid="legal-text">
          {paragraphs.map((paragraph, index) => (
            <p key={index} className="whitespace-pre-line">
              {paragraph.trim()}
            </p>
          ))}
        </article>
      )}
    </PageShell>
  );
}
