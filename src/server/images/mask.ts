/**
 * The modification studio's masks, checked on the server: a PNG (made from the studio's canvas) of
 * exactly the picture's size, with at least EDIT.maskMinPaintedPixels painted and at most
 * EDIT.maskMaxPaintedShare of the picture. Painted = bright (any channel at least half) once the
 * mask is laid on black: white strokes on a black canvas, or bright strokes on a transparent one.
 * Accepted masks are stored normalised: greyscale, 255 = change, 0 = keep.
 */
import sharp from "sharp";
import { EDIT } from "../../shared/edits";

export type MaskRefusal = "maskNotPng" | "maskWrongSize" | "maskTooSmall" | "maskTooLarge";

export type MaskCheck = { ok: true; mask: Buffer; painted: number } | { ok: false; reason: MaskRefusal };

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_URL_PREFIX = "data:image/png;base64,";

/** The PNG bytes of a data URL, or null when it is not one. */
export function pngFromDataUrl(dataUrl: string): Buffer | null {
  if (!dataUrl.startsWith(DATA_URL_PREFIX)) return null;
  const bytes = Buffer.from(dataUrl.slice(DATA_URL_PREFIX.length), "base64");
  return bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC) ? bytes : null;
}

export async function checkMask(png: Buffer | null, expected: { width: number; height: number }): Promise<MaskCheck> {
  if (!png) return { ok: false, reason: "maskNotPng" };
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(png, { limitInputPixels: 40_000_000 }).metadata());
  } catch {
    return { ok: false, reason: "maskNotPng" };
  }
  if (width !== expected.width || height !== expected.height) return { ok: false, reason: "maskWrongSize" };
  let rgb: Buffer;
  try {
    // Transparent means unpainted: laid on black, a stroke on a transparent canvas keeps its colour.
    rgb = await sharp(png).flatten({ background: "#000000" }).toColourspace("srgb").raw().toBuffer();
  } catch {
    return { ok: false, reason: "maskNotPng" };
  }
  const grey = Buffer.alloc(width * height);
  let painted = 0;
  for (let i = 0, p = 0; i < grey.length; i++, p += 3) {
    const on = Math.max(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!) >= 128;
    grey[i] = on ? 255 : 0;
    if (on) painted++;
  }
  if (painted < EDIT.maskMinPaintedPixels) return { ok: false, reason: "maskTooSmall" };
  if (painted > EDIT.maskMaxPaintedShare * width * height) return { ok: false, reason: "maskTooLarge" };
  const mask = await sharp(grey, { raw: { width, height, channels: 1 } })
    .toColourspace("b-w")
    .png()
    .toBuffer();
  return { ok: true, mask, painted };
}

/** A checked mask at another picture's size (an engine working at the photo's size gets the photo's). */
export function maskAtSize(mask: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(mask).resize(width, height, { fit: "fill" }).toColourspace("b-w").png().toBuffer();
}
