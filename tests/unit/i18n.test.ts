import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { translations } from "../../src/client/i18n/resources";

const { en, es, fr } = translations;
import { MESSAGES } from "../../src/shared/messages";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") entries.set(name, value);
    else for (const [child, text] of flatten(value, name)) entries.set(child, text);
  }
  return entries;
}

const languages = { en: flatten(en), es: flatten(es), fr: flatten(fr) };

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

describe("translations", () => {
  it.each(["es", "fr"] as const)("%s has exactly the keys of en", (language) => {
    const missing = [...languages.en.keys()].filter((key) => !languages[language].has(key));
    const extra = [...languages[language].keys()].filter((key) => !languages.en.has(key));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(Object.entries(languages))("%s has no empty text", (_language, entries) => {
    expect([...entries].filter(([, text]) => text.trim() === "").map(([key]) => key)).toEqual([]);
  });

  it("keeps interpolation placeholders the same in every language", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();
    for (const [key, text] of languages.en) {
      for (const language of ["es", "fr"] as const) {
        expect(placeholders(languages[language].get(key) ?? ""), `${language} ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it("has every key the client code uses", () => {
    const used = new Set<string>();
    // Keys held in constants: { label: "nav.features" }, { title: "landing.step1Title" }, in any namespace of en.json.
    const heldInConstants = new RegExp(`:\\s*"((?:${Object.keys(en).join("|")})\\.[a-zA-Z0-9_.]+)"`, "g");
    for (const file of sourceFiles("src/client")) {
      const code = fs.readFileSync(file, "utf8");
      for (const match of code.matchAll(/\bt\(\s*"([a-zA-Z0-9_.]+)"/g)) used.add(match[1]!);
      for (const match of code.matchAll(heldInConstants)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(20);
    // A key used with { count } exists as its plural forms (key_one, key_other) rather than itself.
    const exists = (key: string) => languages.en.has(key) || (languages.en.has(`${key}_one`) && languages.en.has(`${key}_other`));
    expect([...used].filter((key) => !exists(key))).toEqual([]);
  });

  it("has a page title and description for every planned page", () => {
    const source = fs.readFileSync("src/client/routes.tsx", "utf8");
    const planned = [...source.matchAll(/planned\("(\w+)"\)/g)].map((match) => match[1]!);
    expect(planned.length).toBeGreaterThan(0);
    for (const page of planned) {
      expect(languages.en.has(`pages.${page}.title`), page).toBe(true);
      expect(languages.en.has(`pages.${page}.description`), page).toBe(true);
    }
  });

  it("translates every server message, with English word for word as the server sends it", () => {
    for (const [name, text] of Object.entries(MESSAGES)) {
      expect(languages.en.get(`serverMessages.${name}`)).toBe(text);
    }
  });

  it("uses the spec's exact English texts", () => {
    expect(languages.en.get("common.loadingPage")).toBe("Loading page...");
    expect(languages.en.get("notFound.title")).toBe("Oops! Page not found");
    expect(languages.en.get("notFound.returnHome")).toBe("Return to Home");
    expect(languages.en.get("errorScreen.title")).toBe("Something went wrong");
    expect(languages.en.get("errorScreen.description")).toBe("We encountered an unexpected error. Please try refreshing the page.");
    expect(languages.en.get("errorScreen.refresh")).toBe("Refresh Page");
    expect(languages.en.get("nav.howItWorks")).toBe("How It Works");
    expect(languages.en.get("nav.signIn")).toBe("Sign In");
    expect(languages.en.get("landing.tryWithoutSignup")).toBe("Try Without Signup");
    expect(languages.en.get("landing.signUpForMore")).toBe("Sign Up for More");
  });
});

describe("texts by area", () => {
  it("refuses a key defined twice", async () => {
    const { mergeTexts } = await import("../../src/client/i18n/resources");
    expect(() => mergeTexts({ help: { title: "Help" } }, { help: { title: "Again" } }, "areas/help/en.json")).toThrow(
      "translation key help.title is defined twice (areas/help/en.json)",
    );
    expect(mergeTexts({ help: { title: "Help" } }, { help: { search: "Search" } }, "x")).toEqual({
      help: { title: "Help", search: "Search" },
    });
  });
});
