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

/** Past this many pixels, the mean light is read from every fourth pixel of every fourth row. */
const SAMPLED_MEAN_FROM = 4_000_000;

/** A mask counts a pixel in the region from this value (the composite that follows feathers the edge). */
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
  // The mask is read at its own size (the studio's picture) and sampled per pixel: enlarging it to a
  // 12 MP picture with sharp took longer than the recolour itself. The composite that follows
  // feathers the edge.
  const small = await sharp(mask).greyscale().raw().toBuffer({ resolveWithObject: true });
  signal?.throwIfAborted();
  recolourPixels(data, { data: small.data, width: small.info.width, height: small.info.height }, { width, height }, hex);
  signal?.throwIfAborted();
  // Uncompressed: the worker's composite reads it at once (compression took a third of the time).
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A greyscale mask (one byte per pixel, white = change) of its own size. */
export interface RegionMask {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * The recolour in place on RGB pixels (three bytes each) of `size`, where `mask` (read at the
 * nearest of its pixels) is painted. Returns the region's mean luminance before (0 when the region
 * is empty or black).
 */
export function recolourPixels(rgb: Uint8Array, mask: RegionMask, size: { width: number; height: number }, hex: string): number {
  const { width, height } = size;
  // Each mask row's painted runs, as the picture's columns they cover: the loops below visit only
  // painted pixels (the nearest mask pixel decides, as a resize with the nearest kernel would).
  const firstColumn = Int32Array.from({ length: mask.width + 1 }, (_, c) =>
    Math.min(width, Math.max(0, Math.ceil((c * width) / mask.width - 0.5))),
  );
  const runsOfMaskRow = new Map<number, Int32Array>();
  const runsAt = (y: number) => {
    const maskRow = Math.min(mask.height - 1, Math.floor(((y + 0.5) * mask.height) / height));
    let runs = runsOfMaskRow.get(maskRow);
    if (!runs) {
      const found: number[] = [];
      const at = maskRow * mask.width;
      for (let c = 0; c < mask.width; c++) {
        if (mask.data[at + c]! < IN_REGION) continue;
        const start = c;
        while (c < mask.width && mask.data[at + c]! >= IN_REGION) c++;
        found.push(firstColumn[start]!, firstColumn[c]!);
      }
      runs = Int32Array.from(found);
      runsOfMaskRow.set(maskRow, runs);
    }
    return runs;
  };
  // The region's mean light; on a large picture from every fourth pixel of every fourth row (a
  // twelve-megapixel region still gives it hundreds of thousands, and its colour does not move for it).
  const stride = width * height > SAMPLED_MEAN_FROM ? 4 : 1;
  let sum = 0;
  let count = 0;
  for (let y = 0; y < height; y += stride) {
    const runs = runsAt(y);
    for (let run = 0; run < runs.length; run += 2) {
      const from = runs[run]! + ((stride - (runs[run]! % stride)) % stride);
      for (let x = from, p = (y * width + x) * 3; x < runs[run + 1]!; x += stride, p += 3 * stride) {
        sum += luminanceOfLinear(LINEAR_OF_LEVEL[rgb[p]!]!, LINEAR_OF_LEVEL[rgb[p + 1]!]!, LINEAR_OF_LEVEL[rgb[p + 2]!]!);
        count++;
      }
    }
  }
  const mean = count === 0 ? 0 : sum / count;
  const [r, g, b] = rgbOfHex(hex).map(linearOfSrgb) as [number, number, number];
  const table = srgbLevelTable();
  // A black region has no light to keep: it takes the colour flat (its light counted as the mean).
  const scale = mean > 0 ? ENCODE_STEPS / mean : 0;
  // Each level's linear light times its channel's weight and the scale: three lookups and two adds per pixel.
  const [wr, wg, wb] = [0.2126, 0.7152, 0.0722].map((weight) => LINEAR_OF_LEVEL.map((linear) => linear * weight * scale)) as [
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const flat = [r, g, b].map((linear) => table[Math.min(ENCODE_STEPS, Math.round(linear * ENCODE_STEPS))]!);
  for (let y = 0; y < height; y++) {
    const runs = runsAt(y);
    for (let run = 0; run < runs.length; run += 2) {
      const end = (y * width + runs[run + 1]!) * 3;
      let p = (y * width + runs[run]!) * 3;
      if (scale === 0) {
        for (; p < end; p += 3) rgb.set(flat, p);
        continue;
      }
      for (; p < end; p += 3) {
        // The light on this pixel as a share of the region's mean, in table steps; (v + 0.5) | 0
        // rounds; past white, white.
        const light = wr[rgb[p]!]! + wg[rgb[p + 1]!]! + wb[rgb[p + 2]!]!;
        const red = r * light;
        const green = g * light;
        const blue = b * light;
        rgb[p] = table[red >= ENCODE_STEPS ? ENCODE_STEPS : (red + 0.5) | 0]!;
        rgb[p + 1] = table[green >= ENCODE_STEPS ? ENCODE_STEPS : (green + 0.5) | 0]!;
        rgb[p + 2] = table[blue >= ENCODE_STEPS ? ENCODE_STEPS : (blue + 0.5) | 0]!;
      }
    }
  }
  return mean;
}
