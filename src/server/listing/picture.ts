/**
 * The exported picture: the render untouched, with a band below it carrying the disclosure (white on
 * near-black, sized to the band so it stays legible in a thumbnail) and a printable QR code of the
 * public page at the band's end; JPEG with an XMP description. The text is an SVG drawn by librsvg
 * with the system's fonts; its width is measured from the drawn pixels, so any installed font fits,
 * and a server without fonts refuses instead of exporting a picture without its disclosure.
 */
import QRCode from "qrcode";
import sharp from "sharp";
import { LISTING } from "../../shared/listing";
import { DomainError } from "../errors";

/** DejaVu ships with Debian's fonts-dejavu-core (the Docker image installs it); the others are fallbacks. */
const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/** The QR code's side without its margin: 1.5 cm at 300 dpi, so a printed listing sheet can be scanned. */
export const QR_MIN_PX = Math.ceil((1.5 / 2.54) * 300);
/** The quiet zone the QR standard asks for around the code, in modules, light like the code's background. */
export const QR_QUIET_MODULES = 4;
/** On large pictures the band (and the code in it) grows to about this share of the picture's height. */
const BAND_SHARE = 0.09;
/** The narrowest output, in QR boxes (one for the code, the rest for the text): a thin or tiny render is widened. */
const MIN_WIDTH_IN_QR_BOXES = 3;
const BANNER_COLOUR = "#111111";
const ACCENT_COLOUR = "#fbbf24";
/** What shows beside a render narrower than the band. */
const MARGIN_COLOUR = "#ffffff";
const MEASURE_SIZE = 100;
/**
 * JPEG codes 8 x 8 blocks (no chroma subsampling here): the room starts and ends on block edges (its
 * last row or column repeated up to the edge), so no block mixes the room with the band or the margin
 * and the band's dark pixels never bleed into the room.
 */
const BLOCK = 8;
const toBlock = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

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

/** The largest text that fits the band: one line up to 30 % of its height, or two lines when that is larger. */
async function layoutText(text: string, availableWidth: number, bandHeight: number): Promise<TextLayout> {
  const measured = await measureAtReferenceSize(text);
  if (measured === null) throw new DomainError("not-configured", "listingNoFont");
  const oneLine = Math.min(bandHeight * 0.3, (availableWidth * MEASURE_SIZE) / measured);
  const halves = oneLine < bandHeight * 0.22 ? splitInTwo(text) : null;
  if (halves) {
    const widths = await Promise.all(halves.map(measureAtReferenceSize));
    const widest = Math.max(...widths.map((width) => width ?? 0));
    const twoLines = Math.min(bandHeight * 0.26, (availableWidth * MEASURE_SIZE) / widest);
    if (twoLines > oneLine) return { lines: halves, fontSize: Math.floor(twoLines) };
  }
  return { lines: [text], fontSize: Math.floor(oneLine) };
}

export interface BurnedPicture {
  data: Buffer;
  width: number;
  height: number;
}

/** Where the parts of an exported picture go, in output pixels (tests measure the output against it). */
export interface ListingLayout {
  width: number;
  height: number;
  /** The render, pixel for pixel (centred when narrower than the band). */
  room: { left: number; top: number; width: number; height: number };
  band: { top: number; height: number };
  /** The white box holding the code and its quiet zone, and the code's modules inside it. */
  qr: { left: number; top: number; box: number; modules: number; moduleSize: number };
}

/**
 * The layout for a render of this size and a code of `modules` modules: the band is as tall as the
 * code's box (at least QR_MIN_PX plus its quiet zone, more on large pictures), and the output as
 * wide as the render, or MIN_WIDTH_IN_QR_BOXES boxes when the render is narrower. Works for any size,
 * 1 x 1 included: renders made before uploads had a minimum keep exporting.
 */
export function listingLayout(width: number, height: number, modules: number): ListingLayout {
  const boxModules = modules + 2 * QR_QUIET_MODULES;
  const moduleSize = Math.max(Math.ceil(QR_MIN_PX / modules), Math.floor((height * BAND_SHARE) / boxModules));
  const box = boxModules * moduleSize;
  const narrow = width < MIN_WIDTH_IN_QR_BOXES * box;
  const outWidth = narrow ? Math.max(toBlock(width), MIN_WIDTH_IN_QR_BOXES * box) : width;
  const bandTop = toBlock(height);
  return {
    width: outWidth,
    height: bandTop + box,
    room: { left: narrow ? Math.floor((outWidth - toBlock(width)) / 2 / BLOCK) * BLOCK : 0, top: 0, width, height },
    band: { top: bandTop, height: box },
    qr: { left: outWidth - box, top: bandTop, box, modules, moduleSize },
  };
}

/** The code of the public page's URL (error correction M), as the export draws it. */
export function qrCodeOf(publicUrl: string) {
  return QRCode.create(publicUrl, { errorCorrectionLevel: "M" });
}

/**
 * The render with the band below it (the room is never covered; the output grows by the band), as a
 * JPEG carrying the XMP packet.
 */
export async function burnDisclosure(picture: Buffer, disclosure: string, publicUrl: string, xmp: string): Promise<BurnedPicture> {
  const { width, height } = await sharp(picture).metadata();
  if (!width || !height) throw new Error("The render has no size");
  const qr = qrCodeOf(publicUrl);
  const layout = listingLayout(width, height, qr.modules.size);
  const { band, qr: code } = layout;
  const qrPng = await QRCode.toBuffer(publicUrl, {
    type: "png",
    errorCorrectionLevel: "M",
    margin: QR_QUIET_MODULES,
    scale: code.moduleSize,
    color: { dark: "#000000ff", light: "#ffffffff" },
  });

  const padding = Math.round(band.height * 0.12);
  const availableWidth = code.left - 2 * padding;
  const { lines, fontSize } = await layoutText(disclosure, availableWidth, band.height);
  const lineHeight = fontSize * 1.15;
  // Baselines: the block of lines centred on the band (cap height ≈ 0.72 em).
  const firstBaseline = band.height / 2 - ((lines.length - 1) * lineHeight) / 2 + fontSize * 0.36;
  const accent = Math.max(1, Math.round(band.height * 0.03));
  const bandSvg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${band.height}">`,
    `<rect width="${layout.width}" height="${band.height}" fill="${BANNER_COLOUR}"/>`,
    `<rect width="${layout.width}" height="${accent}" fill="${ACCENT_COLOUR}"/>`,
    ...lines.map((line, index) => textElement(line, padding, Math.round(firstBaseline + index * lineHeight), fontSize, "#ffffff")),
    "</svg>",
  ].join("");

  const room = await sharp(picture)
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .removeAlpha()
    .extend({
      right: layout.width > width ? toBlock(width) - width : 0,
      bottom: band.top - height,
      extendWith: "copy",
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = await sharp({
    create: { width: layout.width, height: layout.height, channels: 3, background: MARGIN_COLOUR },
  })
    .composite([
      {
        input: room.data,
        raw: { width: room.info.width, height: room.info.height, channels: room.info.channels },
        top: 0,
        left: layout.room.left,
      },
      { input: Buffer.from(bandSvg), top: band.top, left: 0 },
      { input: qrPng, top: code.top, left: code.left },
    ])
    .withXmp(xmp)
    .jpeg({ quality: 90, mozjpeg: true, chromaSubsampling: "4:4:4" })
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
