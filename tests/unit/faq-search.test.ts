/**
 * The help drawer's FAQ (spec section 2): eleven categories in order, real entries in every
 * language, and the search: case-insensitive over question, answer and category, in the texts of
 * the language shown.
 */
import i18next, { type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildFaqEntries,
  FAQ_CATEGORIES,
  FAQ_ENTRIES,
  foldForSearch,
  groupFaqs,
  searchFaqs,
  type FaqEntry,
} from "../../src/client/lib/faq";
import { translations } from "../../src/client/i18n/resources";
import { SUPPORTED_LANGUAGES, type Language } from "../../src/shared/constants";

const EMAIL = "help@studio.example";
const entries = {} as Record<Language, FaqEntry[]>;
const renamed = {} as Record<Language, FaqEntry[]>;

beforeAll(async () => {
  for (const language of SUPPORTED_LANGUAGES) {
    const instance = i18next.createInstance();
    await instance.init({
      lng: language,
      resources: { [language]: { translation: translations[language] } },
      interpolation: { escapeValue: false },
    });
    entries[language] = buildFaqEntries(instance.t as TFunction, EMAIL);
    renamed[language] = buildFaqEntries(instance.t as TFunction, EMAIL, false, "Casa Nova Interiors");
  }
});

const ids = (list: FaqEntry[]) => list.map((entry) => entry.id);

describe("the FAQ entries", () => {
  it("names a renamed studio by its name, in every language (issue 27)", () => {
    for (const language of SUPPORTED_LANGUAGES) {
      const texts = renamed[language].flatMap((entry) => [entry.question, entry.answer]).join("\n");
      expect(texts, language).not.toContain("RoomCanvas");
      expect(texts, language).toContain("Casa Nova Interiors");
    }
    expect(renamed.en.find((entry) => entry.question.startsWith("What does"))?.question).toBe("What does Casa Nova Interiors do?");
  });

  it("finds two-factor by the short forms people type, and the photo-size answer gives the minimum side and ratio, in every language (issue 27)", () => {
    for (const language of SUPPORTED_LANGUAGES) {
      for (const term of ["2FA", "mfa", "TOTP"])
        expect(ids(searchFaqs(entries[language], term)), `${language} ${term}`).toContain("account.twoFactor");
      // Keywords are searched, never shown.
      expect(entries[language].find((entry) => entry.id === "account.twoFactor")!.answer).not.toContain("MFA");
      const size = entries[language].find((entry) => entry.id === "upload.size")!.answer;
      expect(size, language).toContain("100");
      expect(size, language).toContain({ en: "10 times", es: "10 veces", fr: "10 fois" }[language]);
      expect(ids(searchFaqs(entries[language], "px")), language).toContain("upload.size");
    }
    expect(ids(searchFaqs(entries.fr, "A2F"))).toContain("account.twoFactor");
  });

  it("has the spec's eleven categories in order, each with at least two entries", () => {
    expect(FAQ_CATEGORIES).toEqual([
      "gettingStarted",
      "upload",
      "rendering",
      "credits",
      "projects",
      "teams",
      "billing",
      "troubleshooting",
      "mobile",
      "account",
      "licensing",
    ]);
    for (const category of FAQ_CATEGORIES) expect(FAQ_ENTRIES[category].length, category).toBeGreaterThanOrEqual(2);
    expect(groupFaqs(entries.en).map((group) => group.label)).toEqual([
      "Getting Started",
      "Upload",
      "Rendering",
      "Credits",
      "Projects",
      "Teams",
      "Billing",
      "Troubleshooting",
      "Mobile",
      "Account",
      "Licensing",
    ]);
  });

  it.each(SUPPORTED_LANGUAGES)("has a real question and answer for every entry in %s, with the values filled in", (language) => {
    for (const entry of entries[language]) {
      expect(entry.question, entry.id).not.toMatch(/^help\.|\{\{|\}\}/);
      expect(entry.answer, entry.id).not.toMatch(/^help\.|\{\{|\}\}/);
      expect(entry.answer.length, entry.id).toBeGreaterThan(40);
      expect(entry.categoryLabel, entry.id).not.toMatch(/^help\./);
    }
  });

  it("states the product's facts", () => {
    const answer = (id: string) => entries.en.find((entry) => entry.id === id)!.answer;
    expect(answer("upload.formats")).toContain("JPEG (.jpg, .jpeg) and PNG (.png)");
    expect(answer("upload.size")).toContain("10 MB");
    expect(answer("upload.size")).toContain("40 megapixels");
    expect(answer("credits.howMany")).toContain("10 free credits");
    expect(answer("credits.expire")).toContain("never expire");
    expect(answer("credits.failed")).toMatch(/not charged.*returned/);
    expect(answer("billing.refunds")).toContain("within 30 days of purchase");
    expect(answer("billing.refunds")).toContain(EMAIL);
    expect(answer("teams.roles")).toMatch(/Owner.*full control.*Admin.*members and clients.*Member.*views and creates projects/);
    expect(answer("teams.available")).toMatch(/Teams page.*invite people by e-mail/);
    expect(answer("licensing.free")).toContain("personal use only");
    expect(answer("licensing.commercial")).toMatch(/Pro and Studio/);
    expect(answer("account.twoFactor")).toContain("Settings");
    // Built without an engine: the Preview engine's answer (nothing claims AI before the server says so).
    expect(answer("rendering.engine")).toContain("Preview engine, which is not AI");
    expect(answer("troubleshooting.renderFailed")).toMatch(/poor-quality image and network problems/);
    expect(answer("gettingStarted.languages")).toMatch(/English, Spanish and French/);
  });
});

