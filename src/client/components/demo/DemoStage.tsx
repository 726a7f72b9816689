/** What the demo shows at each of its four steps (spec section 2, Demo dialog). */
import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PRODUCT_NAME } from "../../../shared/constants";
import type { DesignStyle } from "../../../shared/styles";
import { RoomAfter, RoomBefore } from "../landing/RoomDrawing";
import { StyleSwatch } from "../render/StyleSwatch";

export const DEMO_STEPS = [
  { key: "upload", title: "demo.steps.upload", body: "demo.steps.uploadBody" },
  { key: "style", title: "demo.steps.style", body: "demo.steps.styleBody" },
  { key: "magic", title: "demo.steps.magic", body: "demo.steps.magicBody" },
  { key: "results", title: "demo.steps.results", body: "demo.steps.resultsBody" },
] as const;

const DEMO_STYLES: DesignStyle[] = ["modern", "scandinavian", "industrial"];
/** The style the demo "chooses": the after picture is Scandinavian. */
const CHOSEN: DesignStyle = "scandinavian";

const badgeClass = "absolute left-3 top-3 rounded-md px-2.5 py-1 text-xs font-bold tracking-wide text-white shadow";

export function DemoStage({ step }: { step: number }) {
  const { t } = useTranslation();
  return (
    <div
      className="relative aspect-[3/2] w-full overflow-hidden lg:aspect-video rounded-xl bg-slate-100 ring-1 ring-slate-900/5 dark:bg-slate-800 dark:ring-white/10"
      data-testid="demo-stage"
      data-step={step}
    >
      {step === 0 ? (
        <>
          <RoomBefore label={t("demo.beforeAlt")} className="size-full" />
          <span className={`${badgeClass} bg-slate-900/80`} data-testid="demo-badge">
            {t("demo.badgeBefore")}
          </span>
        </>
      ) : null}

      {step === 1 ? (
        <div className="flex size-full items-center justify-center bg-gradient-to-br from-brand-50 to-white p-3 sm:p-6 dark:from-slate-800 dark:to-slate-900">
          <ul className="grid w-full max-w-lg grid-cols-3 gap-2 sm:gap-4">
            {DEMO_STYLES.map((style) => {
              const chosen = style === CHOSEN;
              return (
                <li
                  key={style}
                  className={`relative overflow-hidden rounded-lg bg-white shadow-sm ring-2 dark:bg-slate-900 ${chosen ? "ring-brand-600 dark:ring-brand-500" : "ring-transparent"}`}
                  data-testid="demo-swatch"
                >
                  <StyleSwatch style={style} />
                  <p className="px-1 py-1.5 text-center text-[11px] font-semibold leading-tight break-words sm:text-sm">
                    {t(`styles.${style}`)}
                  </p>
                  {chosen ? (
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
          <RoomBefore className="size-full scale-110 blur-sm" />
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-white/70 p-4 text-center dark:bg-slate-950/70">
            <span
              className="size-12 animate-spin rounded-full border-4 border-brand-600 border-t-transparent motion-reduce:animate-[spin_3s_linear_infinite]"
              role="presentation"
              data-testid="demo-spinner"
            />
            <p className="text-lg font-semibold">{t("demo.steps.magic")}</p>
            <p className="max-w-xs text-sm text-slate-700 dark:text-slate-200">{t("demo.steps.magicBody", { product: PRODUCT_NAME })}</p>
          </div>
        </div>
      ) : null}

      {step === 3 ? (
        <>
          <RoomAfter label={t("demo.afterAlt")} className="size-full" />
          <span className={`${badgeClass} bg-emerald-700`} data-testid="demo-badge">
            {t("demo.badgeAfter")}
          </span>
        </>
      ) : null}
    </div>
  );
}
