/**
 * The browser loads each language's texts in three files (src/client/i18n/parts, issue 15): what
 * the first paint shows, the demo dialog's, and the rest. Together they must hold every text once,
 * exactly the texts tests and the pre-render use (resources.ts), or a page would show keys.
 */
import { describe, expect, it } from "vitest";
import { mergeTexts, translations, type TranslationTree } from "../../src/client/i18n/resources";
import { SUPPORTED_LANGUAGES } from "../../src/shared/constants";

const PARTS = ["first", "demo", "rest"] as const;

async function part(language: string, name: (typeof PARTS)[number]): Promise<TranslationTree[]> {
  return ((await import(`../../src/client/i18n/parts/${language}.${name}.ts`)) as { default: TranslationTree[] }).default;
}

describe("text parts", () => {
  it.each(SUPPORTED_LANGUAGES)("hold every %s text exactly once", async (language) => {
    const merged: TranslationTree = {};
    for (const name of PARTS) for (const tree of await part(language, name)) mergeTexts(merged, tree, `${language}.${name}`);
    expect(merged).toEqual(translations[language]);
  });

  it.each(SUPPORTED_LANGUAGES)(
    "give the first paint (%s) the frame's and the landing page's texts, and nothing of the pages",
    async (language) => {
      const first: TranslationTree = {};
      for (const tree of await part(language, "first")) mergeTexts(first, tree, "first");
      expect(Object.keys(first).sort()).toEqual([
        "common",
        "compare",
        "errorScreen",
        "flow",
        "footer",
        // Only the floating help button's label: the drawer's texts come with the drawer.
        "help",
        "home",
        "landing",
        // The footer's links to the studio's terms and privacy texts, and those pages' titles.
        "legal",
        "nav",
        // Only the label of a non-admin's small control in the footer (issue 27): the panel's texts come with the panel.
        "quickAdmin",
        "roomTypes",
        "styles",
      ]);
      expect(Object.keys(first.flow as TranslationTree).sort()).toEqual(["engineAi", "previewEngine", "previewEngineNote"]);
      expect(Object.keys(first.help as TranslationTree)).toEqual(["button"]);
      expect(Object.keys(first.quickAdmin as TranslationTree)).toEqual(["toggle"]);
    },
  );
});
