/**
 * The studio's logo (/admin → Studio), checked like an upload by its content: PNG or JPEG only
 * (magic bytes, then sharp's own reading), at most 1 MB, 16 to 4096 pixels a side, fully decodable.
 * What is kept is a metadata-free PNG at most 512 pixels a side (transparency kept).
 */
import sharp from "sharp";
import { STUDIO_LIMITS } from "../../shared/studio-settings";
import { sniffImageType } from "./prepare-upload";

export type PreparedLogo = { ok: true; data: Buffer; width: number; height: number } | { ok: false };

const KEPT_SIDE = 512;

export async function prepareLogo(bytes: Buffer): Promise<PreparedLogo> {
  if (bytes.length === 0 || bytes.length > STUDIO_LIMITS.logoBytesMax) return { ok: false };
  const sniffed = sniffImageType(bytes);
  if (!sniffed) return { ok: false };
  try {
    const image = sharp(bytes, { limitInputPixels: STUDIO_LIMITS.logoMaxSide ** 2, failOn: "truncated" });
    const metadata = await image.metadata();
    const { width = 0, height = 0 } = metadata;
    if (metadata.format !== sniffed) return { ok: false };
    const sides = [width, height];
    if (sides.some((side) => side < STUDIO_LIMITS.logoMinSide || side > STUDIO_LIMITS.logoMaxSide)) return { ok: false };
    const { data, info } = await image
      .rotate()
      .resize({ width: KEPT_SIDE, height: KEPT_SIDE, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, data, width: info.width, height: info.height };
  } catch {
    return { ok: false };
  }
}
