/**
 * The Paint tool's exact recolour (issue 33), what the Preview engine does with a paint edit: the
 * painted region takes the chosen colour while its light stays. A wall's pixels are its paint's
 * colour times the light falling on each (shading, shadows, grain); the region's mean luminance
 * stands for the old paint's, so each pixel's share of it is the light there, and the new colour
 * times that share is the wall as if painted with it. Computed in linear light, so the region's
 * mean colour is the chosen one (up to pixels that would be brighter than white). Not AI: nothing
 * in the picture but the colour of the region changes.
 */
import sharp from "sharp";
import { LINEAR_OF_LEVEL, luminanceOfLinear, linearOfSrgb, rgbOfHex, srgbOfLinear } from "../../shared/paint";

/** Linear light (0–1) to the sRGB level, by table: fine enough that no level is skipped near black. */
const ENCODE_STEPS = 1 << 16;
let encodeTable: Uint8Array | undefined;
function srgbLevelTable(): Uint8Array {
  if (!encodeTable) {
    encodeTable = new Uint8Array(ENCODE_STEPS + 1);
    for (let step = 0; step <= ENCODE_STEPS; step++) encodeTable[step] = Math.round(srgbOfLinear(step / ENCODE_STEPS));
  }
  return encodeTable;
}

/** A mask counts a pixel in the region, for its mean light, from this value (the edge is feathered later). */
const IN_REGION = 128;

/**
 * `image` (any format sharp reads) with the pixels where `mask` is painted (greyscale, white =
 * change; resized to the picture) recoloured to `hex`; elsewhere the picture's own pixels. A PNG
 * (lossless: the composite that follows keeps the rest of the picture exact).
 */
export async function recolourRegion(image: Buffer, mask: Buffer, hex: string, signal?: AbortSignal): Promise<Buffer> {
  const { data, info } = await sharp(image).rotate().toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  if (info.channels !== 3) throw new Error("The image could not be read as colour pixels");
  const region = await sharp(mask).resize(width, height, { fit: "fill" }).greyscale().raw().toBuffer();
  signal?.throwIfAborted();
  recolourPixels(data, region, hex);
  signal?.throwIfAborted();
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * The recolour in place on RGB pixels (three bytes each) where `region` (one byte per pixel) is
 * non-zero. Returns the region's mean luminance before (0 when the region is empty or black).
 */
export function recolourPixels(rgb: Uint8Array, region: Uint8Array, hex: string): number {
  let sum = 0;
  let count = 0;
  for (let i = 0, p = 0; i < region.length; i++, p += 3) {
    if (region[i]! < IN_REGION) continue;
    sum += luminanceOfLinear(LINEAR_OF_LEVEL[rgb[p]!]!, LINEAR_OF_LEVEL[rgb[p + 1]!]!, LINEAR_OF_LEVEL[rgb[p + 2]!]!);
    count++;
  }
  const mean = count === 0 ? 0 : sum / count;
  const [r, g, b] = rgbOfHex(hex).map(linearOfSrgb) as [number, number, number];
  const table = srgbLevelTable();
  // A black region has no light to keep: it takes the colour flat.
  const scale = mean > 0 ? ENCODE_STEPS / mean : 0;
  const flat = [table[Math.round(r * ENCODE_STEPS)]!, table[Math.round(g * ENCODE_STEPS)]!, table[Math.round(b * ENCODE_STEPS)]!];
  for (let i = 0, p = 0; i < region.length; i++, p += 3) {
    if (region[i] === 0) continue;
    if (scale === 0) {
      rgb[p] = flat[0]!;
      rgb[p + 1] = flat[1]!;
      rgb[p + 2] = flat[2]!;
      continue;
    }
    // The light on this pixel, as a share of the region's mean, in table steps.
    const light = luminanceOfLinear(LINEAR_OF_LEVEL[rgb[p]!]!, LINEAR_OF_LEVEL[rgb[p + 1]!]!, LINEAR_OF_LEVEL[rgb[p + 2]!]!) * scale;
    rgb[p] = table[Math.min(ENCODE_STEPS, Math.round(r * light))]!;
    rgb[p + 1] = table[Math.min(ENCODE_STEPS, Math.round(g * light))]!;
    rgb[p + 2] = table[Math.min(ENCODE_STEPS, Math.round(b * light))]!;
  }
  return mean;
}