describe("searchFaqs", () => {
  it("gives every entry, in order, for a blank term", () => {
    expect(searchFaqs(entries.en, "")).toEqual(entries.en);
    expect(searchFaqs(entries.en, "   ")).toEqual(entries.en);
  });

  it("finds only the entries that mention the term, in question, answer or category", () => {
    const found = searchFaqs(entries.en, "credits");
    expect(found.length).toBeGreaterThan(3);
    expect(found.length).toBeLessThan(entries.en.length);
    for (const entry of found) expect(`${entry.question} ${entry.answer} ${entry.categoryLabel}`.toLowerCase()).toContain("credits");
    const missed = entries.en.filter((entry) => !found.includes(entry));
    for (const entry of missed) expect(`${entry.question} ${entry.answer} ${entry.categoryLabel}`.toLowerCase()).not.toContain("credits");
    // Every entry of the Credits category, by its name.
    expect(ids(found)).toEqual(expect.arrayContaining(FAQ_ENTRIES.credits.map((entry) => `credits.${entry}`)));
  });

  it("ignores case", () => {
    expect(ids(searchFaqs(entries.en, "CREDITS"))).toEqual(ids(searchFaqs(entries.en, "credits")));
    expect(ids(searchFaqs(entries.en, "JpEg"))).toEqual(ids(searchFaqs(entries.en, "jpeg")));
  });

  it("matches the category name alone", () => {
    const found = searchFaqs(entries.en, "licensing");
    expect(ids(found)).toEqual(expect.arrayContaining(FAQ_ENTRIES.licensing.map((entry) => `licensing.${entry}`)));
  });

  it("needs every word of the term, wherever they are", () => {
    expect(ids(searchFaqs(entries.en, "refund 30 days"))).toEqual(["billing.refunds"]);
    expect(searchFaqs(entries.en, "refund zzz")).toEqual([]);
  });

  it("finds nothing for a term nothing contains", () => {
    expect(searchFaqs(entries.en, "zzz")).toEqual([]);
    expect(searchFaqs(entries.es, "zzz")).toEqual([]);
  });

  it("searches the texts of the language shown", () => {
    const es = searchFaqs(entries.es, "créditos");
    expect(es.length).toBeGreaterThan(3);
    for (const entry of es) expect(foldForSearch(`${entry.question} ${entry.answer} ${entry.categoryLabel}`)).toContain("creditos");
    // The English word is not in the Spanish texts.
    expect(searchFaqs(entries.es, "refund")).toEqual([]);
    expect(searchFaqs(entries.fr, "remboursé").map((entry) => entry.id)).toContain("billing.refunds");
  });

  it("ignores accents too, so a term typed without them still finds", () => {
    expect(ids(searchFaqs(entries.es, "creditos"))).toEqual(ids(searchFaqs(entries.es, "CRÉDITOS")));
    expect(ids(searchFaqs(entries.fr, "equipe"))).toEqual(ids(searchFaqs(entries.fr, "équipe")));
  });
});

describe("groupFaqs", () => {
  it("keeps category order and leaves out empty categories", () => {
    const groups = groupFaqs(searchFaqs(entries.en, "refund"));
    expect(groups.map((group) => group.category)).toEqual([...new Set(searchFaqs(entries.en, "refund").map((entry) => entry.category))]);
    expect(groupFaqs(entries.es).map((group) => group.label)[3]).toBe("Créditos");
  });
});
