/**
 * What a job is called in lists and cards: its style; for a studio edit, "Edit" with the style it was
 * made in; for an exterior (issue 33), what it did ("Blue sky"): its modes read no style.
 */
import type { TFunction } from "i18next";
import { isExteriorMode, type RenderMode } from "../../shared/render";
import { styleLabel } from "./styleNames";

export function jobTitle(
  t: TFunction,
  job: { kind?: "render" | "edit"; style: string | null; styleName?: string | null; renderMode?: RenderMode | null },
): string {
  if (job.kind !== "edit" && job.renderMode && isExteriorMode(job.renderMode)) return t(`renderOptions.modes.${job.renderMode}`);
  const style = job.style ? styleLabel(t, job.style, job.styleName) : null;
  if (job.kind !== "edit") return style ?? "";
  return style ? t("job.editOf", { style }) : t("job.editOfPhoto");
}
