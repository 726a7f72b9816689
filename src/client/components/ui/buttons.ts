/** Button and surface classes of the render flow's pages (same look as the account forms). */
const base =
  "inline-flex items-center justify-center gap-2 rounded-md text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 [&>svg]:shrink-0";

export const buttonClass = {
  primary: `${base} bg-brand-600 px-4 py-2.5 text-white shadow-sm hover:bg-brand-700`,
  secondary:
    `${base} border border-slate-300 bg-white px-4 py-2.5 text-slate-800 hover:bg-slate-50 ` +
    "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  ghost: `${base} px-3 py-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800`,
  danger: `${base} bg-red-600 px-4 py-2.5 text-white shadow-sm hover:bg-red-700`,
  dangerOutline:
    `${base} border border-red-300 bg-white px-4 py-2.5 text-red-700 hover:bg-red-50 ` +
    "dark:border-red-900 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950/40",
  /** A square button holding only an icon (give it an aria-label). */
  icon: `${base} size-9 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white`,
  big: `${base} bg-brand-600 px-6 py-3.5 text-base text-white shadow-md hover:bg-brand-700`,
} as const;

export const cardClass = "rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900";

export const linkClass = "font-medium text-brand-600 underline-offset-2 hover:underline dark:text-brand-100";

export const selectClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm " +
  "focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:opacity-60 sm:text-sm " +
  "dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100";

export const labelClass = "mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200";
