/**
 * Interface languages (spec section 9): the browser's language when supported, else English;
 * a language the user picks is stored on the device and wins from then on.
 *
 * Only the active language is loaded, and of its areas (areas/<area>/) only what the landing page
 * paints first; the other areas follow at once in the background, and lazily loaded parts that
 * need them wait for them (withAllTexts). Issue 15: all three languages eagerly were ~65 KB gzip.
 */
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, STORAGE_KEYS, SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import { afterFirstLoad } from "../lib/afterFirstLoad";
import type { TranslationTree } from "./merge";

const mainFiles = import.meta.glob<TranslationTree>("./*.json", { import: "default" });
const areaFiles = import.meta.glob<TranslationTree>("./areas/*/*.json", { import: "default" });
/** The areas the landing page's first paint shows. */
const FIRST_AREAS = new Set(["home"]);

const isLanguage = (value: unknown): value is Language => SUPPORTED_LANGUAGES.includes(value as Language);

function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEYS.language);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** Lets the server pre-render the landing page in the chosen language (a year, like the stored choice). */
function rememberForServer(language: Language): void {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
}

/** The stored choice, else the first of the browser's languages we have (by primary subtag), else English. */
export function detectLanguage(): Language {
  const stored = storedLanguage();
  if (stored) {
    rememberForServer(stored);
    return stored;
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split("-")[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

const loads = new Map<string, Promise<void>>();

/** Adds the language's main texts and the areas that `which` selects to i18next (once each). */
function loadTexts(language: Language, which: "first" | "all"): Promise<void> {
  const key = `${language}:${which}`;
  let load = loads.get(key);
  if (!load) {
    const files = [`./${language}.json`, ...Object.keys(areaFiles).filter((file) => file.endsWith(`/${language}.json`))];
    const wanted = files.filter((file) => {
      if (file.startsWith("./areas/")) return which === "all" || FIRST_AREAS.has(file.split("/")[2]!);
      return true;
    });
    load = Promise.all(wanted.map(async (file) => ({ file, texts: await (mainFiles[file] ?? areaFiles[file])!() }))).then((parts) => {
      for (const { texts } of parts) i18n.addResourceBundle(language, "translation", texts, true, false);
    });
    loads.set(key, load);
  }
  return load;
}

function syncDocumentLanguage(language: string): void {
  if (typeof document !== "undefined") document.documentElement.lang = language;
}

/** Starts i18next in `language` once what the first paint needs is loaded; the rest follows in the background. */
export async function startI18n(language: Language): Promise<void> {
  if (!i18n.isInitialized) {
    i18n.on("languageChanged", syncDocumentLanguage);
    await i18n.use(initReactI18next).init({
      resources: {},
      partialBundledLanguages: true,
      lng: language,
      supportedLngs: [...SUPPORTED_LANGUAGES],
      nonExplicitSupportedLngs: true,
      load: "languageOnly",
      fallbackLng: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await loadTexts(language, "first");
  await i18n.changeLanguage(language);
  // The build-time pre-render (no window) loads the rest itself.
  if (typeof window !== "undefined") void afterFirstLoad().then(() => loadTexts(language, "all"));
}

/** Resolves when every area of the current language is loaded. */
export function allTexts(): Promise<void> {
  return loadTexts(currentLanguage(), "all");
}

/** A lazy module's loader that also waits for every area's texts (for parts outside the first paint). */
export function withAllTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), allTexts()]).then(([module]) => module);
}

export function currentLanguage(): Language {
  const resolved = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(resolved) ? resolved : DEFAULT_LANGUAGE;
}

/** Switches the interface language and remembers the choice on this device. */
export async function chooseLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, language);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this visit.
  }
  rememberForServer(language);
  await loadTexts(language, "all");
  await i18n.changeLanguage(language);
}

export default i18n;
