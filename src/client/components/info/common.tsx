/** Pieces the information pages share: the engine's name and badge, figures, uptime, a call to action. */
import { Bot, Palette, Wand2 } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { cardClass } from "../ui/buttons";
import { Pill } from "../ui/Pill";

export interface EngineInfo {
  id: string;
  label: string;
  isAi: boolean;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The engine's name in the interface language (the Preview engine's name is translated). */
export function engineName(engine: Pick<EngineInfo, "id" | "label">, t: Translate): string {
  return engine.id === "local" ? t("flow.previewEngine") : engine.label;
}

/** "AI" or "Not AI", said plainly next to an engine's name. */
export function AiBadge({ isAi }: { isAi: boolean }) {
  const { t } = useTranslation();
  return isAi ? (
    <Pill tone="violet" icon={Bot}>
      {t("infoPages.common.ai")}
    </Pill>
  ) : (
    <Pill tone="slate" icon={Palette}>
      {t("infoPages.common.notAi")}
    </Pill>
  );
}

/** How long the server has been up, e.g. "2 days 3 hr 5 min", in the interface language. */
export function formatUptime(totalSeconds: number, language: string | undefined): string {
  const unit = (value: number, name: "day" | "hour" | "minute" | "second") =>
    new Intl.NumberFormat(language, { style: "unit", unit: name, unitDisplay: name === "day" ? "long" : "short" }).format(value);
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3_600);
  const minutes = Math.floor((totalSeconds % 3_600) / 60);
  if (days > 0) return [unit(days, "day"), hours > 0 ? unit(hours, "hour") : null].filter(Boolean).join(" ");
  if (hours > 0) return [unit(hours, "hour"), minutes > 0 ? unit(minutes, "minute") : null].filter(Boolean).join(" ");
  if (minutes > 0) return unit(minutes, "minute");
  return unit(totalSeconds, "second");
}

/** One figure in a card: an icon and label, the value, an optional line under it. */
export function FigureCard({
  icon,
  label,
  value,
  hint,
  testId,
}: {
  icon: ReactNode;
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`${cardClass} min-w-0 p-4 sm:p-5`} data-testid={testId}>
      <p className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
        <span className="shrink-0 [&>svg]:size-4">{icon}</span>
        {label}
      </p>
      <div className="mt-1 break-words text-xl font-bold tabular-nums sm:text-2xl" data-testid={testId ? `${testId}-value` : undefined}>
        {value}
      </div>
      {hint ? <div className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</div> : null}
    </div>
  );
}

const onBrandPrimary =
  "inline-flex items-center justify-center gap-2 rounded-md bg-white px-6 py-3 text-base font-semibold text-brand-700 shadow-md hover:bg-brand-50 [&>svg]:shrink-0";
const onBrandSecondary =
  "inline-flex items-center justify-center gap-2 rounded-md border border-white/50 px-5 py-3 text-sm font-semibold text-white hover:bg-white/10";

/** The band at the foot of an information page: try it, and one more link. */
export function TryItBand({ title, body, secondary }: { title: string; body: string; secondary?: { href: string; label: string } }) {
  const { t } = useTranslation();
  return (
    <section
      className="rounded-2xl bg-gradient-to-br from-brand-600 to-brand-700 px-5 py-8 text-white shadow-md sm:px-8"
      aria-labelledby="try-it-heading"
    >
      <div className="flex flex-col gap-5 md:flex-row md:items-center md:justify-between">
        <div className="min-w-0">
          <h2 id="try-it-heading" className="text-xl font-bold sm:text-2xl">
            {title}
          </h2>
          <p className="mt-1 text-brand-50">{body}</p>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Link href="/upload" className={onBrandPrimary}>
            <Wand2 className="size-5" aria-hidden="true" />
            {t("infoPages.common.tryFree")}
          </Link>
          {secondary ? (
            <Link href={secondary.href} className={onBrandSecondary}>
              {secondary.label}
            </Link>
          ) : null}
        </div>
      </div>
    </section>
  );
}

/** A section heading with an optional line under it. */
export function SectionHeading({ id, title, intro, icon }: { id: string; title: string; intro?: string; icon?: ReactNode }) {
  return (
    <div>
      <h2 id={id} className="flex items-center gap-2 text-xl font-bold sm:text-2xl">
        {icon ? <span className="shrink-0 text-brand-600 dark:text-brand-100 [&>svg]:size-5">{icon}</span> : null}
        {title}
      </h2>
      {intro ? <p className="mt-1 text-slate-600 dark:text-slate-400">{intro}</p> : null}
    </div>
  );
}
