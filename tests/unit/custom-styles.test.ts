/**
 * Custom styles (issue 32, decision 101): what their input accepts and refuses, and how a render's
 * snapshot of one reaches the prompts (its description in place of a built-in style's words, what it
 * avoids among the negative prompt's words; decluttering leaves the style out).
 */
import { describe, expect, it } from "vitest";
import { CUSTOM_STYLES, customStyleInputSchema } from "../../src/shared/custom-styles";
import { MESSAGES } from "../../src/shared/messages";
import { buildInstructionPrompt, buildNegativePrompt, buildPrompt } from "../../src/server/render/engines/prompt";
import { customStyleSnapshot } from "../helpers/custom-style";

const valid = { name: "Casa Azul", description: "cobalt tiles and whitewashed plaster", palette: ["#1F4E9C"], tone: "bold" };
const refusal = (input: Record<string, unknown>) => {
  const parsed = customStyleInputSchema.safeParse({ ...valid, ...input });
  return parsed.success ? null : parsed.error.issues.map((issue) => issue.message);
};

describe("a custom style's input", () => {
  it("accepts a style and tidies it: one line of text, colours in lower case, nothing to avoid by default", () => {
    expect(
      customStyleInputSchema.parse({ ...valid, name: "  Casa\n Azul ", description: "cobalt tiles\tand  whitewashed plaster" }),
    ).toEqual({
      ...valid,
      name: "Casa Azul",
      palette: ["#1f4e9c"],
      avoid: "",
    });
  });

  it("refuses each field past its limit with its own message", () => {
    expect(refusal({ name: " " })).toEqual([MESSAGES.customStyleNameRequired]);
    expect(refusal({ name: "x".repeat(CUSTOM_STYLES.nameMax + 1) })).toEqual([MESSAGES.customStyleNameTooLong]);
    expect(refusal({ description: "too short" })).toEqual([MESSAGES.customStyleDescriptionTooShort]);
    expect(refusal({ description: "x".repeat(CUSTOM_STYLES.descriptionMax + 1) })).toEqual([MESSAGES.customStyleDescriptionTooLong]);
    expect(refusal({ avoid: "x".repeat(CUSTOM_STYLES.avoidMax + 1) })).toEqual([MESSAGES.customStyleAvoidTooLong]);
    expect(refusal({ palette: [] })).toEqual([MESSAGES.customStylePaletteInvalid]);
    expect(refusal({ palette: Array(CUSTOM_STYLES.paletteMax + 1).fill("#ffffff") })).toEqual([MESSAGES.customStylePaletteInvalid]);
    expect(refusal({ palette: ["blue"] })).toEqual([MESSAGES.customStylePaletteInvalid]);
    expect(refusal({ tone: "sunny" })).toEqual([MESSAGES.customStyleToneInvalid]);
    expect(refusal({ name: "x".repeat(CUSTOM_STYLES.nameMax) })).toBeNull();
  });
});

describe("a custom style in the prompts", () => {
  const snapshot = customStyleSnapshot({ avoid: "chrome,\nglossy plastic" });
  const choices = { style: snapshot.id, customStyle: snapshot, roomType: "kitchen", mode: "room-photo" } as const;

  it("says the style's name and description where a built-in style's words would be", () => {
    expect(buildPrompt(choices)).toContain(
      `A photorealistic photo of this kitchen, redesigned in the "Casa Azul" style: ${snapshot.description}.`,
    );
    expect(buildPrompt({ ...choices, renderMode: "stage" })).toContain(`furnished and decorated in the "Casa Azul" style`);
  });

  it("adds what it avoids, on one line, to the negative prompt and the instruction's Avoid; not when decluttering", () => {
    expect(buildNegativePrompt("room-photo", "redesign", "eye-level", snapshot)).toMatch(/, oversaturated, chrome, glossy plastic$/);
    expect(buildInstructionPrompt(choices)).toMatch(/ Avoid: .*, chrome, glossy plastic\.$/);
    expect(buildNegativePrompt("room-photo", "declutter", "eye-level", snapshot)).not.toContain("chrome");
    expect(buildNegativePrompt("room-photo", "redesign", "eye-level", customStyleSnapshot({ avoid: "" }))).toMatch(/oversaturated$/);
  });

  it("refuses to render a custom style without its snapshot instead of guessing", () => {
    expect(() => buildPrompt({ ...choices, customStyle: undefined })).toThrow(/no snapshot/);
  });
});
