/**
 * A picture with its measures drawn in (decision 089): each measure's line, its ends and its label, and
 * the reference's outline, as one SVG the size of the picture composited by sharp (the text drawn by
 * librsvg with the system's fonts, as the review watermark is). Sizes follow the picture's, so a 4000 px
 * photo and a 1024 px render carry the same look.
 */
import sharp from "sharp";
import { formatLength, type PhotoMeasures } from "../../shared/measures";

const FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/** The studio's colours (src/client/components/measure/MeasureOverlay.tsx). */
export const BURNT_COLOURS = { measure: "#22d3ee", reference: "#f59e0b" } as const;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

export async function drawMeasures(picture: Buffer, measures: PhotoMeasures, language: string): Promise<Buffer> {
  // Drawn on the picture upright (its EXIF orientation applied), as it is shown.
  const upright = await sharp(picture).rotate().toBuffer({ resolveWithObject: true });
  const w = upright.info.width;
  const h = upright.info.height;
  const unit = Math.max(w, h) / 400;
  const at = (point: { x: number; y: number }) => `${(point.x * w).toFixed(1)},${(point.y * h).toFixed(1)}`;
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">`];
  const reference = measures.reference;
  if (reference?.kind === "floor") {
    parts.push(
      `<polygon points="${reference.corners.map(at).join(" ")}" fill="${BURNT_COLOURS.reference}" fill-opacity="0.2" stroke="${BURNT_COLOURS.reference}" stroke-width="${unit * 1.2}"/>`,
    );
  } else if (reference?.kind === "height") {
    const [a, b] = [at(reference.foot), at(reference.top)];
    parts.push(`<polyline points="${a} ${b}" stroke="${BURNT_COLOURS.reference}" stroke-width="${unit * 1.5}" fill="none"/>`);
  }
  const fontSize = Math.max(10, Math.round(unit * 5));
  for (const measure of measures.measures) {
    const line = `${at(measure.a)} ${at(measure.b)}`;
    parts.push(`<polyline points="${line}" stroke="#0f172a" stroke-opacity="0.6" stroke-width="${unit * 2.2}" fill="none"/>`);
    parts.push(`<polyline points="${line}" stroke="${BURNT_COLOURS.measure}" stroke-width="${unit * 1.2}" fill="none"/>`);
    for (const end of [measure.a, measure.b]) {
      parts.push(
        `<circle cx="${end.x * w}" cy="${end.y * h}" r="${unit * 2.2}" fill="${BURNT_COLOURS.measure}" stroke="#0f172a" stroke-width="${unit * 0.5}"/>`,
      );
    }
    const length = measure.lengthCm === null ? "?" : formatLength(measure.lengthCm, language);
    const text = measure.label ? `${measure.label} · ${length}` : length;
    // The label at the line's middle, kept inside the picture; its box sized from the text's length.
    const boxWidth = text.length * fontSize * 0.6 + fontSize;
    const boxHeight = fontSize * 1.6;
    const cx = Math.min(w - boxWidth / 2, Math.max(boxWidth / 2, ((measure.a.x + measure.b.x) / 2) * w));
    const cy = Math.min(h - boxHeight / 2, Math.max(boxHeight / 2, ((measure.a.y + measure.b.y) / 2) * h));
    parts.push(
      `<rect x="${cx - boxWidth / 2}" y="${cy - boxHeight / 2}" width="${boxWidth}" height="${boxHeight}" rx="${fontSize * 0.3}" fill="#0f172a" fill-opacity="0.85"/>`,
      `<text x="${cx}" y="${cy}" dominant-baseline="central" text-anchor="middle" font-family="${FONT_FAMILY}" font-weight="700" font-size="${fontSize}" fill="#ffffff">${escapeXml(text)}</text>`,
    );
  }
  parts.push("</svg>");
  return sharp(upright.data)
    .composite([{ input: Buffer.from(parts.join("")), top: 0, left: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}
