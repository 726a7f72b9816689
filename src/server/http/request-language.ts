import type { Request } from "express";
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, UI_LANGUAGE_HEADER, type Language } from "../../shared/constants";

/** The interface language a request came from: the client's header, else Accept-Language, else en. */
export function requestLanguage(req: Request): Language {
  const chosen = req.get(UI_LANGUAGE_HEADER);
  if (chosen && (SUPPORTED_LANGUAGES as readonly string[]).includes(chosen)) return chosen as Language;
  const accepted = req.acceptsLanguages(...SUPPORTED_LANGUAGES);
  return typeof accepted === "string" ? (accepted as Language) : DEFAULT_LANGUAGE;
}
