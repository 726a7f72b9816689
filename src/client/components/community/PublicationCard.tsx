/**
 * One published render (decision 102), as /gallery and /community show it: the before/after slider
 * (or the after picture alone), its title, style and room, and the name its publisher chose to show
 * (a link to their portfolio page when they have one).
 * /community adds its actions below (children).
 */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { portfolioPath } from "../../../shared/portfolio";
import type { PublicationView } from "../../../shared/community";
import { CompareSlider } from "../render/BeforeAfter";
import { Picture } from "../render/Picture";
import { cardClass, linkClass } from "../ui/buttons";

/** A publication's style as people read it: a custom style's own name, or the built-in style's. */
export function useStyleLabel() {
  const { t } = useTranslation();
  return (publication: Pick<PublicationView, "style" | "styleName">) => publication.styleName ?? t(`styles.${publication.style}`);
}

export function PublicationCard({ publication, children }: { publication: PublicationView; children?: ReactNode }) {
  const { t } = useTranslation();
  const styleLabel = useStyleLabel();
  const style = styleLabel(publication);
  const room = t(`roomTypes.${publication.roomType}`);
  const subject = `${style} · ${room}`;
  const byline = publication.author
    ? t(publication.author.kind === "team" ? "community.byStudio" : "community.byDesigner", {
        name: publication.author.name || t("community.unnamedDesigner"),
      })
    : "";
  return (
    <li className={`${cardClass} flex flex-col overflow-hidden p-2`} data-testid="publication">
      {publication.before ? (
        <CompareSlider before={publication.before} after={publication.after} subject={subject} compact />
      ) : (
        <Picture
          src={publication.after}
          alt={t("community.afterAlt", { subject })}
          className="aspect-[4/3] w-full rounded-lg object-cover"
          loading="lazy"
        />
      )}
      <div className="flex flex-1 flex-col gap-1 px-1.5 pb-1 pt-2.5">
        <p className="text-sm font-semibold [overflow-wrap:anywhere]">{publication.title || style}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {style} · {room}
        </p>
        {publication.author ? (
          <p className="text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300" data-testid="publication-author">
            {publication.author.portfolio ? (
              // Their portfolio page (decision 105), when they have a public one.
              <Link href={portfolioPath(publication.author.portfolio)} className={linkClass}>
                {byline}
              </Link>
            ) : (
              byline
            )}
          </p>
        ) : null}
        {children}
      </div>
    </li>
  );
}
