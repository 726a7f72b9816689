/**
 * Interface languages (spec section 9): the browser's language when supported, else English;
 * a language the user picks is stored on the device and wins from then on.
 *
 * Only the active language is loaded, in parts (parts/): first what the landing page paints (the
 * shell and home areas); the rest when something needs it: lazily loaded pages, drawers and
 * dialogs wait for the part they show (withTexts), toasts of the first load too (lib/notify), and
 * a language chosen in the menu loads whole. A visit that only reads the landing page never
 * fetches it (issue 25: what the first screen does not need waits for the user to need it). Issue 15: all three languages eagerly were ~65 KB gzip, and
 * one file per area made a page wait for eleven requests.
 */
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, STORAGE_KEYS, SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import type { TranslationTree } from "./merge";
import { formatNumber } from "../lib/numbers";

/** Each language's texts in three parts (parts/<language>.<part>.ts), each one file to fetch. */
export type TextPart = "first" | "demo" | "rest";
const TEXT_PARTS: readonly TextPart[] = ["first", "demo", "rest"];
const partFiles = import.meta.glob<TranslationTree[]>("./parts/*.ts", { import: "default" });

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

/** Adds one part of the language's texts to i18next (once). */
function loadPart(language: Language, part: TextPart): Promise<void> {
  const key = `${language}.${part}`;
  let load = loads.get(key);
  if (!load) {
    load = partFiles[`./parts/${key}.ts`]!().then((trees) => {
      for (const texts of trees) i18n.addResourceBundle(language, "translation", texts, true, false);
    });
    // A failed fetch (a deploy replaced the files, the network dropped) may be tried again.
    load.catch(() => loads.delete(key));
    loads.set(key, load);
  }
  return load;
}

function loadParts(language: Language, parts: readonly TextPart[]): Promise<void> {
  return Promise.all(parts.map((part) => loadPart(language, part))).then(() => undefined);
}

function syncDocumentLanguage(language: string): void {
  if (typeof document !== "undefined") document.documentElement.lang = language;
}

/** Starts i18next in `language` once what the first paint needs is loaded. */
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
    // {{count, number}} without a formatter for the small numbers (lib/numbers.ts): the landing
    // page's texts write the sign-up credits while it hydrates.
    i18n.services.formatter?.add("number", (value: number, language: string | undefined) => formatNumber(language ?? i18n.language, value));
  }
  await loadPart(language, "first");
  await i18n.changeLanguage(language);
}

/** Resolves when these parts of the current language's texts are loaded. */
export function texts(parts: readonly TextPart[]): Promise<void> {
  return loadParts(currentLanguage(), parts);
}

/** Resolves when every text of the current language is loaded. */
export function allTexts(): Promise<void> {
  return texts(TEXT_PARTS);
}

/**
 * A lazy module's loader that also waits for the texts it shows beyond the first part: the rest
 * (pages, drawers) unless told otherwise (the demo dialog needs only its own).
 */
export function withTexts<T>(load: () => Promise<T>, parts: readonly TextPart[] = ["rest"]): () => Promise<T> {
  return () => Promise.all([load(), texts(parts)]).then(([module]) => module);
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
  await loadParts(language, TEXT_PARTS);
  await i18n.changeLanguage(language);
}

export default i18n;
