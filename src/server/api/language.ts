/**
 * The language of the API's messages (decision 096): an Accept-Language naming one of ours wins
 * (a wildcard alone does not: HTTP clients send `*` by default); else the key's language, its maker's
 * when it was made; else English. Only `message` is translated: `code` is what programs branch on.
 */
import type { Request, Response } from "express";
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import { localText } from "../i18n/server-messages";

/** The language an Accept-Language header names among ours, or null (none, or only a wildcard). */
export function acceptedLanguage(req: Request): Language | null {
  const header = req.get("accept-language")?.trim();
  if (!header || header === "*") return null;
  const named = header.split(",").map((part) => part.split(";")[0]!.trim().toLowerCase());
  if (!named.some((tag) => (SUPPORTED_LANGUAGES as readonly string[]).includes(tag.split("-")[0]!))) return null;
  const accepted = req.acceptsLanguages(...SUPPORTED_LANGUAGES);
  return typeof accepted === "string" ? (accepted as Language) : null;
}

/** Remembers the caller's language for every answer to this request (set once the key is known). */
export function useLanguage(req: Request, res: Response, keyLanguage: Language): void {
  res.locals.apiLanguage = acceptedLanguage(req) ?? keyLanguage;
}

/** A message (a known English text or a keyed one) in the language of this request's answers. */
export function inLanguageOf(res: Response, message: string): string {
  const language = (res.locals.apiLanguage as Language | undefined) ?? (res.req ? acceptedLanguage(res.req) : null) ?? DEFAULT_LANGUAGE;
  return localText(message, language);
}
