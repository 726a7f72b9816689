/**
 * The names users see, for the export's XMP description: a style's display name and the Preview
 * engine's name in the export's language. They have one home, the client's texts; the server reads
 * the same files (JSON, bundled with the server) rather than keep a second copy that could drift.
 */
import type { Language } from "../../shared/constants";
import type { PaintSurface } from "../../shared/paint";
import type { DesignStyle } from "../../shared/styles";
import en from "../../client/i18n/areas/shell/en.json";
import es from "../../client/i18n/areas/shell/es.json";
import fr from "../../client/i18n/areas/shell/fr.json";
import paintEn from "../../client/i18n/areas/paint/en.json";
import paintEs from "../../client/i18n/areas/paint/es.json";
import paintFr from "../../client/i18n/areas/paint/fr.json";

const SHELL = { en, es, fr } satisfies Record<Language, { styles: Record<DesignStyle, string>; flow: { previewEngine: string } }>;
const PAINT = { en: paintEn, es: paintEs, fr: paintFr } satisfies Record<
  Language,
  { paint: { surfaces: Record<PaintSurface, string>; colourLabel: string } }
>;

/** A paint colour as the studio names it ("Walls: #2F3E57", "Murs : #2F3E57"). */
export function paintLabel(paint: { colour: string; surface: PaintSurface }, language: Language): string {
  const texts = PAINT[language].paint;
  return texts.colourLabel.replace("{{surface}}", texts.surfaces[paint.surface]).replace("{{colour}}", paint.colour.toUpperCase());
}

export function styleName(style: DesignStyle, language: Language): string {
  return SHELL[language].styles[style];
}

export function previewEngineName(language: Language): string {
  return SHELL[language].flow.previewEngine;
}
