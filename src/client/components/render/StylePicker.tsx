/**
 * The design styles as cards, in the order of DESIGN_STYLES (Modern, Scandinavian, Industrial
 * first). One style by default (radio buttons: arrow keys move); "Apply several styles" turns them
 * into checkboxes, one credit each.
 */
import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";
import { CREDITS } from "../../../shared/constants";
import { DESIGN_STYLES, type DesignStyle } from "../../../shared/styles";
import { Switch } from "../ui/Switch";
import { StyleSwatch } from "./StyleSwatch";

interface StylePickerProps {
  value: DesignStyle[];
  onChange(styles: DesignStyle[]): void;
  multi: boolean;
  onMultiChange(multi: boolean): void;
  /** Visitors render one style (their free demo). */
  multiAllowed: boolean;
  /** How many pictures each chosen style is applied to (a batch), for the cost line. */
  pictures?: number;
}

export function StylePicker({ value, onChange, multi, onMultiChange, multiAllowed, pictures = 1 }: StylePickerProps) {
  const { t } = useTranslation();
  const renders = value.length * pictures;

  const toggleMulti = () => {
    const next = !multi;
    onMultiChange(next);
    if (!next && value.length > 1) onChange(value.slice(0, 1));
  };

  const choose = (style: DesignStyle, checked: boolean) => {
    if (!multi) onChange([style]);
    else if (checked) onChange(DESIGN_STYLES.filter((id) => id === style || value.includes(id)));
    else onChange(value.filter((id) => id !== style));
  };

  return (
    <section aria-labelledby="styles-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="styles-heading" className="text-lg font-semibold">
          {t("styleSelect.stylesHeading")}
        </h2>
        <div className="flex items-center gap-3">
          <span id="multi-label" className="text-sm font-medium">
            {t("styleSelect.multiToggle")}
          </span>
          <Switch
            checked={multi}
            onChange={toggleMulti}
            labelledBy="multi-label"
            describedBy={multiAllowed ? undefined : "multi-note"}
            disabled={!multiAllowed}
          />
        </div>
      </div>
      <p id="multi-note" className="mt-1 text-sm text-slate-500 dark:text-slate-400">
        {multiAllowed ? t("styleSelect.multiHint", { credits: CREDITS.perRender }) : t("styleSelect.multiVisitor")}
      </p>

      <div
        className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
        role={multi ? "group" : "radiogroup"}
        aria-label={t("styleSelect.stylesHeading")}
      >
        {DESIGN_STYLES.map((style) => {
          const checked = value.includes(style);
          return (
            <label
              key={style}
              data-testid={`style-${style}`}
              className="group relative cursor-pointer overflow-hidden rounded-xl border-2 border-slate-200 bg-white transition hover:border-brand-300 has-[:checked]:border-brand-600 has-[:checked]:ring-2 has-[:checked]:ring-brand-500/30 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500 dark:border-slate-800 dark:bg-slate-900 dark:has-[:checked]:border-brand-500"
            >
              <input
                type={multi ? "checkbox" : "radio"}
                name="style"
                value={style}
                checked={checked}
                onChange={(event) => choose(style, event.target.checked)}
                className="sr-only"
              />
              <StyleSwatch style={style} />
              <span className="flex items-center justify-between gap-2 px-3 py-2.5 text-sm font-semibold">
                {t(`styles.${style}`)}
                <span
                  className={`flex size-5 shrink-0 items-center justify-center rounded-full border ${checked ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 dark:border-slate-600"}`}
                  aria-hidden="true"
                >
                  {checked ? <Check className="size-3.5" /> : null}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <p className="mt-3 text-sm font-medium" aria-live="polite" data-testid="cost-line">
        {value.length === 0 ? t("styleSelect.noneChosen") : t("styleSelect.cost", { count: renders })}
      </p>
    </section>
  );
}
