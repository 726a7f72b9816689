/**
 * The texts of each language: the main file (en.json, es.json, fr.json) plus one folder per
 * area of the app (areas/<area>/{en,es,fr}.json), merged. An area's keys must not repeat a key of
 * the main file or of another area (a test checks it): each text has one home. Every language at
 * once: for tests only; the browser (and the build-time pre-render) loads one language in parts
 * (parts/<language>.<part>.ts, through index.ts).
 */
import type { Language } from "../../shared/constants";
import en from "./en.json";
import es from "./es.json";
import fr from "./fr.json";
import { mergeTexts, type TranslationTree } from "./merge";

export { mergeTexts, type TranslationTree } from "./merge";

const areaFiles = import.meta.glob<TranslationTree>("./areas/*/*.json", { eager: true, import: "default" });

function build(language: Language, main: TranslationTree): TranslationTree {
  const merged = structuredClone(main);
  for (const [file, texts] of Object.entries(areaFiles)) {
    if (file.endsWith(`/${language}.json`)) mergeTexts(merged, texts, file);
  }
  return merged;
}

export const translations: Record<Language, TranslationTree> = { en: build("en", en), es: build("es", es), fr: build("fr", fr) };
