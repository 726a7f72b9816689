/**
 * The texts of each language: the main file (en.json, es.json, fr.json) plus one folder per
 * area of the app (areas/<area>/{en,es,fr}.json), merged. An area's keys must not repeat a key of
 * the main file or of another area (a test checks it): each text has one home.
 */
import type { Language } from "../../shared/constants";
import en from "./en.json";
import es from "./es.json";
import fr from "./fr.json";

export type TranslationTree = { [key: string]: string | TranslationTree };

const areaFiles = import.meta.glob<TranslationTree>("./areas/*/*.json", { eager: true, import: "default" });

/** Adds `source` into `target`; a key present in both is an error naming it. */
export function mergeTexts(target: TranslationTree, source: TranslationTree, where: string, prefix = ""): TranslationTree {
  for (const [key, value] of Object.entries(source)) {
    const name = prefix ? `${prefix}.${key}` : key;
    const existing = target[key];
    if (typeof value === "string" || existing === undefined || typeof existing === "string") {
      if (existing !== undefined) throw new Error(`translation key ${name} is defined twice (${where})`);
      target[key] = typeof value === "string" ? value : structuredClone(value);
    } else {
      mergeTexts(existing, value, where, name);
    }
  }
  return target;
}

function build(language: Language, main: TranslationTree): TranslationTree {
  const merged = structuredClone(main);
  for (const [file, texts] of Object.entries(areaFiles)) {
    if (file.endsWith(`/${language}.json`)) mergeTexts(merged, texts, file);
  }
  return merged;
}

export const translations: Record<Language, TranslationTree> = { en: build("en", en), es: build("es", es), fr: build("fr", fr) };
