/**
 * /s/<id> (public, decision 106): a published render's share link. The before/after slider (or the
 * after picture alone), its title, style and room, the name its publisher chose to show, and an
 * invitation to try the studio. The server put the link's Open Graph tags in the page; an unpublished
 * or hidden picture is the app's not-found page (the server answered 404 too).
 */
import { Wand2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "wouter";
import { publicationIdSchema } from "../../shared/community";
import { useStyleLabel } from "../components/community/PublicationCard";
import { BeforeAfter } from "../components/render/BeforeAfter";
import { PageShell } from "../components/render/PageShell";
import { Picture } from "../components/render/Picture";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass } from "../components/ui/buttons";
import { friendlyError } from "../lib/friendlyError";
import { useStudio } from "../lib/studio";
import { trpc } from "../trpc";
import NotFound from "./NotFound";

const isNotFound = (error: unknown) => (error as { data?: { code?: string } } | null)?.data?.code === "NOT_FOUND";

export default function SharePage() {
  const { t } = useTranslation();
  const { name: studio } = useStudio();
  const styleLabel = useStyleLabel();
  const { id = "" } = useParams<{ id: string }>();
  const valid = publicationIdSchema.safeParse(id).success;
  const shared = trpc.community.get.useQuery({ id }, { enabled: valid, retry: false });

  if (!valid || isNotFound(shared.error)) return <NotFound />;
  if (shared.error) {
    return (
      <p role="alert" className="mx-auto max-w-4xl px-6 py-10 text-red-700 dark:text-red-300">
        {friendlyError(shared.error, t)}
      </p>
    );
  }
  const publication = shared.data;
  if (!publication) return <Spinner label={t("common.loading")} />;

  const style = styleLabel(publication);
  const room = t(`roomTypes.${publication.roomType}`);
  const subject = `${style} · ${room}`;
  return (
    <PageShell title={publication.title || t("share.untitled")} intro={subject}>
      <div className={`${cardClass} p-2`} data-testid="share-picture">
        {publication.before ? (
          <BeforeAfter before={publication.before} after={publication.after} subject={subject} />
        ) : (
          <Picture
            src={publication.after}
            alt={t("community.afterAlt", { subject })}
            className="h-auto max-h-[70vh] w-full rounded-lg object-contain"
          />
        )}
      </div>
      {publication.author ? (
        <p className="text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300" data-testid="share-author">
          {t(publication.author.kind === "team" ? "community.byStudio" : "community.byDesigner", {
            name: publication.author.name || t("community.unnamedDesigner"),
          })}
        </p>
      ) : null}
      <section
        className="flex flex-wrap items-center justify-between gap-4 rounded-xl bg-brand-50 px-5 py-4 dark:bg-slate-800/70"
        aria-labelledby="share-cta"
      >
        <div className="min-w-0">
          <h2 id="share-cta" className="font-semibold">
            {t("share.ctaTitle", { studio })}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("share.ctaBody")}</p>
        </div>
        <Link href="/upload" className={buttonClass.primary}>
          <Wand2 className="size-4" aria-hidden="true" />
          {t("share.cta")}
        </Link>
      </section>
    </PageShell>
  );
}
