/** Pieces the admin sections share: formatters in the interface language, badges, a pager. */
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes, formatElapsed } from "../../lib/format";
import { buttonClass, cardClass, labelClass } from "../ui/buttons";

export function useFormatters() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
  const date = new Intl.DateTimeFormat(language, { dateStyle: "medium" });
  const number = new Intl.NumberFormat(language);
  const percent = new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: 1 });
  return {
    dateTime: (value: number | Date) => dateTime.format(value),
    date: (value: number | Date) => date.format(value),
    number: (value: number) => number.format(value),
    percent: (value: number) => percent.format(value),
    bytes: (value: number) => formatBytes(value, language),
    duration: (ms: number) =>
      ms < 1000
        ? `${number.format(Math.round(ms))} ms`
        : ms < 60_000
          ? `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(ms / 1000)} s`
          : formatElapsed(ms),
    /** How long ago, in words of the language ("3 hours ago", "hace 3 horas"). */
    ago: (ms: number) => {
      const relative = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
      if (ms < 60_000) return relative.format(0, "second");
      const [value, unit] = largestUnit(ms);
      return relative.format(-value, unit);
    },
    /** A period in words, in its largest exact unit ("1 day", "6 horas", "90 minutes"). */
    period: (ms: number) => {
      const minutes = Math.round(ms / 60_000);
      const [value, unit]: [number, "minute" | "hour" | "day"] =
        minutes % 1440 === 0 ? [minutes / 1440, "day"] : minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
      return new Intl.NumberFormat(language, { style: "unit", unit, unitDisplay: "long" }).format(value);
    },
    language,
  };
}

/** A duration in its largest whole unit: 90 min → [1, "hour"] (rounded), 2 days → [2, "day"]. */
function largestUnit(ms: number): [number, "minute" | "hour" | "day"] {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return [minutes, "minute"];
  const hours = Math.round(minutes / 60);
  return hours < 48 ? [hours, "hour"] : [Math.round(hours / 24), "day"];
}

const TONES = {
  slate: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  brand: "bg-brand-100 text-brand-700 dark:bg-brand-700/30 dark:text-brand-100",
  green: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  red: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-200",
} as const;
export type Tone = keyof typeof TONES;

export function Badge({ tone = "slate", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${TONES[tone]}`}>
      {children}
    </span>
  );
}

export function jobStatusTone(status: string): Tone {
  if (status === "succeeded") return "green";
  if (status === "failed") return "red";
  if (status === "canceled") return "slate";
  if (status === "queued") return "amber";
  return "brand";
}

/** Previous / next over a paged list, with "21–40 of 95". */
export function Pager({
  offset,
  limit,
  total,
  onChange,
}: {
  offset: number;
  limit: number;
  total: number;
  onChange(offset: number): void;
}) {
  const { t } = useTranslation();
  const { number } = useFormatters();
  if (total <= limit && offset === 0) return null;
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);
  return (
    <nav className="flex items-center justify-between gap-3" aria-label={t("admin.pager.label")}>
      <p className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
        {t("admin.pager.range", { from: number(from), to: number(to), total: number(total) })}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className={`${buttonClass.secondary} px-3 py-1.5`}
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - limit))}
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
          {t("admin.pager.previous")}
        </button>
        <button
          type="button"
          className={`${buttonClass.secondary} px-3 py-1.5`}
          disabled={offset + limit >= total}
          onClick={() => onChange(offset + limit)}
        >
          {t("admin.pager.next")}
          <ChevronRight className="size-4" aria-hidden="true" />
        </button>
      </div>
    </nav>
  );
}

/** A titled card of the admin page. */
export function Panel({
  title,
  description,
  actions,
  children,
  testId,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className={`${cardClass} space-y-4 p-4 sm:p-5`} aria-label={title} data-testid={testId}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold">{title}</h2>
          {description ? <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">{description}</p> : null}
        </div>
        {actions ? <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function EmptyNote({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
      {children}
    </p>
  );
}

export function ErrorNote({ children }: { children: ReactNode }) {
  return (
    <p
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
    >
      {children}
    </p>
  );
}

/** A labelled field, with the environment's badge when the variable holds it. */
export function Field({
  id,
  label,
  fromEnvironment,
  hint,
  children,
}: {
  id: string;
  label: string;
  fromEnvironment?: boolean;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <label htmlFor={id} className={`${labelClass} flex flex-wrap items-center gap-2`}>
        {label}
        {fromEnvironment ? <Badge tone="amber">{t("admin.studio.setByEnvironment")}</Badge> : null}
      </label>
      {children}
      {hint ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{hint}</p> : null}
    </div>
  );
}
