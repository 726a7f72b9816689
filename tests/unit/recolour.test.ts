/**
 * The Preview engine's exact recolour (issue 33) on raw pixels, at a size past which its mean light is
 * sampled: the region's mean colour is the target (ΔE 2000 under 1), each pixel keeps its share of
 * the light, and nothing outside the mask moves.
 */
import { describe, expect, it } from "vitest";
import { recolourPixels } from "../../src/server/images/recolour";
import { deltaE2000, labOfLinear, labOfRgb, LINEAR_OF_LEVEL, luminanceOfLinear, rgbOfHex, smartSelect } from "../../src/shared/paint";
import { paintedRoom } from "../helpers/painted-room";

describe("recolourPixels", () => {
  it.each([
    ["a studio picture (every pixel read)", 800, 600],
    ["a 4.3 MP photo (the mean light sampled)", 2400, 1800],
  ])("on %s: the wall's mean is the colour, its light kept, the rest untouched", (_, width, height) => {
    const studio = paintedRoom(800, 600);
    const wall = smartSelect({ width: 800, height: 600, data: studio.rgb, channels: 3 }, { x: 240, y: 270 });
    const mask = { data: Uint8Array.from(wall, (value) => (value ? 255 : 0)), width: 800, height: 600 };
    const photo = paintedRoom(width, height);
    const before = Uint8Array.from(photo.rgb);
    const after = Uint8Array.from(photo.rgb);
    recolourPixels(after, mask, { width, height }, "#c0765a");

    // Where the nearest mask pixel is painted, as recolourPixels reads it.
    const inMask = (x: number, y: number) =>
      wall[Math.floor(((y + 0.5) * 600) / height) * 800 + Math.floor(((x + 0.5) * 800) / width)] === 1;
    const sums = [0, 0, 0];
    let inside = 0;
    let changedOutside = 0;
    const light = (rgb: Uint8Array, p: number) =>
      luminanceOfLinear(LINEAR_OF_LEVEL[rgb[p]!]!, LINEAR_OF_LEVEL[rgb[p + 1]!]!, LINEAR_OF_LEVEL[rgb[p + 2]!]!);
    const ratios: number[] = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = (y * width + x) * 3;
        if (!inMask(x, y)) {
          if (after[p] !== before[p] || after[p + 1] !== before[p + 1] || after[p + 2] !== before[p + 2]) changedOutside++;
          continue;
        }
        for (let c = 0; c < 3; c++) sums[c]! += LINEAR_OF_LEVEL[after[p + c]!]!;
        inside++;
        if (x % 97 === 0 && y % 89 === 0) ratios.push(light(after, p) / light(before, p));
      }
    }
    expect(changedOutside).toBe(0);
    expect(inside).toBeGreaterThan(width * height * 0.2);
    const mean = labOfLinear(sums[0]! / inside, sums[1]! / inside, sums[2]! / inside);
    expect(deltaE2000(mean, labOfRgb(rgbOfHex("#c0765a")))).toBeLessThan(1);
    // Every pixel's light changed by one factor (the new paint's over the old one's), up to rounding.
    const factor = ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    for (const ratio of ratios) expect(Math.abs(ratio / factor - 1)).toBeLessThan(0.05);
  });
});
