/**
 * The landing page as the build pre-rendered it (scripts/prerender.ts), one file per interface
 * language: the language the visitor chose (its cookie), else the first of Accept-Language we have,
 * else English. The client hydrates the page when it shows the same language, and draws it afresh
 * otherwise, so a wrong guess costs a repaint, never a wrong text.
 *
 * The pages carry two inline scripts (their theme and boot scripts, decision 056); the build lists
 * their SHA-256 in `prerendered/inline-scripts.json`, which the CSP allows.
 */
import fs from "node:fs";
import path from "node:path";
import type { Request } from "express";
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import { readCookie } from "./cookies";

const isLanguage = (value: unknown): value is Language => SUPPORTED_LANGUAGES.includes(value as Language);

/** The page's language for this request. */
export function pageLanguage(req: Request): Language {
  const chosen = readCookie(req, LANGUAGE_COOKIE);
  if (isLanguage(chosen)) return chosen;
  const ranked = (req.get("accept-language") ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(
        params
          .find((param) => param.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { primary: tag.toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.primary).find(isLanguage) ?? DEFAULT_LANGUAGE;
}

/** The pre-rendered landing page of each language found in the build (none in an older build). */
export function readPrerenderedLanding(clientDir: string): Map<Language, string> {
  const pages = new Map<Language, string>();
  for (const language of SUPPORTED_LANGUAGES) {
    const file = path.join(clientDir, "prerendered", language, "index.html");
    if (fs.existsSync(file)) pages.set(language, fs.readFileSync(file, "utf8"));
  }
  return pages;
}

/** The CSP sources (`'sha256-…'`) of the pre-rendered pages' inline scripts, as the build listed them (none in an older build). */
export function readInlineScriptHashes(clientDir: string): string[] {
  const file = path.join(clientDir, "prerendered", "inline-scripts.json");
  if (!fs.existsSync(file)) return [];
  const listed = (JSON.parse(fs.readFileSync(file, "utf8")) as { scriptSrc?: unknown }).scriptSrc;
  if (!Array.isArray(listed) || !listed.every((source) => typeof source === "string")) throw new Error(`${file} lists no scriptSrc`);
  return listed as string[];
}
