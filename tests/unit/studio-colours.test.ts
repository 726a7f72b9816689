/** The accent colour's palette and its WCAG AA check in both themes (/admin → Studio, issue 16). */
import { describe, expect, it } from "vitest";
import { accentContrast, brandPalette, contrastRatio, DEFAULT_ACCENT, studioCss } from "../../src/shared/studio";

const failing = (accent: string) =>
  accentContrast(accent)
    .checks.filter((check) => !check.ok)
    .map((check) => `${check.theme}:${check.pair}`);

describe("accent colour", () => {
  it("measures contrast as WCAG does", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  });

  it("accepts the shipped indigo and a deep teal in both themes", () => {
    expect(accentContrast(DEFAULT_ACCENT).ok).toBe(true);
    expect(accentContrast("#0f766e").ok).toBe(true);
  });

  it("refuses a yellow in both themes (white text on it) and a near-black in the dark theme only (its focus ring)", () => {
    expect(failing("#facc15")).toEqual(expect.arrayContaining(["light:buttonText", "light:linkOnPage", "dark:buttonText"]));
    expect(failing("#111111")).toEqual(["dark:focusRing"]);
  });

  it("makes the theme's shades around the accent itself, lighter to darker", () => {
    const palette = brandPalette("#0F766E");
    expect(palette["600"]).toBe("#0f766e");
    const lightness = (hex: string) => contrastRatio(hex, "#000000");
    expect(lightness(palette["50"])).toBeGreaterThan(lightness(palette["100"]));
    expect(lightness(palette["100"])).toBeGreaterThan(lightness(palette["500"]));
    expect(lightness(palette["500"])).toBeGreaterThan(lightness(palette["600"]));
    expect(lightness(palette["600"])).toBeGreaterThan(lightness(palette["700"]));
    for (const color of Object.values(palette)) expect(color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("sends no CSS for the shipped look, the variables for another accent, and the logo in place of the mark", () => {
    expect(studioCss({ accentColor: DEFAULT_ACCENT, logo: null })).toBe("");
    expect(studioCss({ accentColor: "#0f766e", logo: null })).toMatch(/^:root\{--color-brand-50:#[0-9a-f]{6};.*--color-brand-600:#0f766e;/);
    expect(studioCss({ accentColor: DEFAULT_ACCENT, logo: { url: "/studio/logo?v=abc", width: 10, height: 10 } })).toBe(
      '.brand-mark-default{display:none}.brand-mark-logo{display:block;background:url("/studio/logo?v=abc") center/contain no-repeat}',
    );
  });
});
