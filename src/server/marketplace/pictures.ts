/**
 * The marketplace's own copies of render pictures (decision 104): decoded by sharp within the uploads'
 * pixel limit, turned upright, scaled to fit MARKETPLACE.pictureLongEdge, written as a JPEG with no
 * metadata at all (sharp writes none unless asked: no EXIF, no location, no camera), so that deleting
 * the render later leaves the listing whole and nothing of the original file's metadata travels.
 */
import sharp from "sharp";
import { MARKETPLACE } from "../../shared/marketplace";
import { MAX_INPUT_PIXELS } from "../images/prepare-upload";

export interface MarketPicture {
  data: Buffer;
  width: number;
  height: number;
}

export async function copyPicture(bytes: Buffer): Promise<MarketPicture | null> {
  const edge = MARKETPLACE.pictureLongEdge;
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" })
      .rotate()
      .resize({ width: edge, height: edge, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, optimiseCoding: true })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    return null;
  }
}
