/**
 * /p/<handle> (public; decision 105): a designer's or a studio's portfolio page: the studio it
 * presents, the name, introduction, links and contact its owner chose, and the work they published
 * under their name (only published, unhidden pictures, as on every public page).
 */
import { ExternalLink, Mail, Phone, Wand2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { PublicationCard } from "../components/community/PublicationCard";
import { ErrorText } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, linkClass } from "../components/ui/buttons";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

const isNotFound = (error: unknown) => (error as { data?: { code?: string } } | null)?.data?.code === "NOT_FOUND";

export default function PortfolioPage() {
  const { t } = useTranslation();
  const { handle = "" } = useParams<{ handle: string }>();
  const page = trpc.community.portfolio.useQuery({ handle }, { retry: false });

  if (page.isLoading) return <Spinner label={t("common.loading")} />;
  if (isNotFound(page.error)) {
    return (
      <section
        className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 px-6 text-center"
        data-testid="portfolio-gone"
      >
        <p className="text-7xl font-black text-brand-600" aria-hidden="true">
          {t("notFound.code")}
        </p>
        <h1 className="text-2xl font-semibold">{t("portfolioPage.notFound")}</h1>
        <Link href="/" className={buttonClass.primary}>
          {t("notFound.returnHome")}
        </Link>
      </section>
    );
  }
  if (page.error || !page.data) {
    return (
      <div className="mx-auto max-w-4xl px-4 py-10">
        <ErrorText message={friendlyError(page.error, t)} />
      </div>
    );
  }
  const portfolio = page.data;
  const hasContact = portfolio.contactEmail !== "" || portfolio.contactPhone !== "";
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-8 sm:px-6 sm:py-10" data-testid="portfolio-page">
      <header className="grid gap-6 lg:grid-cols-[1fr_minmax(0,20rem)]">
        <div className="min-w-0 space-y-2">
          {portfolio.studio ? (
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-100" data-testid="portfolio-studio">
              {portfolio.studio.name}
            </p>
          ) : null}
          <h1 className="text-3xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-4xl">{portfolio.displayName}</h1>
          {portfolio.headline ? (
            <p className="max-w-2xl whitespace-pre-line text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300">
              {portfolio.headline}
            </p>
          ) : null}
        </div>
        {hasContact || portfolio.links.length > 0 ? (
          <aside className={`${cardClass} space-y-3 p-4 text-sm`} aria-label={t("portfolioPage.contact")}>
            {hasContact ? (
              <div className="space-y-1.5">
                <h2 className="font-semibold">{t("portfolioPage.contact")}</h2>
                {portfolio.contactEmail ? (
                  <p className="flex items-center gap-2">
                    <Mail className="size-4 shrink-0" aria-hidden="true" />
                    <span className="sr-only">{t("portfolioPage.email")}</span>
                    <a href={`mailto:${portfolio.contactEmail}`} className={`${linkClass} [overflow-wrap:anywhere]`}>
                      {portfolio.contactEmail}
                    </a>
                  </p>
                ) : null}
                {portfolio.contactPhone ? (
                  <p className="flex items-center gap-2">
                    <Phone className="size-4 shrink-0" aria-hidden="true" />
                    <span className="sr-only">{t("portfolioPage.phone")}</span>
                    <a href={`tel:${portfolio.contactPhone.replace(/[^+0-9]/g, "")}`} className={linkClass}>
                      {portfolio.contactPhone}
                    </a>
                  </p>
                ) : null}
              </div>
            ) : null}
            {portfolio.links.length > 0 ? (
              <div className="space-y-1.5">
                <h2 className="font-semibold">{t("portfolioPage.links")}</h2>
                <ul className="space-y-1" data-testid="portfolio-links">
                  {portfolio.links.map((link) => (
                    <li key={`${link.label}${link.url}`} className="flex items-center gap-2">
                      <ExternalLink className="size-4 shrink-0" aria-hidden="true" />
                      {/* Addresses visitors did not choose: no referrer, no ranking credit. */}
                      <a
                        href={link.url}
                        className={`${linkClass} [overflow-wrap:anywhere]`}
                        target="_blank"
                        rel="noopener noreferrer nofollow ugc"
                      >
                        {link.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </aside>
        ) : null}
      </header>
      <section aria-labelledby="portfolio-work" className="space-y-4">
        <h2 id="portfolio-work" className="text-xl font-bold">
          {t("portfolioPage.work")}
        </h2>
        {portfolio.publications.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:border-slate-700 dark:text-slate-400">
            {t("portfolioPage.empty")}
          </p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="portfolio-work">
            {portfolio.publications.map((publication) => (
              <PublicationCard key={publication.id} publication={publication} />
            ))}
          </ul>
        )}
      </section>
      <p>
        <Link href="/upload" className={buttonClass.primary}>
          <Wand2 className="size-4" aria-hidden="true" />
          {t("portfolioPage.tryIt")}
        </Link>
      </p>
    </div>
  );
}
