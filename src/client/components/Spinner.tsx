/** A spinner with its text, announced politely; `testId` names it for the browser tests. */
export function Spinner({ label, testId }: { label: string; testId?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-slate-500 dark:text-slate-400"
      data-testid={testId}
    >
      <span className="size-8 animate-spin rounded-full border-4 border-brand-500 border-t-transparent" aria-hidden="true" />
      <span className="text-sm">{label}</span>
    </div>
  );
}
