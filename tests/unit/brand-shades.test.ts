/**
 * The brand colour's shades the interface may use are those the theme defines (styles.css) and the
 * studio's accent palette makes (brandPalette): a class naming another shade (brand-950, brand-300)
 * is generated as nothing, and a checked option in the dark theme kept a light background under white
 * text (found on the exterior style page, issue 33).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { brandPalette } from "../../src/shared/studio";

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : /\.(tsx?|css)$/.test(entry.name) ? [full] : [];
  });
}

describe("brand shades", () => {
  it("are only those the theme and the accent's palette define", () => {
    const css = fs.readFileSync("src/client/styles.css", "utf8");
    const themed = new Set([...css.matchAll(/--color-brand-(\d+):/g)].map((match) => match[1]!));
    const generated = new Set(Object.keys(brandPalette("#4f46e5")));
    expect([...themed].sort()).toEqual([...generated].sort());
    const unknown: string[] = [];
    for (const file of files("src/client")) {
      for (const match of fs.readFileSync(file, "utf8").matchAll(/\bbrand-(\d+)\b/g)) {
        if (!themed.has(match[1]!)) unknown.push(`${file}: brand-${match[1]}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
