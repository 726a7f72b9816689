/**
 * The exported picture: the render with a solid banner along its bottom carrying the disclosure
 * (white on near-black, sized to the banner so it stays legible in a thumbnail) and a QR code of
 * the public page in the banner's corner; JPEG with an XMP description. The text is an SVG drawn by
 * librsvg with the system's fonts; its width is measured from the drawn pixels, so any installed
 * font fits, and a server without fonts refuses instead of exporting a picture without its disclosure.
 */
import QRCode from "qrcode";
import sharp from "sharp";
import { LISTING } from "../../shared/listing";
import { DomainError } from "../errors";

/** DejaVu ships with Debian's fonts-dejavu-core (the Docker image installs it); the others are fallbacks. */
const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/** The banner's share of the picture's height, and the most it may take to keep the QR code readable. */
const BANNER_SHARE = 0.09;
const BANNER_MAX_SHARE = 0.12;
/** Quiet zone around the QR code, in modules (white box inside the dark banner). */
const QR_QUIET_MODULES = 2;
const BANNER_COLOUR = "#111111";
const ACCENT_COLOUR = "#fbbf24";
const MEASURE_SIZE = 100;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

const textElement = (text: string, x: number, y: number, size: number, fill: string) =>
  `<text x="${x}" y="${y}" font-family="${FONT_FAMILY}" font-weight="700" font-size="${size}" fill="${fill}">${escapeXml(text)}</text>`;

/** Width of the drawn text at MEASURE_SIZE px, from its ink; null when nothing was drawn (no font). */
async function measureAtReferenceSize(line: string): Promise<number | null> {
  const width = Math.ceil(MEASURE_SIZE * (line.length + 2));
  const height = MEASURE_SIZE * 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${textElement(line, MEASURE_SIZE / 2, MEASURE_SIZE * 1.4, MEASURE_SIZE, "#000")}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  let left = info.width;
  let right = -1;
  for (let y = 0; y < info.height; y++) {
    const row = y * info.width;
    for (let x = 0; x < info.width; x++) {
      if (data[row + x]! < 128) {
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  return right < left ? null : right - left + 1;
}

/** The line split at the space nearest its middle (two lines for long disclosures). */
function splitInTwo(text: string): [string, string] | null {
  const middle = text.length / 2;
  let best = -1;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === " " && (best < 0 || Math.abs(index - middle) < Math.abs(best - middle))) best = index;
  }
  return best > 0 ? [text.slice(0, best).trim(), text.slice(best + 1).trim()] : null;
}

interface TextLayout {
  lines: string[];
  fontSize: number;
}

/** The largest text that fits the banner: one line up to half its height, or two lines when that is larger. */
async function layoutText(text: string, availableWidth: number, bannerHeight: number): Promise<TextLayout> {
  const measured = await measureAtReferenceSize(text);
  if (measured === null) throw new DomainError("not-configured", "listingNoFont");
  const oneLine = Math.min(bannerHeight * 0.5, (availableWidth * MEASURE_SIZE) / measured);
  const halves = oneLine < bannerHeight * 0.34 ? splitInTwo(text) : null;
  if (halves) {
    const widths = await Promise.all(halves.map(measureAtReferenceSize));
    const widest = Math.max(...widths.map((width) => width ?? 0));
    const twoLines = Math.min(bannerHeight * 0.36, (availableWidth * MEASURE_SIZE) / widest);
    if (twoLines > oneLine) return { lines: halves, fontSize: Math.floor(twoLines) };
  }
  return { lines: [text], fontSize: Math.floor(oneLine) };
}

export interface BurnedPicture {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * The picture with the banner burned in (over its bottom edge, so the size stays what listing sites
 * were given before), as a JPEG carrying the XMP packet.
 */
export async function burnDisclosure(picture: Buffer, disclosure: string, publicUrl: string, xmp: string): Promise<BurnedPicture> {
  const { width, height } = await sharp(picture).metadata();
  if (!width || !height) throw new Error("The render has no size");
  const qr = QRCode.create(publicUrl, { errorCorrectionLevel: "M" });
  const qrBoxModules = qr.modules.size + 2 * QR_QUIET_MODULES;
  // At least two pixels per module where the picture allows it, else one: the code must stay scannable.
  const bannerHeight = Math.min(
    height,
    Math.max(Math.round(height * BANNER_SHARE), Math.min(qrBoxModules * 2, Math.round(height * BANNER_MAX_SHARE)), qrBoxModules),
  );
  const scale = Math.max(1, Math.floor(bannerHeight / qrBoxModules));
  const qrPng = await QRCode.toBuffer(publicUrl, {
    type: "png",
    errorCorrectionLevel: "M",
    margin: 0,
    scale,
    color: { dark: "#000000ff", light: "#ffffffff" },
  });
  const qrSize = qr.modules.size * scale;

  const padding = Math.round(bannerHeight * 0.3);
  const availableWidth = Math.max(bannerHeight, width - bannerHeight - 2 * padding);
  const { lines, fontSize } = await layoutText(disclosure, availableWidth, bannerHeight);
  const lineHeight = fontSize * 1.15;
  // Baselines: the block of lines centred on the banner (cap height ≈ 0.72 em).
  const firstBaseline = bannerHeight / 2 - ((lines.length - 1) * lineHeight) / 2 + fontSize * 0.36;
  const accent = Math.max(1, Math.round(bannerHeight * 0.04));
  const bannerSvg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${bannerHeight}">`,
    `<rect width="${width}" height="${bannerHeight}" fill="${BANNER_COLOUR}"/>`,
    `<rect width="${width}" height="${accent}" fill="${ACCENT_COLOUR}"/>`,
    `<rect x="${width - bannerHeight}" width="${bannerHeight}" height="${bannerHeight}" fill="#ffffff"/>`,
    ...lines.map((line, index) => textElement(line, padding, Math.round(firstBaseline + index * lineHeight), fontSize, "#ffffff")),
    "</svg>",
  ].join("");

  const offset = Math.floor((bannerHeight - qrSize) / 2);
  const { data, info } = await sharp(picture)
    .flatten({ background: "#ffffff" })
    .composite([
      { input: Buffer.from(bannerSvg), top: height - bannerHeight, left: 0 },
      { input: qrPng, top: height - bannerHeight + offset, left: width - bannerHeight + offset },
    ])
    .withXmp(xmp)
    .jpeg({ quality: 90, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The render itself as a JPEG for the public page (same description), without the banner. */
export async function alteredForPage(picture: Buffer, xmp: string): Promise<Buffer> {
  return sharp(picture).flatten({ background: "#ffffff" }).withXmp(xmp).jpeg({ quality: 88, mozjpeg: true }).toBuffer();
}

/** The unaltered original, at most LISTING.originalLongEdge, re-encoded (uploads are already upright and stripped). */
export async function originalForPage(original: Buffer): Promise<BurnedPicture> {
  const { data, info } = await sharp(original)
    .rotate()
    .resize({ width: LISTING.originalLongEdge, height: LISTING.originalLongEdge, fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 88, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
