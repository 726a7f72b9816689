import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

const TONES = {
  slate: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  violet: "bg-violet-100 text-violet-800 dark:bg-violet-900/50 dark:text-violet-100",
  emerald: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
} as const;

/** A small rounded label with an icon: "AI", a licence, an e-mail's state. */
export function Pill({ tone, icon: Icon, children }: { tone: keyof typeof TONES; icon: LucideIcon; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONES[tone]}`}>
      <Icon className="size-3.5" aria-hidden="true" />
      {children}
    </span>
  );
}
