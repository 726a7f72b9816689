/**
 * One choice among a few (language, theme), as native radio buttons drawn as a segmented
 * control: Tab reaches the group, the arrow keys move the choice, screen readers hear a radio group.
 */
import { Check } from "lucide-react";

interface Option<T extends string> {
  value: T;
  label: string;
  /** The option's own language, when its label is written in it (language names). */
  lang?: string;
}

export function ChoiceGroup<T extends string>({
  name,
  label,
  value,
  onChange,
  options,
  testId,
}: {
  name: string;
  label: string;
  value: T;
  onChange(value: T): void;
  options: Option<T>[];
  testId?: string;
}) {
  return (
    <fieldset data-testid={testId}>
      <legend className="sr-only">{label}</legend>
      <div className="grid grid-cols-1 gap-2 min-[400px]:grid-cols-3">
        {options.map((option) => (
          <label key={option.value} className="relative cursor-pointer" lang={option.lang}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="peer sr-only"
            />
            <span
              className={
                "flex items-center justify-between gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-medium text-slate-800 transition-colors " +
                "hover:bg-slate-50 peer-checked:border-brand-600 peer-checked:bg-brand-50 peer-checked:text-brand-700 " +
                "peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 " +
                "dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:hover:bg-slate-800 dark:peer-checked:border-brand-500 dark:peer-checked:bg-brand-700/25 dark:peer-checked:text-white"
              }
            >
              {option.label}
              {value === option.value ? <Check className="size-4 shrink-0 text-brand-600 dark:text-brand-100" aria-hidden="true" /> : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
