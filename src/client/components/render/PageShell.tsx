import type { ReactNode } from "react";

/** A render-flow page: its title, a line under it, optional actions, then the content. */
export function PageShell({
  title,
  intro,
  actions,
  children,
  wide = false,
}: {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`mx-auto space-y-6 px-4 py-8 sm:px-6 sm:py-10 ${wide ? "max-w-6xl" : "max-w-4xl"}`}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          {intro ? <p className="mt-1.5 text-slate-600 dark:text-slate-300">{intro}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

/** An error line under a form part, announced when it appears. */
export function ErrorText({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p
      id={id}
      role="alert"
      className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200"
    >
      {message}
    </p>
  );
}
