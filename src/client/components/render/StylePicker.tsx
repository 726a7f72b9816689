/**
 * The design styles as cards, in the order of DESIGN_STYLES (Modern, Scandinavian, Industrial
 * first), then the space's own styles (issue 32) drawn from their palettes. One style by default
 * (radio buttons: arrow keys move); "Apply several styles" turns them into checkboxes, one credit each.
 */
import { Check, ImageIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { CREDITS } from "../../../shared/constants";
import type { SpaceStyles, StyleKey } from "../../../shared/custom-styles";
import { DESIGN_STYLES } from "../../../shared/styles";
import { linkClass } from "../ui/buttons";
import { Switch } from "../ui/Switch";
import { PaletteSwatch, StyleSwatch } from "./StyleSwatch";

interface StylePickerProps {
  value: StyleKey[];
  onChange(styles: StyleKey[]): void;
  multi: boolean;
  onMultiChange(multi: boolean): void;
  /** Visitors render one style (their free demo). */
  multiAllowed: boolean;
  /** How many pictures each chosen style is applied to (a batch), for the cost line. */
  pictures?: number;
  /** The space's own styles (signed in); undefined for a visitor, who has none. */
  custom?: SpaceStyles;
  /** Whether the engine sends a custom style's reference picture (else the card says it is not used). */
  takesReference?: boolean;
}

export function StylePicker({
  value,
  onChange,
  multi,
  onMultiChange,
  multiAllowed,
  pictures = 1,
  custom,
  takesReference,
}: StylePickerProps) {
  const { t } = useTranslation();
  const renders = value.length * pictures;
  const customStyles = custom?.styles ?? [];
  /** Every key in the order the cards show them, so several chosen styles keep that order. */
  const order: StyleKey[] = [...DESIGN_STYLES, ...customStyles.map((style) => style.id)];

  const toggleMulti = () => {
    const next = !multi;
    onMultiChange(next);
    if (!next && value.length > 1) onChange(value.slice(0, 1));
  };

  const choose = (style: StyleKey, checked: boolean) => {
    if (!multi) onChange([style]);
    else if (checked) onChange(order.filter((id) => id === style || value.includes(id)));
    else onChange(value.filter((id) => id !== style));
  };

  /**
   * One style as a card: its drawn room, its name, and a tick when chosen. Called as a function, not
   * a component of its own: a component declared in here would be a new type at every render, and the
   * radio just chosen with an arrow key would lose its focus.
   */
  function styleCard({ id, name, swatch, detail }: { id: StyleKey; name: string; swatch: ReactNode; detail?: ReactNode }) {
    const checked = value.includes(id);
    return (
      <label
        key={id}
        data-testid={`style-${id}`}
        className="group relative cursor-pointer overflow-hidden rounded-xl border-2 border-slate-200 bg-white transition hover:border-brand-500 has-[:checked]:border-brand-600 has-[:checked]:ring-2 has-[:checked]:ring-brand-500/30 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500 dark:border-slate-800 dark:bg-slate-900 dark:has-[:checked]:border-brand-500"
      >
        <input
          type={multi ? "checkbox" : "radio"}
          name="style"
          value={id}
          checked={checked}
          onChange={(event) => choose(id, event.target.checked)}
          className="sr-only"
        />
        {swatch}
        <span className="flex items-center justify-between gap-2 px-3 py-2.5 text-sm font-semibold">
          <span className="min-w-0 [overflow-wrap:anywhere]">{name}</span>
          <span
            className={`flex size-5 shrink-0 items-center justify-center rounded-full border ${checked ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 dark:border-slate-600"}`}
            aria-hidden="true"
          >
            {checked ? <Check className="size-3.5" /> : null}
          </span>
        </span>
        {detail}
      </label>
    );
  }

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
        {DESIGN_STYLES.map((style) => styleCard({ id: style, name: t(`styles.${style}`), swatch: <StyleSwatch style={style} /> }))}
      </div>
      {custom ? (
        <div className="mt-6" data-testid="custom-styles-choice">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id="custom-styles-heading" className="text-base font-semibold">
              {t(custom.teamId ? "customStyles.picker.teamHeading" : "customStyles.picker.heading")}
            </h3>
            <Link href="/styles" className={`text-sm ${linkClass}`}>
              {customStyles.length === 0 ? t("customStyles.picker.make") : t("customStyles.picker.manage")}
            </Link>
          </div>
          {customStyles.length === 0 ? (
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t("customStyles.picker.none")}</p>
          ) : (
            <div
              className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
              role={multi ? "group" : "radiogroup"}
              aria-labelledby="custom-styles-heading"
            >
              {customStyles.map((style) =>
                styleCard({
                  id: style.id,
                  name: style.name,
                  swatch: <PaletteSwatch palette={style.palette} />,
                  detail: style.hasReference ? (
                    <span className="flex items-center gap-1 px-3 pb-2 text-xs text-slate-500 dark:text-slate-400">
                      <ImageIcon className="size-3.5 shrink-0" aria-hidden="true" />
                      {t(takesReference ? "customStyles.picker.referenceUsed" : "customStyles.picker.referenceIgnored")}
                    </span>
                  ) : null,
                }),
              )}
            </div>
          )}
        </div>
      ) : null}
      <p className="mt-3 text-sm font-medium" aria-live="polite" data-testid="cost-line">
        {value.length === 0 ? t("styleSelect.noneChosen") : t("styleSelect.cost", { count: renders })}
      </p>
    </section>
  );
}
