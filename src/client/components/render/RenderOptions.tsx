/**
 * What a render request may ask beyond the style: the render mode and variations, offered only as
 * far as the configured engine can do them, with the price shown before confirming.
 */
import { useTranslation } from "react-i18next";
import { CREDITS } from "../../../shared/constants";
import { RENDER, renderModesFor, type EngineCapabilities, type RenderMode } from "../../../shared/render";
import type { InputMode, RoomType } from "../../../shared/styles";
import { labelClass, selectClass } from "../ui/buttons";

export interface RenderChoices {
  renderMode: RenderMode;
  variations: number;
}

/** Credits a request takes: one per style and variation. */
export function renderCost(styleCount: number, variations: number): number {
  return styleCount * variations * CREDITS.perRender;
}

export function RenderOptions({
  capabilities,
  inputMode,
  roomType,
  signedIn,
  styleCount,
  value,
  onChange,
}: {
  capabilities: EngineCapabilities;
  /** What the picture shows: a floor plan gets fewer modes (see renderModesFor). */
  inputMode: InputMode;
  /** An exterior is offered its own modes (sky, twilight, garden: issue 33), and only those. */
  roomType?: RoomType;
  signedIn: boolean;
  styleCount: number;
  value: RenderChoices;
  onChange(next: RenderChoices): void;
}) {
  const { t } = useTranslation();
  const modes = renderModesFor(capabilities, inputMode, roomType);
  const exterior = roomType === "exterior";
  return (
    <div className="space-y-5" data-testid="render-options">
      {modes.length > 1 || exterior ? (
        <fieldset>
          <legend className={labelClass}>{t(exterior ? "renderOptions.exteriorLabel" : "renderOptions.modeLabel")}</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {modes.map((mode) => (
              <label
                key={mode}
                className="flex cursor-pointer flex-col gap-1 rounded-xl border border-slate-300 p-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 dark:border-slate-700 dark:has-[:checked]:border-brand-500 dark:has-[:checked]:bg-brand-700/20"
              >
                <span className="flex items-center gap-2 font-semibold">
                  <input
                    type="radio"
                    name="render-mode"
                    value={mode}
                    checked={value.renderMode === mode}
                    onChange={() => onChange({ ...value, renderMode: mode })}
                  />
                  {t(`renderOptions.modes.${mode}`)}
                </span>
                <span className="text-slate-600 dark:text-slate-400">{t(`renderOptions.modeHints.${mode}`)}</span>
              </label>
            ))}
          </div>
          {exterior ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t("renderOptions.exteriorDisclosure")}</p> : null}
        </fieldset>
      ) : null}
      {signedIn ? (
        <div>
          <label htmlFor="variations" className={labelClass}>
            {t(exterior ? "renderOptions.exteriorVariationsLabel" : "renderOptions.variationsLabel")}
          </label>
          <select
            id="variations"
            className={`${selectClass} max-w-32`}
            value={value.variations}
            onChange={(event) => onChange({ ...value, variations: Number(event.target.value) })}
          >
            {Array.from({ length: RENDER.maxVariations }, (_, index) => index + 1).map((count) => (
              <option key={count} value={count}>
                {count}
              </option>
            ))}
          </select>
          <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">{t("renderOptions.variationsHint")}</p>
          {styleCount > 0 ? (
            <p className="mt-1 text-sm font-medium text-slate-800 dark:text-slate-200" data-testid="render-price">
              {exterior
                ? t("renderOptions.exteriorPrice", {
                    count: renderCost(styleCount, value.variations),
                    variations: t("renderOptions.variationCount", { count: value.variations }),
                  })
                : t("renderOptions.price", {
                    count: renderCost(styleCount, value.variations),
                    styles: t("renderOptions.styleCount", { count: styleCount }),
                    variations: t("renderOptions.variationCount", { count: value.variations }),
                  })}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
