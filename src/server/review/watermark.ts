/**
 * The "Draft" watermark of a picture not yet approved (a per-link choice): a translucent band
 * across the middle with the word in large letters, drawn with sharp over the medium-size render
 * (the text as SVG, drawn by librsvg with the system's fonts, as the listing banner is). The band
 * alone already marks the picture on a server without fonts.
 */
import sharp from "sharp";
import type { Language } from "../../shared/constants";

const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

export const DRAFT_WORD: Record<Language, string> = { en: "Draft", es: "Borrador", fr: "Brouillon" };

/** Where the band lies, as shares of the picture's height (tests read the pixels there). */
export const WATERMARK_BAND = { top: 0.38, height: 0.24 } as const;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

export async function watermarked(picture: Buffer, word: string): Promise<Buffer> {
  const { width, height } = await sharp(picture).metadata();
  if (!width || !height) throw new Error("The picture has no size");
  const top = Math.round(height * WATERMARK_BAND.top);
  const band = Math.round(height * WATERMARK_BAND.height);
  // The word fills most of the band, narrower pictures get smaller letters.
  const fontSize = Math.max(8, Math.floor(Math.min(band * 0.7, (width * 0.8) / Math.max(3, word.length * 0.62))));
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">`,
    `<rect x="0" y="${top}" width="${width}" height="${band}" fill="#000000" fill-opacity="0.45"/>`,
    `<text x="50%" y="${top + band / 2}" dominant-baseline="central" text-anchor="middle" font-family="${FONT_FAMILY}"`,
    ` font-weight="700" font-size="${fontSize}" letter-spacing="${Math.round(fontSize * 0.08)}" fill="#ffffff" fill-opacity="0.85">${escapeXml(word.toUpperCase())}</text>`,
    "</svg>",
  ].join("");
  return sharp(picture)
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer();
}
