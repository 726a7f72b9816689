/**
 * /features (public): what the studio does today, and only that; the twelve styles drawn; the
 * render engines, with the one this server runs (useEngine).
 */
import {
  Activity,
  Cpu,
  Download,
  Files,
  FolderOpen,
  ImageUp,
  Languages,
  Layers,
  Palette,
  Server,
  Share2,
  ShieldCheck,
  Sparkles,
  SplitSquareHorizontal,
  StickyNote,
  Trash2,
} from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DESIGN_STYLES } from "../../shared/styles";
import { AiBadge, SectionHeading, TryItBand, engineName } from "../components/info/common";
import { EngineCards } from "../components/info/Engines";
import { PageShell } from "../components/render/PageShell";
import { StyleSwatch } from "../components/render/StyleSwatch";
import { cardClass } from "../components/ui/buttons";
import { useEngine } from "../hooks/useEngine";

type FeatureId =
  | "upload"
  | "batch"
  | "styles"
  | "multiStyle"
  | "note"
  | "progress"
  | "compare"
  | "downloads"
  | "projects"
  | "share"
  | "privacy"
  | "credits"
  | "languages"
  | "twoFactor"
  | "selfHost";

const GROUPS: { id: "render" | "organise" | "account"; features: [FeatureId, ReactNode][] }[] = [
  {
    id: "render",
    features: [
      ["upload", <ImageUp key="i" />],
      ["batch", <Files key="i" />],
      ["styles", <Palette key="i" />],
      ["multiStyle", <Layers key="i" />],
      ["note", <StickyNote key="i" />],
      ["progress", <Activity key="i" />],
      ["compare", <SplitSquareHorizontal key="i" />],
      ["downloads", <Download key="i" />],
    ],
  },
  {
    id: "organise",
    features: [
      ["projects", <FolderOpen key="i" />],
      ["share", <Share2 key="i" />],
      ["privacy", <Trash2 key="i" />],
      ["credits", <Sparkles key="i" />],
    ],
  },
  {
    id: "account",
    features: [
      ["languages", <Languages key="i" />],
      ["twoFactor", <ShieldCheck key="i" />],
      ["selfHost", <Server key="i" />],
    ],
  },
];

function FeatureCard({ id, icon }: { id: FeatureId; icon: ReactNode }) {
  const { t } = useTranslation();
  return (
    <li className={`${cardClass} flex gap-3 p-4 sm:p-5`} data-testid={`feature-${id}`}>
      <span
        className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700 dark:bg-brand-700/25 dark:text-brand-100 [&>svg]:size-5"
        aria-hidden="true"
      >
        {icon}
      </span>
      <div className="min-w-0">
        <h3 className="font-semibold">{t(`infoPages.features.items.${id}.title`)}</h3>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t(`infoPages.features.items.${id}.body`)}</p>
      </div>
    </li>
  );
}

export default function FeaturesPage() {
  const { t } = useTranslation();
  const { engine } = useEngine();

  return (
    <PageShell wide title={t("pages.features.title")} intro={t("infoPages.features.intro")}>
      <div
        className={`${cardClass} flex min-h-[7.5rem] gap-4 border-brand-100 p-5 dark:border-brand-700/40`}
        data-testid="features-engine"
        aria-live="polite"
      >
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white" aria-hidden="true">
          <Cpu className="size-5" />
        </span>
        {engine ? (
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 text-lg font-semibold">
              {t("infoPages.features.engineTitle", { name: engineName(engine, t) })}
              <AiBadge isAi={engine.isAi} />
            </p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {engine.isAi ? t("infoPages.features.engineAiBody", { name: engine.label }) : t("infoPages.features.enginePreviewBody")}
            </p>
          </div>
        ) : (
          <div className="flex-1 space-y-2 pt-1" aria-hidden="true">
            <div className="h-5 w-2/3 animate-pulse rounded bg-slate-200 motion-reduce:animate-none dark:bg-slate-800" />
            <div className="h-4 w-full animate-pulse rounded bg-slate-100 motion-reduce:animate-none dark:bg-slate-800/70" />
          </div>
        )}
      </div>

      {GROUPS.map((group) => (
        <section key={group.id} className="space-y-4" aria-labelledby={`features-${group.id}`}>
          <SectionHeading id={`features-${group.id}`} title={t(`infoPages.features.groups.${group.id}`)} />
          <ul className={`grid gap-3 sm:grid-cols-2 ${group.features.length === 3 ? "lg:grid-cols-3" : "lg:grid-cols-4"}`}>
            {group.features.map(([id, icon]) => (
              <FeatureCard key={id} id={id} icon={icon} />
            ))}
          </ul>
        </section>
      ))}

      <section className="space-y-4" aria-labelledby="features-styles">
        <SectionHeading id="features-styles" title={t("infoPages.features.stylesTitle")} intro={t("infoPages.features.stylesIntro")} />
        <ul className="grid grid-cols-2 gap-3 min-[480px]:grid-cols-3 md:grid-cols-4 lg:grid-cols-6" data-testid="features-styles-list">
          {DESIGN_STYLES.map((style) => (
            <li key={style} className={`${cardClass} overflow-hidden`}>
              <StyleSwatch style={style} />
              <p className="px-3 py-2 text-sm font-semibold">{t(`styles.${style}`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="space-y-4" aria-labelledby="features-engines">
        <SectionHeading id="features-engines" title={t("infoPages.features.enginesTitle")} intro={t("infoPages.features.enginesIntro")} />
        <EngineCards activeId={engine?.id} />
      </section>

      <TryItBand
        title={t("infoPages.features.ctaTitle")}
        body={t("infoPages.features.ctaBody")}
        secondary={{ href: "/guide", label: t("infoPages.common.readGuide") }}
      />
    </PageShell>
  );
}
