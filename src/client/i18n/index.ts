/**
 * Interface languages (spec section 9): the browser's language when supported, else English;
 * a language the user picks is stored on the device and wins from then on.
 */
import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, STORAGE_KEYS, SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import { translations } from "./resources";

export const resources = {
  en: { translation: translations.en },
  es: { translation: translations.es },
  fr: { translation: translations.fr },
} as const;

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: "languageOnly",
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false },
    returnNull: false,
    detection: {
      order: ["localStorage", "navigator"],
      lookupLocalStorage: STORAGE_KEYS.language,
      // Only an explicit choice is stored (see chooseLanguage), not what was detected.
      caches: [],
    },
  });

function syncDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}
syncDocumentLanguage(currentLanguage());
i18n.on("languageChanged", syncDocumentLanguage);

export function currentLanguage(): Language {
  const resolved = (i18n.resolvedLanguage ?? DEFAULT_LANGUAGE) as Language;
  return SUPPORTED_LANGUAGES.includes(resolved) ? resolved : DEFAULT_LANGUAGE;
}

/** Switches the interface language and remembers the choice on this device. */
export async function chooseLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEYS.language, language);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts for this visit.
  }
  await i18n.changeLanguage(language);
}

export default i18n;
