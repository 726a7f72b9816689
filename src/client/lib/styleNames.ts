/**
 * A style's name as users read it: a built-in style's in their language; a custom style's as the
 * render kept it (its snapshot, so a later rename does not rewrite the past) or as its space names it now.
 */
import type { TFunction } from "i18next";
import { isCustomStyleKey } from "../../shared/custom-styles";

export function styleLabel(t: TFunction, style: string, customName?: string | null): string {
  if (isCustomStyleKey(style)) return customName ?? t("customStyles.unnamed");
  return t(`styles.${style}`, { defaultValue: style });
}
