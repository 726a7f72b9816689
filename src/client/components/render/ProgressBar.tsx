/** A progress bar; without a value it shows an indeterminate stripe (the engine gave no percent). */
export function ProgressBar({
  value,
  label,
  tone = "brand",
}: {
  value: number | null;
  label: string;
  tone?: "brand" | "success" | "danger" | "muted";
}) {
  const colour = { brand: "bg-brand-600", success: "bg-emerald-500", danger: "bg-red-500", muted: "bg-slate-400" }[tone];
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value === null ? undefined : Math.round(value)}
      className="relative h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
    >
      {value === null ? (
        <span
          className={`absolute inset-y-0 w-1/3 animate-[progress-slide_1.4s_ease-in-out_infinite] rounded-full motion-reduce:w-full motion-reduce:animate-none motion-reduce:opacity-50 ${colour}`}
        />
      ) : (
        <span
          className={`block h-full rounded-full transition-[width] duration-500 ${colour}`}
          style={{ width: `${Math.max(2, Math.min(100, value))}%` }}
        />
      )}
    </div>
  );
}
