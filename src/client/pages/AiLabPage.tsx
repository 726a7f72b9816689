/**
 * /ai-lab (public): the engine this server renders with, what "AI" means here said honestly,
 * the engines the studio can use, live figures (system.performance) and examples the studio made.
 */
import { Activity, Clock, Cpu, Gauge, ListOrdered, MessageSquareText, Ruler, Send, Shuffle, Palette } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { AiBadge, FigureCard, SectionHeading, engineName } from "../components/info/common";
import { EngineCards } from "../components/info/Engines";
import { CompareSlider } from "../components/render/BeforeAfter";
import { PageShell } from "../components/render/PageShell";
import { buttonClass, cardClass } from "../components/ui/buttons";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

const HONEST: { id: "prompt" | "vary" | "measure" | "preview" | "data"; icon: ReactNode }[] = [
  { id: "prompt", icon: <MessageSquareText /> },
  { id: "vary", icon: <Shuffle /> },
  { id: "measure", icon: <Ruler /> },
  { id: "preview", icon: <Palette /> },
  { id: "data", icon: <Send /> },
];

export default function AiLabPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const performance = trpc.system.performance.useQuery(undefined, { staleTime: 0, refetchInterval: 30_000 });
  const gallery = trpc.render.gallery.useQuery(undefined, { staleTime: 5 * 60_000 });
  const data = performance.data;
  const engine = data?.engine;
  const number = new Intl.NumberFormat(language);
  const seconds = (ms: number) =>
    new Intl.NumberFormat(language, {
      style: "unit",
      unit: "second",
      unitDisplay: "short",
      maximumFractionDigits: ms < 10_000 ? 1 : 0,
    }).format(ms / 1000);
  const examples = gallery.data?.examples.slice(0, 3) ?? [];

  return (
    <PageShell wide title={t("pages.aiLab.title")} intro={t("infoPages.aiLab.intro")}>
      <section
        className={`${cardClass} flex min-h-[8rem] flex-col gap-4 p-5 sm:flex-row sm:items-start sm:p-6`}
        aria-labelledby="ai-lab-current"
        data-testid="ai-lab-engine"
      >
        <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white" aria-hidden="true">
          <Cpu className="size-6" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="ai-lab-current" className="text-sm font-semibold uppercase tracking-wide text-brand-600 dark:text-brand-100">
            {t("infoPages.aiLab.currentTitle")}
          </h2>
          {engine ? (
            <>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-2xl font-bold">
                <span data-testid="ai-lab-engine-name">{engineName(engine, t)}</span>
                <AiBadge isAi={engine.isAi} />
              </p>
              <p className="mt-2 text-slate-600 dark:text-slate-300">
                {engine.isAi ? t("infoPages.aiLab.currentAi", { name: engine.label }) : t("infoPages.aiLab.currentPreview")}
              </p>
            </>
          ) : performance.error ? (
            <p role="alert" className="mt-2 text-slate-600 dark:text-slate-300">
              {t("infoPages.common.loadFailed", { message: friendlyError(performance.error, t) })}
            </p>
          ) : (
            <div className="mt-2 space-y-2" aria-hidden="true">
              <div className="h-7 w-1/2 animate-pulse rounded bg-slate-200 motion-reduce:animate-none dark:bg-slate-800" />
              <div className="h-4 w-full animate-pulse rounded bg-slate-100 motion-reduce:animate-none dark:bg-slate-800/70" />
            </div>
          )}
        </div>
      </section>

      <section className="space-y-4" aria-labelledby="ai-lab-live">
        <SectionHeading id="ai-lab-live" title={t("infoPages.aiLab.liveTitle")} icon={<Gauge />} />
        <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-3">
          <FigureCard
            testId="ai-lab-queue"
            icon={<ListOrdered />}
            label={t("infoPages.aiLab.queue")}
            value={data ? number.format(data.queueLength) : "–"}
          />
          <FigureCard
            testId="ai-lab-renders"
            icon={<Activity />}
            label={t("infoPages.aiLab.renders", { count: data?.days ?? 30 })}
            value={data ? number.format(data.renders) : "–"}
          />
          <FigureCard
            testId="ai-lab-median"
            icon={<Clock />}
            label={t("infoPages.aiLab.medianTime")}
            value={
              data ? (
                data.renderTimeP50Ms === null ? (
                  <span className="text-base font-medium text-slate-500 dark:text-slate-400">{t("infoPages.aiLab.notEnoughData")}</span>
                ) : (
                  seconds(data.renderTimeP50Ms)
                )
              ) : (
                "–"
              )
            }
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Link href="/test" className={buttonClass.secondary}>
            {t("infoPages.common.seeStatus")}
          </Link>
          <Link href="/performance" className={buttonClass.secondary}>
            {t("infoPages.common.seePerformance")}
          </Link>
        </div>
      </section>

      <section className={`${cardClass} space-y-4 p-5 sm:p-6`} aria-labelledby="ai-lab-honest">
        <SectionHeading id="ai-lab-honest" title={t("infoPages.aiLab.honestTitle")} />
        <ul className="grid gap-4 md:grid-cols-2">
          {HONEST.map((point) => (
            <li key={point.id} className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-300">
              <span
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-700/25 dark:text-brand-100 [&>svg]:size-4"
                aria-hidden="true"
              >
                {point.icon}
              </span>
              <span className="pt-1">{t(`infoPages.aiLab.honest.${point.id}`)}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="space-y-4" aria-labelledby="ai-lab-engines">
        <SectionHeading id="ai-lab-engines" title={t("infoPages.aiLab.enginesTitle")} intro={t("infoPages.features.enginesIntro")} />
        <EngineCards activeId={engine?.id} />
      </section>

      <section className="space-y-4" aria-labelledby="ai-lab-examples">
        <SectionHeading id="ai-lab-examples" title={t("infoPages.aiLab.examplesTitle")} intro={t("infoPages.aiLab.examplesIntro")} />
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {(examples.length ? examples : gallery.isLoading ? [null, null, null] : []).map((pair, index) => (
            <li key={pair?.id ?? index} className={`${cardClass} overflow-hidden p-2`}>
              {pair ? (
                <>
                  <CompareSlider
                    before={pair.before}
                    after={pair.after}
                    subject={`${t(`styles.${pair.style}`)} · ${t(`roomTypes.${pair.roomType}`)}`}
                    width={960}
                    height={640}
                    compact
                  />
                  <p className="px-1.5 pb-1 pt-2.5 text-sm font-semibold">
                    {t(`styles.${pair.style}`)}{" "}
                    <span className="font-normal text-slate-500 dark:text-slate-400">· {t(`roomTypes.${pair.roomType}`)}</span>
                  </p>
                </>
              ) : (
                <div
                  className="aspect-[3/2] animate-pulse rounded-lg bg-slate-200 motion-reduce:animate-none dark:bg-slate-800"
                  aria-hidden="true"
                />
              )}
            </li>
          ))}
        </ul>
      </section>
    </PageShell>
  );
}
