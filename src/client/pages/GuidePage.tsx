/**
 * /guide ("How It Works") and /user-guide: the render flow step by step, each step with a
 * picture drawn here or made by the studio itself (an example pair from render.gallery).
 */
import { Camera, Eraser, Lightbulb, Map as MapIcon, Sun } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { KeepDrawing, ProgressDrawing, UploadDrawing } from "../components/info/Drawings";
import { SectionHeading, TryItBand } from "../components/info/common";
import { CompareSlider } from "../components/render/BeforeAfter";
import { PageShell } from "../components/render/PageShell";
import { StyleSwatch } from "../components/render/StyleSwatch";
import { cardClass, linkClass } from "../components/ui/buttons";
import { trpc } from "../trpc";

type StepId = "upload" | "style" | "progress" | "compare" | "keep";

function StylesDrawing() {
  const { t } = useTranslation();
  const styles = ["modern", "scandinavian", "industrial"] as const;
  return (
    <div className="grid grid-cols-3 gap-2 rounded-2xl bg-brand-100 p-3 sm:gap-3 sm:p-4 dark:bg-brand-700/40">
      {styles.map((style, index) => (
        <div
          key={style}
          className={`overflow-hidden rounded-lg bg-white shadow-sm dark:bg-slate-800 ${index === 1 ? "ring-2 ring-brand-600 dark:ring-brand-500" : ""}`}
        >
          <StyleSwatch style={style} />
          <p className="break-words px-1.5 py-1.5 text-[0.7rem] font-semibold leading-tight sm:px-2 sm:text-xs">{t(`styles.${style}`)}</p>
        </div>
      ))}
    </div>
  );
}

function ExamplePair() {
  const { t } = useTranslation();
  const gallery = trpc.render.gallery.useQuery(undefined, { staleTime: 5 * 60_000 });
  const pair = gallery.data?.examples[0];
  return (
    <figure>
      {pair ? (
        <CompareSlider
          before={pair.before}
          after={pair.after}
          subject={`${t(`styles.${pair.style}`)} · ${t(`roomTypes.${pair.roomType}`)}`}
          width={960}
          height={640}
        />
      ) : (
        // Holds the picture's place so nothing moves when it arrives.
        <div
          className="aspect-[3/2] w-full animate-pulse rounded-xl bg-slate-200 motion-reduce:animate-none dark:bg-slate-800"
          aria-hidden="true"
        />
      )}
      <figcaption className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t("infoPages.guide.exampleLabel")}</figcaption>
    </figure>
  );
}

const STEPS: { id: StepId; picture: () => ReactNode; link?: { href: string; key: string } }[] = [
  { id: "upload", picture: () => <UploadDrawing />, link: { href: "/batch-upload", key: "infoPages.batchLink" } },
  { id: "style", picture: () => <StylesDrawing /> },
  { id: "progress", picture: () => <ProgressDrawing /> },
  { id: "compare", picture: () => <ExamplePair /> },
  { id: "keep", picture: () => <KeepDrawing />, link: { href: "/gallery", key: "infoPages.common.seeGallery" } },
];

const TIPS: { id: "light" | "straight" | "clear" | "plan"; icon: ReactNode }[] = [
  { id: "light", icon: <Sun /> },
  { id: "straight", icon: <Camera /> },
  { id: "clear", icon: <Eraser /> },
  { id: "plan", icon: <MapIcon /> },
];

export default function GuidePage({ variant = "guide" }: { variant?: "guide" | "userGuide" }) {
  const { t } = useTranslation();
  return (
    <PageShell wide title={t(`pages.${variant}.title`)} intro={t("infoPages.guide.intro")}>
      <ol className="space-y-6" data-testid="guide-steps">
        {STEPS.map((step, index) => (
          <li
            key={step.id}
            className={`${cardClass} grid items-center gap-5 p-5 sm:p-6 md:grid-cols-2 md:gap-8`}
            data-testid={`guide-step-${step.id}`}
          >
            <div className={`min-w-0 ${index % 2 === 1 ? "md:order-2" : ""}`}>
              <p className="text-sm font-semibold uppercase tracking-wide text-brand-600 dark:text-brand-100">
                {t("infoPages.guide.step", { number: index + 1 })}
              </p>
              <h2 className="mt-1 text-xl font-bold sm:text-2xl">{t(`infoPages.guide.steps.${step.id}.title`)}</h2>
              <p className="mt-2 text-slate-600 dark:text-slate-300">{t(`infoPages.guide.steps.${step.id}.body`)}</p>
              <p className="mt-3 flex items-start gap-2 text-sm text-slate-600 dark:text-slate-400">
                <Lightbulb className="mt-0.5 size-4 shrink-0 text-accent-500" aria-hidden="true" />
                <span>
                  {t(`infoPages.guide.steps.${step.id}.tip`)}
                  {step.link ? (
                    <>
                      {" "}
                      <Link href={step.link.href} className={linkClass}>
                        {t(step.link.key)}
                      </Link>
                    </>
                  ) : null}
                </span>
              </p>
            </div>
            <div
              className={`mx-auto w-full min-w-0 ${step.id === "compare" || step.id === "style" ? "max-w-md" : "max-w-sm"} ${index % 2 === 1 ? "md:order-1" : ""}`}
            >
              {step.picture()}
            </div>
          </li>
        ))}
      </ol>

      <section className={`${cardClass} space-y-4 p-5 sm:p-6`} aria-labelledby="guide-tips">
        <SectionHeading id="guide-tips" title={t("infoPages.guide.tipsTitle")} />
        <ul className="grid gap-3 sm:grid-cols-2">
          {TIPS.map((tip) => (
            <li key={tip.id} className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-300">
              <span
                className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-700/25 dark:text-brand-100 [&>svg]:size-4"
                aria-hidden="true"
              >
                {tip.icon}
              </span>
              <span className="pt-1.5">{t(`infoPages.guide.tips.${tip.id}`)}</span>
            </li>
          ))}
        </ul>
      </section>

      <TryItBand
        title={t("infoPages.guide.ctaTitle")}
        body={t("infoPages.guide.ctaBody")}
        secondary={{ href: "/features", label: t("infoPages.common.seeFeatures") }}
      />
    </PageShell>
  );
}
