/**
 * The one rule for claims about the render engine (src/client/lib/engineCopy.ts): the spec's AI
 * wording only with an AI engine, an honest alternative with the Preview engine, in every
 * language; and the sums that size a before/after frame from its picture (lib/pictureFrame.ts).
 */
import i18next, { type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { translations, type TranslationTree } from "../../src/client/i18n/resources";
import { engineTextKey, isEngineClaimKey, PREVIEW_ALTERNATIVES } from "../../src/client/lib/engineCopy";
import { buildFaqEntries } from "../../src/client/lib/faq";
import { FALLBACK_SIZE, pictureFrameStyle, pictureSize } from "../../src/client/lib/pictureFrame";
import { SUPPORTED_LANGUAGES, type Language } from "../../src/shared/constants";

function text(language: Language, key: string): string | undefined {
  let node: string | TranslationTree | undefined = translations[language];
  for (const part of key.split(".")) node = typeof node === "object" ? node[part] : undefined;
  return typeof node === "string" ? node : undefined;
}

/** Words that claim AI, or what only an AI engine does, in each language. */
const AI_CLAIMS: Record<Language, RegExp> = {
  en: /magic|photorealistic|transforms your space|30-second|AI-generated|AI-powered/i,
  es: /magia|fotorrealista|transforma tu espacio|en 30 segundos|generado por IA|impulsado por IA/i,
  fr: /magie|photoréaliste|transforme votre espace|en 30 secondes|généré par IA|propulsé par l'IA/i,
};

describe("engineTextKey", () => {
  it("keeps the AI wording with an AI engine, and gives its alternative with the Preview engine or before the engine is known", () => {
    expect(engineTextKey("demo.steps.magic", true)).toBe("demo.steps.magic");
    expect(engineTextKey("demo.steps.magic", false)).toBe("demo.preview.magic");
    expect(engineTextKey("demo.steps.magic", undefined)).toBe("demo.preview.magic");
    expect(engineTextKey("demo.reasons.quality", false)).toBe("demo.preview.quality");
  });

  it("leaves a text that claims nothing about the engine as it is", () => {
    expect(isEngineClaimKey("demo.steps.upload")).toBe(false);
    expect(engineTextKey("demo.steps.upload", false)).toBe("demo.steps.upload");
    expect(engineTextKey("landing.title", true)).toBe("landing.title");
  });
});

describe("the AI wording and its alternatives", () => {
  const pairs = Object.entries(PREVIEW_ALTERNATIVES);

  it.each(SUPPORTED_LANGUAGES)("has both texts of every pair in %s, different from each other", (language) => {
    for (const [ai, preview] of pairs) {
      expect(text(language, ai), `${language} ${ai}`).toBeTruthy();
      expect(text(language, preview), `${language} ${preview}`).toBeTruthy();
      expect(text(language, preview), `${language} ${preview}`).not.toBe(text(language, ai));
    }
  });

  it.each(SUPPORTED_LANGUAGES)("claims no AI and no photorealism in the Preview engine's texts in %s", (language) => {
    for (const preview of Object.values(PREVIEW_ALTERNATIVES)) {
      expect(text(language, preview), `${language} ${preview}`).not.toMatch(AI_CLAIMS[language]);
    }
  });

  it("holds the spec's English words under the AI keys", () => {
    expect(text("en", "demo.steps.magic")).toBe("AI Magic Happens");
    expect(text("en", "demo.steps.magicBody")).toBe("{{product}} transforms your space in 30 seconds");
    expect(text("en", "demo.badgeAfter")).toBe("AFTER - 30 seconds");
    expect(text("en", "demo.reasons.fast")).toBe("30-second rendering");
    expect(text("en", "demo.reasons.quality")).toBe("Photorealistic quality");
  });

  it("says plainly, in every language, that the Preview engine is not AI", () => {
    const notAi: Record<Language, RegExp> = { en: /it is not AI/, es: /no es IA/, fr: /ce n'est pas de l'IA/ };
    for (const language of SUPPORTED_LANGUAGES) {
      expect(text(language, "demo.preview.magicBody"), language).toMatch(notAi[language]);
    }
    expect(text("en", "demo.preview.magic")).toBe("Preview grading");
    expect(text("en", "demo.preview.magicBody")).toBe(
      "The Preview engine grades colours and light in the style — it is not AI; connect an AI engine for full redesigns",
    );
  });
});

describe("the FAQ answers that depend on the engine", () => {
  it.each(SUPPORTED_LANGUAGES)("answers 'Is the rendering done by AI?' for the engine this server runs, in %s", async (language) => {
    const instance = i18next.createInstance();
    await instance.init({
      lng: language,
      resources: { [language]: { translation: translations[language] } },
      interpolation: { escapeValue: false },
    });
    const answer = (isAi: boolean | undefined, id: string) =>
      buildFaqEntries(instance.t as TFunction, "help@studio.example", isAi).find((entry) => entry.id === id)!.answer;
    expect(answer(false, "rendering.engine")).toBe(text(language, "help.faqPreview.engine"));
    expect(answer(undefined, "rendering.engine")).toBe(text(language, "help.faqPreview.engine"));
    expect(answer(true, "rendering.engine")).toBe(text(language, "help.faq.rendering.engine.a"));
    expect(answer(false, "rendering.howLong")).toBe(text(language, "help.faqPreview.howLong"));
    expect(answer(true, "rendering.howLong")).toBe(text(language, "help.faq.rendering.howLong.a"));
    // Answers that do not depend on the engine are the same either way.
    expect(answer(false, "credits.expire")).toBe(answer(true, "credits.expire"));
  });
});

describe("pictureFrameStyle", () => {
  it("gives the frame the picture's own aspect ratio, as wide as the space unless that is taller than the limit", () => {
    expect(pictureFrameStyle({ width: 600, height: 1000 }, "70vh")).toEqual({
      aspectRatio: "600 / 1000",
      width: "min(100%, calc(70vh * 0.6))",
    });
    expect(pictureFrameStyle({ width: 2000, height: 700 }, "24rem")).toEqual({
      aspectRatio: "2000 / 700",
      width: "min(100%, calc(24rem * 2.857143))",
    });
    expect(pictureFrameStyle({ width: 512, height: 512 }, "70vh").aspectRatio).toBe("512 / 512");
  });

  it("takes 4:3 while the picture's size is unknown", () => {
    expect(FALLBACK_SIZE).toEqual({ width: 4, height: 3 });
    expect(pictureFrameStyle(null, "70vh")).toEqual({ aspectRatio: "4 / 3", width: "min(100%, calc(70vh * 1.333333))" });
  });

  it("accepts only a real size", () => {
    expect(pictureSize(600, 1000)).toEqual({ width: 600, height: 1000 });
    for (const [width, height] of [
      [0, 100],
      [100, 0],
      [null, 100],
      [undefined, 100],
      [-5, 10],
      [Number.NaN, 10],
      [Number.POSITIVE_INFINITY, 10],
    ] as const) {
      expect(pictureSize(width, height), `${width}×${height}`).toBeNull();
    }
  });
});
