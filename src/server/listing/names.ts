/**
 * The names users see, for the export's XMP description: a style's display name and the Preview
 * engine's name in the export's language. They have one home, the client's texts; the server reads
 * the same files (JSON, bundled with the server) rather than keep a second copy that could drift.
 */
import type { Language } from "../../shared/constants";
import type { DesignStyle } from "../../shared/styles";
import en from "../../client/i18n/areas/shell/en.json";
import es from "../../client/i18n/areas/shell/es.json";
import fr from "../../client/i18n/areas/shell/fr.json";

const SHELL = { en, es, fr } satisfies Record<Language, { styles: Record<DesignStyle, string>; flow: { previewEngine: string } }>;

export function styleName(style: DesignStyle, language: Language): string {
  return SHELL[language].styles[style];
}

export function previewEngineName(language: Language): string {
  return SHELL[language].flow.previewEngine;
}
