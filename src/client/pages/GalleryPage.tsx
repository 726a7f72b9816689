/** /gallery (public): before/after pairs the studio made itself, and renders their owners published (decision 102). */
import { Images, Users, Wand2 } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { CompareSlider } from "../components/render/BeforeAfter";
import { PublicationCard } from "../components/community/PublicationCard";
import { EngineNote } from "../components/render/Callouts";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass } from "../components/ui/buttons";
import { friendlyError } from "../lib/friendlyError";
import type { GalleryPair } from "../lib/renderTypes";
import { trpc } from "../trpc";

function PairCard({ pair }: { pair: GalleryPair }) {
  const { t } = useTranslation();
  const style = t(`styles.${pair.style}`);
  const room = t(`roomTypes.${pair.roomType}`);
  return (
    <li className={`${cardClass} overflow-hidden p-2`} data-testid="gallery-pair">
      <CompareSlider before={pair.before} after={pair.after} subject={`${style} · ${room}`} compact />
      <div className="px-1.5 pb-1 pt-2.5">
        <p className="text-sm font-semibold">{style}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">{room}</p>
      </div>
    </li>
  );
}

function Section({
  id,
  icon,
  title,
  intro,
  pairs,
  empty,
  children,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  intro: string;
  /** The section's pairs; or, with children, what the children show (empty when none). */
  pairs?: GalleryPair[];
  empty: string;
  children?: ReactNode;
}) {
  return (
    <section className="space-y-4" aria-labelledby={id}>
      <div>
        <h2 id={id} className="flex items-center gap-2 text-xl font-bold">
          {icon}
          {title}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{intro}</p>
      </div>
      {children ? (
        children
      ) : !pairs || pairs.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:border-slate-700 dark:text-slate-400">
          {empty}
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {pairs.map((pair) => (
            <PairCard key={pair.id} pair={pair} />
          ))}
        </ul>
      )}
    </section>
  );
}

export default function GalleryPage() {
  const { t } = useTranslation();
  const gallery = trpc.render.gallery.useQuery();
  const published = trpc.community.gallery.useQuery();
  const allowance = trpc.render.allowance.useQuery();
  return (
    <PageShell
      wide
      title={t("pages.gallery.title")}
      intro={t("gallery.intro")}
      actions={
        <Link href="/upload" className={buttonClass.primary}>
          <Wand2 className="size-4" aria-hidden="true" />
          {t("gallery.tryIt")}
        </Link>
      }
    >
      <p className="text-sm text-slate-500 dark:text-slate-400">{t("gallery.sliderHint")}</p>
      {gallery.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {gallery.error ? (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {friendlyError(gallery.error, t)}
        </p>
      ) : null}
      {gallery.data ? (
        <>
          <Section
            id="examples-heading"
            icon={<Images className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
            title={t("gallery.examples")}
            intro={t("gallery.examplesIntro")}
            pairs={gallery.data.examples}
            empty={t("gallery.examplesEmpty")}
          />
          {allowance.data ? <EngineNote engine={allowance.data.engine} /> : null}
          <Section
            id="shared-heading"
            icon={<Users className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
            title={t("gallery.shared")}
            intro={t("gallery.sharedIntro")}
            empty={t("gallery.sharedEmpty")}
          >
            {published.data?.length ? (
              <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {published.data.map((publication) => (
                  <PublicationCard key={publication.id} publication={publication} />
                ))}
              </ul>
            ) : null}
          </Section>
        </>
      ) : null}
    </PageShell>
  );
}
