/**
 * The studio's pictures: the server's mask check (either form a canvas makes: white on black, or
 * opaque strokes on a transparent canvas) and the composite that keeps everything outside the mask.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { compositeEdit } from "../../src/server/images/composite";
import { checkMask, pngFromDataUrl } from "../../src/server/images/mask";
import { EDIT } from "../../src/shared/edits";

const SIZE = { width: 400, height: 300 };

function strokes(background: string, fill: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="100%" height="100%" fill="${background}"/><circle cx="200" cy="150" r="60" fill="${fill}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe("checkMask", () => {
  it("reads white on black and opaque strokes on transparency alike, and stores a binary greyscale PNG", async () => {
    for (const png of [await strokes("#000", "#fff"), await strokes("none", "#ff3366")]) {
      const checked = await checkMask(png, SIZE);
      if (!checked.ok) throw new Error(checked.reason);
      // π · 60² ≈ 11,310 px painted, give or take the anti-aliased edge.
      expect(checked.painted).toBeGreaterThan(11_000);
      expect(checked.painted).toBeLessThan(11_700);
      expect((await sharp(checked.mask).metadata()).channels).toBe(1);
      const data = await sharp(checked.mask).extractChannel(0).raw().toBuffer();
      expect(new Set(data)).toEqual(new Set([0, 255]));
    }
  });

  it("refuses what is not a PNG data URL, another size, too little and too much", async () => {
    expect(pngFromDataUrl("data:image/jpeg;base64,/9j/4AAQ")).toBeNull();
    expect(pngFromDataUrl(`data:image/png;base64,${Buffer.from("GIF89a").toString("base64")}`)).toBeNull();
    expect(await checkMask(null, SIZE)).toEqual({ ok: false, reason: "maskNotPng" });
    const damaged = (await strokes("#000", "#fff")).subarray(0, 60);
    expect(await checkMask(damaged, SIZE)).toEqual({ ok: false, reason: "maskNotPng" });
    expect(await checkMask(await strokes("#000", "#fff"), { width: 401, height: 300 })).toEqual({ ok: false, reason: "maskWrongSize" });
    const dot = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="100%" height="100%"/><rect x="5" y="5" width="10" height="10" fill="#fff"/></svg>`,
      ),
    )
      .png()
      .toBuffer();
    expect(await checkMask(dot, SIZE)).toEqual({ ok: false, reason: "maskTooSmall" });
    expect(await checkMask(await strokes("#fff", "#fff"), SIZE)).toEqual({ ok: false, reason: "maskTooLarge" });
    expect(EDIT.maskMaxPaintedShare).toBeLessThan(1);
  });
});

describe("compositeEdit", () => {
  it("keeps the source outside the mask, takes the engine's answer inside, and fades over a few pixels at the edge", async () => {
    const source = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#c0a080" } })
      .png()
      .toBuffer();
    // The engine answered at another size with another colour everywhere.
    const answer = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#204060" } })
      .jpeg()
      .toBuffer();
    const mask = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="100%" height="100%"/><rect x="100" y="100" width="200" height="100" fill="#fff"/></svg>`,
      ),
    )
      .png()
      .toBuffer();
    const { data, info } = await sharp(await compositeEdit(source, answer, mask))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([400, 300]);
    const red = (x: number, y: number) => data[(y * 400 + x) * info.channels]!;
    expect(red(20, 20)).toBe(0xc0);
    expect(red(100 - 2 * EDIT.featherPx, 150)).toBe(0xc0);
    expect(Math.abs(red(200, 150) - 0x20)).toBeLessThanOrEqual(2);
    // On the edge itself: in between.
    expect(red(100, 150)).toBeGreaterThan(0x30);
    expect(red(100, 150)).toBeLessThan(0xb0);
  });
});
