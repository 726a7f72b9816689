/**
 * A custom style's reference picture (decision 100), checked like an upload by its content: JPEG or
 * PNG only (magic bytes, then sharp's own reading agrees), at most CUSTOM_STYLES.referenceMaxBytes,
 * at most MAX_INPUT_PIXELS decoded (a small file can decode huge), fully decodable. What is kept is
 * a JPEG turned upright from its EXIF orientation, scaled to fit CUSTOM_STYLES.referenceLongEdge,
 * with no metadata at all (sharp writes none unless asked). sharp decodes and encodes on libvips'
 * own threads, not the event loop's, as prepareUpload does (there is no worker thread for uploads).
 */
import sharp from "sharp";
import { CUSTOM_STYLES } from "../../shared/custom-styles";
import { sniffImageMime } from "../images/mime";
import { MAX_INPUT_PIXELS } from "../images/prepare-upload";

export type PreparedReference = { ok: true; data: Buffer; width: number; height: number } | { ok: false };

const FORMATS = { "image/jpeg": "jpeg", "image/png": "png" } as const;

export async function prepareReference(bytes: Buffer): Promise<PreparedReference> {
  if (bytes.length === 0 || bytes.length > CUSTOM_STYLES.referenceMaxBytes) return { ok: false };
  const mime = sniffImageMime(bytes);
  if (mime !== "image/jpeg" && mime !== "image/png") return { ok: false };
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" as const };
  try {
    const metadata = await sharp(bytes, options).metadata();
    if (metadata.format !== FORMATS[mime]) return { ok: false };
    const edge = CUSTOM_STYLES.referenceLongEdge;
    const { data, info } = await sharp(bytes, options)
      .rotate()
      .resize({ width: edge, height: edge, fit: "inside", withoutEnlargement: true })
      // A PNG's transparency becomes white, not black, in a JPEG.
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 88, optimiseCoding: true, quantisationTable: 3 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, data, width: info.width, height: info.height };
  } catch {
    // sharp's pixel limit, a truncated or damaged file: the same refusal.
    return { ok: false };
  }
}
