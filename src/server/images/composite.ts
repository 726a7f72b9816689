/**
 * An edit's result, composited so that only the painted region changes: whatever the engine
 * returned outside the mask, those pixels are the source picture's. The mask's edge is feathered
 * over a few pixels so the repaint blends in; beyond about twice that distance the source is exact
 * (up to the rounding of one blend).
 */
import sharp from "sharp";
import { EDIT } from "../../shared/edits";

/**
 * `source` (any format sharp reads, upright) with `result` (resized onto it) shown where `mask`
 * (greyscale, 255 = change, the source's size) is painted. PNG: lossless, so a chain of edits does
 * not lose quality outside each region.
 */
export async function compositeEdit(source: Buffer, result: Buffer, mask: Buffer, featherPx: number = EDIT.featherPx): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(source).metadata();
  const [base, repaint, alpha] = await Promise.all([
    sharp(source).removeAlpha().toColourspace("srgb").raw().toBuffer(),
    sharp(result).flatten({ background: "#ffffff" }).resize(width, height, { fit: "fill" }).toColourspace("srgb").raw().toBuffer(),
    // σ = feather / 2: the weight falls to about 2 % at the feather's distance outside the mask.
    sharp(mask)
      .resize(width, height, { fit: "fill" })
      .greyscale()
      .blur(Math.max(0.3, featherPx / 2))
      .raw()
      .toBuffer(),
  ]);
  const out = Buffer.alloc(width * height * 3);
  for (let i = 0, p = 0; i < width * height; i++, p += 3) {
    const a = alpha[i]!;
    if (a === 0) {
      out[p] = base[p]!;
      out[p + 1] = base[p + 1]!;
      out[p + 2] = base[p + 2]!;
    } else {
      const b = 255 - a;
      out[p] = (repaint[p]! * a + base[p]! * b + 127) / 255;
      out[p + 1] = (repaint[p + 1]! * a + base[p + 1]! * b + 127) / 255;
      out[p + 2] = (repaint[p + 2]! * a + base[p + 2]! * b + 127) / 255;
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
}
