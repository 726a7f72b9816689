/**
 * The pictures made around a render with sharp: the engine's input (upright, long edge 1024, or
 * the photo's own size for an engine that works at it), and from its result the medium and
 * thumbnail variants.
 */
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { RENDER } from "../../shared/render";
import { MAX_INPUT_PIXELS } from "./prepare-upload";

export interface Picture {
  data: Buffer;
  width: number;
  height: number;
  format: "jpeg" | "png" | "webp";
}

const readOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "truncated" as const };

/** A picture's bytes, or the path of a file sharp reads itself. */
type ImageSource = Buffer | string;

async function resizedJpeg(input: ImageSource, longEdge: number, quality: number): Promise<Picture> {
  const { data, info } = await sharp(input, readOptions)
    .rotate()
    .resize({ width: longEdge, height: longEdge, fit: "inside", withoutEnlargement: true })
    .jpeg({ quality })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, format: "jpeg" };
}

/**
 * The version an edit repaints, upright at exactly the studio picture's size (the mask's), as a
 * lossless PNG: the composite keeps its pixels outside the painted region.
 */
export async function editSource(source: ImageSource, width: number, height: number): Promise<Buffer> {
  return sharp(source, readOptions).rotate().resize(width, height, { fit: "fill" }).png({ compressionLevel: 3 }).toBuffer();
}

/** What the render engine is given: upright, at most 1024 px on the long edge. */
export function providerInput(original: ImageSource): Promise<Picture> {
  return resizedJpeg(original, RENDER.providerInputLongEdge, 90);
}

/**
 * What an engine working at the photo's size is given (the Preview engine): upright, at the photo's
 * size, scaled down only past RENDER.maxWorkingPixels. A stored photo is already upright JPEG or PNG
 * (prepare-upload.ts): within the cap it is handed over as it is, without a second decode and encode.
 */
export async function photoSizeInput(original: ImageSource): Promise<Picture> {
  const { width = 0, height = 0, orientation = 1, format } = await sharp(original, readOptions).metadata();
  if (!width || !height) throw new Error("The picture has no size");
  if (orientation === 1 && (format === "jpeg" || format === "png") && width * height <= RENDER.maxWorkingPixels)
    return { data: typeof original === "string" ? await readFile(original) : original, width, height, format };
  // EXIF orientations 5–8 turn the picture a quarter: the upright size swaps its sides.
  const [uprightWidth, uprightHeight] = orientation >= 5 ? [height, width] : [width, height];
  const scale = Math.min(1, Math.sqrt(RENDER.maxWorkingPixels / (uprightWidth * uprightHeight)));
  const { data, info } = await sharp(original, readOptions)
    .rotate()
    .resize({
      width: Math.max(1, Math.floor(uprightWidth * scale)),
      height: Math.max(1, Math.floor(uprightHeight * scale)),
      fit: "inside",
      withoutEnlargement: true,
    })
    .jpeg({ quality: 92 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, format: "jpeg" };
}

/** What the engine with these capabilities is given. */
export function engineInput(original: ImageSource, capabilities: { photoSize?: boolean }): Promise<Picture> {
  return capabilities.photoSize ? photoSizeInput(original) : providerInput(original);
}

export function thumbnail(image: Buffer): Promise<Picture> {
  return resizedJpeg(image, RENDER.thumbLongEdge, 80);
}

/** Checks the engine's answer is a readable picture and makes the medium and thumbnail variants. */
export async function resultVariants(result: Buffer): Promise<{ full: Picture; medium: Picture; thumb: Picture }> {
  const metadata = await sharp(result, readOptions).metadata();
  const format = metadata.format === "jpeg" || metadata.format === "png" || metadata.format === "webp" ? metadata.format : null;
  if (!format || !metadata.width || !metadata.height) throw new Error("The render engine returned an unexpected answer");
  const full: Picture = { data: result, width: metadata.width, height: metadata.height, format };
  // An upright JPEG already within the medium size is its own medium: no second lossy encode.
  const ownMedium = format === "jpeg" && (metadata.orientation ?? 1) === 1 && Math.max(full.width, full.height) <= RENDER.mediumLongEdge;
  const medium = ownMedium ? full : await resizedJpeg(result, RENDER.mediumLongEdge, 85);
  // The thumbnail from the medium: a large render is then decoded once, not twice.
  const thumb = await resizedJpeg(medium.data, RENDER.thumbLongEdge, 80);
  return { full, medium, thumb };
}

export const EXTENSIONS: Record<Picture["format"], string> = { jpeg: "jpg", png: "png", webp: "webp" };
export const MIME_TYPES: Record<Picture["format"], string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp" };
