import { Globe } from "lucide-react";
import { forwardRef, type ComponentPropsWithoutRef } from "react";
import { LANGUAGE_NAMES, type Language } from "../../shared/constants";

type ButtonProps = ComponentPropsWithoutRef<"button"> & { label: string; language: Language };

/** The trigger, the same before and after the menu is loaded. */
export const LanguageButton = forwardRef<HTMLButtonElement, ButtonProps>(function LanguageButton({ label, language, ...props }, ref) {
  return (
    <button
      ref={ref}
      type="button"
      // The visible language name comes first (WCAG 2.5.3 Label in Name), then what the button is for.
      aria-label={`${LANGUAGE_NAMES[language]}, ${label}`}
      className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      {...props}
    >
      <Globe className="size-4" aria-hidden="true" />
      <span>{LANGUAGE_NAMES[language]}</span>
    </button>
  );
});
