/**
 * What the demo shows at each of its four steps (spec section 2, Demo dialog). With an AI engine:
 * the drawn room, before and restyled. With the Preview engine: the app's own example pair (a room
 * it drew, graded by the Preview engine), so the demo shows what this studio really does.
 */
import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";

import type { GalleryPair } from "../../lib/renderTypes";
import { RoomAfter, RoomBefore } from "../landing/RoomDrawing";
import { StyleSwatch } from "../render/StyleSwatch";
import { DEMO_STYLES, DRAWN_STYLE } from "./demoExample";
import { currentStudio } from "../../lib/studio";

export { demoExample } from "./demoExample";

export const DEMO_STEPS = [
  { key: "upload", title: "demo.steps.upload", body: "demo.steps.uploadBody" },
  { key: "style", title: "demo.steps.style", body: "demo.steps.styleBody" },
  { key: "magic", title: "demo.steps.magic", body: "demo.steps.magicBody" },
  { key: "results", title: "demo.steps.results", body: "demo.steps.resultsBody" },
] as const;

const badgeClass = "absolute left-3 top-3 rounded-md px-2.5 py-1 text-xs font-bold tracking-wide text-white shadow";

/** What the stage pictures: the drawn room (AI engine), or the app's example, still on its way (null) or there. */
export type DemoPictures = { kind: "drawn" } | { kind: "example"; pair: GalleryPair | null };

export function DemoStage({ step, pictures, textKey }: { step: number; pictures: DemoPictures; textKey: (key: string) => string }) {
  const { t } = useTranslation();
  const example = pictures.kind === "example" ? pictures.pair : null;
  const chosen = example ? example.style : DRAWN_STYLE;
  const swatches = DEMO_STYLES.includes(chosen) ? DEMO_STYLES : [...DEMO_STYLES.slice(0, 2), chosen];

  const before = (className: string, label?: string) =>
    pictures.kind === "drawn" ? (
      <RoomBefore label={label} className={className} />
    ) : example ? (
      <img src={example.before} alt={label ?? ""} className={`${className} object-contain`} data-testid="demo-example-before" />
    ) : (
      <Pending />
    );

  return (
    <div
      className={`relative w-full overflow-hidden rounded-xl bg-slate-100 ring-1 ring-slate-900/5 dark:bg-slate-800 dark:ring-white/10 ${pictures.kind === "drawn" ? "aspect-[3/2] lg:aspect-video" : "aspect-[3/2]"}`}
      data-testid="demo-stage"
      data-step={step}
      data-pictures={pictures.kind}
    >
      {step === 0 ? (
        <>
          {before("size-full", pictures.kind === "drawn" ? t("demo.beforeAlt") : t("demo.preview.beforeAlt"))}
          <span className={`${badgeClass} bg-slate-900/80`} data-testid="demo-badge">
            {t("demo.badgeBefore")}
          </span>
        </>
      ) : null}

      {step === 1 ? (
        <div className="flex size-full items-center justify-center bg-gradient-to-br from-brand-50 to-white p-3 sm:p-6 dark:from-slate-800 dark:to-slate-900">
          <ul className="grid w-full max-w-lg grid-cols-3 gap-2 sm:gap-4">
            {swatches.map((style) => {
              const selected = style === chosen;
              return (
                <li
                  key={style}
                  className={`relative overflow-hidden rounded-lg bg-white shadow-sm ring-2 dark:bg-slate-900 ${selected ? "ring-brand-600 dark:ring-brand-500" : "ring-transparent"}`}
                  data-testid="demo-swatch"
                >
                  <StyleSwatch style={style} />
                  <p className="px-1 py-1.5 text-center text-[11px] font-semibold leading-tight break-words sm:text-sm">
                    {t(`styles.${style}`)}
                  </p>
                  {selected ? (
                    <span className="absolute right-1 top-1 inline-flex items-center gap-0.5 rounded-full bg-brand-600 px-1.5 py-0.5 text-[10px] font-semibold text-white sm:text-xs">
                      <Check className="size-3" aria-hidden="true" />
                      <span className="sr-only sm:not-sr-only">{t("demo.selected")}</span>
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}

      {step === 2 ? (
        <div className="relative size-full">
          {before("size-full scale-110 blur-sm")}
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-white/70 p-4 text-center dark:bg-slate-950/70">
            <span
              className="size-12 animate-spin rounded-full border-4 border-brand-600 border-t-transparent motion-reduce:animate-[spin_3s_linear_infinite]"
              role="presentation"
              data-testid="demo-spinner"
            />
            <p className="text-lg font-semibold">{t(textKey("demo.steps.magic"))}</p>
            <p className="max-w-sm text-sm text-slate-700 dark:text-slate-200">
              {t(textKey("demo.steps.magicBody"), { product: currentStudio().name })}
            </p>
          </div>
        </div>
      ) : null}

      {step === 3 ? (
        <>
          {pictures.kind === "drawn" ? (
            <RoomAfter label={t("demo.afterAlt")} className="size-full" />
          ) : example ? (
            <img
              src={example.after}
              alt={t("demo.preview.afterAlt", { style: t(`styles.${example.style}`) })}
              className="size-full object-contain"
              data-testid="demo-example-after"
            />
          ) : (
            <Pending />
          )}
          <span className={`${badgeClass} bg-emerald-700`} data-testid="demo-badge">
            {t(textKey("demo.badgeAfter"))}
          </span>
        </>
      ) : null}
    </div>
  );
}

/** The example's place while it is on its way. */
function Pending() {
  const { t } = useTranslation();
  return (
    <div
      className="size-full animate-pulse bg-slate-200 motion-reduce:animate-none dark:bg-slate-700"
      role="img"
      aria-label={t("demo.preview.loading")}
    />
  );
}
