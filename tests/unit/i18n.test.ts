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

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** A language's texts by name, a plural text once under its base name with the forms it has. */
function textNames(entries: Map<string, string>): Map<string, string[] | null> {
  const names = new Map<string, string[] | null>();
  for (const key of entries.keys()) {
    const form = PLURAL_SUFFIX.exec(key)?.[1];
    if (!form) names.set(key, null);
    else {
      const base = key.slice(0, -form.length - 1);
      names.set(`${base} (plural)`, [...(names.get(`${base} (plural)`) ?? []), form].sort());
    }
  }
  return names;
}

/** The plural forms i18next picks from in a language (Intl.PluralRules: en one/other; es and fr also many, for millions). */
const pluralForms = (language: string) => [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();

/** Texts nested in a text: $t(common.counts.credits, {"count": {{credits}} }). */
const nestedKeys = (text: string) => [...text.matchAll(/\$t\(([\w.-]+)/g)].map((match) => match[1]!);

/** Names (packages, engine makers, the style Japandi, SMTP, URL, npm's command) and units: the same in every language. */
const NAMES_AND_UNITS = [
  "Starter",
  "Pro",
  "Studio",
  "Replicate",
  "OpenAI",
  "Japandi",
  "SMTP",
  "URL",
  "Webhooks",
  "npm",
  "run",
  "backup",
  "px",
  "s",
  "h",
  "d",
  "min",
];

/**
 * Words Spanish and French write as English does, so a text made only of them may be the same as the
 * English one: names (packages, engine makers, the style Japandi, SMTP, URL, npm's command), units,
 * and words of the language itself ("render" is the Spanish word for a rendering: issue 17).
 */
const SAME_AS_ENGLISH: Record<"es" | "fr", readonly string[]> = {
  es: [
    ...NAMES_AND_UNITS,
    ...["Industrial", "Social", "Normal", "Error", "OK", "Render", "Renders", "render", "renders", "Personal", "Roles"],
  ],
  fr: [
    ...NAMES_AND_UNITS,
    ...["Social", "Normal", "OK", "Version", "Versions", "Notifications", "Contact", "Mobile", "Navigation", "Pause", "Photo"],
    ...["photo", "photos", "Mode", "Secret", "Licence", "Conversions", "Administration", "E-mail", "Logo", "Rectangle", "Style"],
    ...["style", "styles", "Pages", "Clients", "Client", "client", "clients", "Notes", "Invitations", "minute", "minutes"],
    ...["pixel", "pixels", "Description", "Palette", "Code", "Format", "Portrait"],
  ],
};

describe("translations", () => {
  it.each([
    ["en", "es"],
    ["en", "fr"],
    ["es", "fr"],
  ] as const)("%s and %s have the same texts (a key in one and not the other fails)", (one, other) => {
    const names = { [one]: textNames(languages[one]), [other]: textNames(languages[other]) };
    const onlyIn = (a: string, b: string) => [...names[a]!.keys()].filter((name) => !names[b]!.has(name));
    expect({ [`only in ${one}`]: onlyIn(one, other), [`only in ${other}`]: onlyIn(other, one) }).toEqual({
      [`only in ${one}`]: [],
      [`only in ${other}`]: [],
    });
  });

  it.each(["en", "es", "fr"] as const)("%s has each plural text in exactly the forms of its plural rules", (language) => {
    const wrong = [...textNames(languages[language])].filter(([, forms]) => forms && forms.join() !== pluralForms(language).join());
    expect(wrong.map(([name, forms]) => `${name}: ${forms!.join(", ")}`)).toEqual([]);
  });

  it.each(["en", "es", "fr"] as const)("%s nests only texts that exist, as plurals", (language) => {
    const entries = languages[language];
    const missing: string[] = [];
    for (const [key, text] of entries) {
      for (const nested of nestedKeys(text))
        if (!entries.has(nested) && !entries.has(`${nested}_other`)) missing.push(`${key} → ${nested}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(Object.entries(languages))("%s has no empty text", (_language, entries) => {
    expect([...entries].filter(([, text]) => text.trim() === "").map(([key]) => key)).toEqual([]);
  });

  it.each(["es", "fr"] as const)("%s says in its own words every text English says, but for words it shares with English", (language) => {
    const shared = new Set(SAME_AS_ENGLISH[language]);
    // A text's words, without what is not a word to translate: {{values}}, nested $t(…) texts, digits.
    const words = (text: string) =>
      text
        .replace(/\$t\([^)]*\)/g, " ")
        .replace(/\{\{[^}]*\}\}/g, " ")
        .split(/[^\p{L}+-]+/u)
        .filter((word) => /\p{L}/u.test(word));
    const untranslated = [...languages[language]]
      .filter(([key, text]) => languages.en.get(key) === text)
      .filter(([, text]) => words(text).some((word) => !shared.has(word)));
    expect(untranslated.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });

  it("keeps interpolation placeholders the same in every language", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*[,}]/g)].map((match) => match[1]).sort();
    for (const [key, text] of languages.en) {
      for (const language of ["es", "fr"] as const) {
        expect(placeholders(languages[language].get(key) ?? ""), `${language} ${key}`).toEqual(placeholders(text));
      }
    }
    // The forms English does not have (es/fr "many") say what their "other" says.
    for (const language of ["es", "fr"] as const) {
      for (const [key, text] of languages[language]) {
        if (key.endsWith("_many"))
          expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(languages.en.get(key.replace(/_many$/, "_other"))!));
      }
    }
  });

  it("says a number's noun in the number's plural form (issue 17: not '1 fallidos', '1 échoués')", async () => {
    const { default: i18next } = await import("i18next");
    const i18n = i18next.createInstance();
    await i18n.init({
      resources: { en: { translation: en }, es: { translation: es }, fr: { translation: fr } },
      lng: "en",
      interpolation: { escapeValue: false },
    });
    const say = (language: string, key: string, options: Record<string, unknown>) => i18n.getFixedT(language)(key, options);
    expect(say("es", "selfTest.summary", { passed: 3, failed: 1 })).toBe("3 superadas, 1 fallida");
    expect(say("fr", "selfTest.summary", { passed: 1, failed: 0 })).toBe("1 réussi, 0 échoué");
    expect(say("fr", "selfTest.summary", { passed: 2, failed: 2 })).toBe("2 réussis, 2 échoués");
    expect(say("en", "selfTest.summary", { passed: 1, failed: 1 })).toBe("1 passed, 1 failed");
    expect(say("es", "performance.rendersHint", { succeeded: 1, failed: 1 })).toBe("1 completado, 1 fallido");
    expect(say("en", "admin.users.creditsAdjusted", { email: "a@b.c", credits: 1 })).toBe("a@b.c now has 1 credit");
    expect(say("fr", "admin.users.creditsAdjusted", { email: "a@b.c", credits: 12345 })).toBe("a@b.c a maintenant 12\u202f345 crédits");
    // A million takes "de" in French and Spanish (Intl.PluralRules "many"), instead of i18next showing the key.
    expect(say("es", "flow.signUpBenefits", { credits: 1_000_000 })).toContain("1.000.000 de créditos gratis");
    expect(say("fr", "dashboard.renderCount", { count: 1_000_000 })).toBe("1000000 rendus");
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
