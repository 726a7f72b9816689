/** What a job is called in lists and cards: its style, or, for a studio edit, "Edit" with the style it was made in. */
import type { TFunction } from "i18next";
import { styleLabel } from "./styleNames";

export function jobTitle(t: TFunction, job: { kind?: "render" | "edit"; style: string | null; styleName?: string | null }): string {
  const style = job.style ? styleLabel(t, job.style, job.styleName) : null;
  if (job.kind !== "edit") return style ?? "";
  return style ? t("job.editOf", { style }) : t("job.editOfPhoto");
}
