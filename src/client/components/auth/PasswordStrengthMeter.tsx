/** The strength meter of spec §5: five criteria; Weak below 3 met, Medium at 3, Strong at 4 or more. */
import { Check, X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PASSWORD_CRITERIA, passwordStrength, type PasswordStrength } from "../../../shared/auth-schemas";
import { FIELD_LIMITS } from "../../../shared/constants";

type CriterionId = (typeof PASSWORD_CRITERIA)[number]["id"];

const CRITERION_LABELS: Record<CriterionId, string> = {
  length: "auth.strength.length",
  lowercase: "auth.strength.lowercase",
  uppercase: "auth.strength.uppercase",
  number: "auth.strength.number",
  special: "auth.strength.special",
};

const STRENGTH_LABELS: Record<PasswordStrength, string> = {
  weak: "auth.strength.weak",
  medium: "auth.strength.medium",
  strong: "auth.strength.strong",
};

const BAR_COLOURS: Record<PasswordStrength, string> = {
  weak: "bg-red-500 dark:bg-red-400",
  medium: "bg-amber-500 dark:bg-amber-400",
  strong: "bg-emerald-500 dark:bg-emerald-400",
};

const TEXT_COLOURS: Record<PasswordStrength, string> = {
  weak: "text-red-600 dark:text-red-400",
  medium: "text-amber-700 dark:text-amber-300",
  strong: "text-emerald-700 dark:text-emerald-300",
};

export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  const { met, strength } = passwordStrength(password);
  return (
    <div className="mt-2 space-y-2" data-testid="password-strength">
      <div className="flex items-center gap-3">
        <div
          role="meter"
          aria-label={t("auth.strength.label")}
          aria-valuemin={0}
          aria-valuemax={PASSWORD_CRITERIA.length}
          aria-valuenow={met}
          aria-valuetext={t(STRENGTH_LABELS[strength])}
          className="flex flex-1 gap-1"
        >
          {PASSWORD_CRITERIA.map((criterion, index) => (
            <span
              key={criterion.id}
              className={`h-1.5 flex-1 rounded-full ${index < met ? BAR_COLOURS[strength] : "bg-slate-200 dark:bg-slate-700"}`}
            />
          ))}
        </div>
        <span className={`text-xs font-semibold ${TEXT_COLOURS[strength]}`} aria-live="polite">
          {t(STRENGTH_LABELS[strength])}
        </span>
      </div>
      <ul className="grid gap-1 text-xs sm:grid-cols-2">
        {PASSWORD_CRITERIA.map((criterion) => {
          const ok = criterion.test(password);
          return (
            <li
              key={criterion.id}
              className={`flex items-center gap-1.5 ${ok ? "text-emerald-700 dark:text-emerald-300" : "text-slate-500 dark:text-slate-400"}`}
            >
              {ok ? <Check className="size-3.5 shrink-0" aria-hidden="true" /> : <X className="size-3.5 shrink-0" aria-hidden="true" />}
              <span>
                {t(CRITERION_LABELS[criterion.id], { min: FIELD_LIMITS.passwordMin })}
                <span className="sr-only">: {ok ? t("auth.strength.met") : t("auth.strength.notMet")}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
