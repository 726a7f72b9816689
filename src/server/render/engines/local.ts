/**
 * The embedded "Preview engine": offline, deterministic, well under a second. It grades the
 * colours and tone of the photo per style with sharp. It is not AI, does not move a wall or add a
 * chair, and the interface says so wherever the engine is named.
 */
import sharp from "sharp";
import type { DesignStyle } from "../../../shared/styles";
import { isBuiltInStyle, type StyleTone } from "../../../shared/custom-styles";
import { renderStyleOf, type RenderStyle } from "./styles";
import { RENDER, type EngineCapabilities } from "../../../shared/render";
import { throwIfAborted, type RenderProvider } from "./provider";
import { recolourRegion } from "../../images/recolour";
import { linearOfSrgb, srgbOfLinear } from "../../../shared/paint";

interface Grade {
  /** sharp.modulate */
  brightness: number;
  saturation: number;
  hue: number;
  /** Contrast around mid-grey: output = contrast × (input − 128) + 128 */
  contrast: number;
  /** A colour washed over the picture (soft-light) and how strongly. */
  wash: { r: number; g: number; b: number };
  washOpacity: number;
}

/** Each style's grade (exported for the test that holds the wash to libvips' composite). */
export const GRADES: Record<DesignStyle, Grade> = {
  modern: { brightness: 1.06, saturation: 0.9, hue: 0, contrast: 1.12, wash: { r: 200, g: 210, b: 225 }, washOpacity: 0.18 },
  scandinavian: { brightness: 1.14, saturation: 0.75, hue: 0, contrast: 0.95, wash: { r: 245, g: 238, b: 225 }, washOpacity: 0.3 },
  industrial: { brightness: 0.92, saturation: 0.7, hue: 0, contrast: 1.2, wash: { r: 120, g: 110, b: 100 }, washOpacity: 0.25 },
  minimalist: { brightness: 1.12, saturation: 0.55, hue: 0, contrast: 0.92, wash: { r: 240, g: 240, b: 240 }, washOpacity: 0.3 },
  "mid-century-modern": { brightness: 1.02, saturation: 1.15, hue: 8, contrast: 1.05, wash: { r: 214, g: 150, b: 80 }, washOpacity: 0.22 },
  japandi: { brightness: 1.05, saturation: 0.7, hue: 4, contrast: 0.98, wash: { r: 215, g: 200, b: 175 }, washOpacity: 0.28 },
  bohemian: { brightness: 1.03, saturation: 1.3, hue: 12, contrast: 1.04, wash: { r: 200, g: 110, b: 70 }, washOpacity: 0.2 },
  coastal: { brightness: 1.1, saturation: 0.95, hue: -6, contrast: 0.97, wash: { r: 150, g: 200, b: 230 }, washOpacity: 0.24 },
  farmhouse: { brightness: 1.04, saturation: 0.85, hue: 5, contrast: 1.0, wash: { r: 225, g: 205, b: 170 }, washOpacity: 0.25 },
  traditional: { brightness: 0.98, saturation: 1.05, hue: 6, contrast: 1.06, wash: { r: 150, g: 90, b: 60 }, washOpacity: 0.2 },
  "art-deco": { brightness: 0.96, saturation: 1.1, hue: -4, contrast: 1.18, wash: { r: 40, g: 90, b: 80 }, washOpacity: 0.2 },
  luxury: { brightness: 1.0, saturation: 1.0, hue: 0, contrast: 1.15, wash: { r: 200, g: 165, b: 90 }, washOpacity: 0.2 },
};

/** How each tone of a custom style moves the picture (its palette gives the wash). */
const TONE_GRADES: Record<StyleTone, Omit<Grade, "wash">> = {
  light: { brightness: 1.12, saturation: 0.8, hue: 0, contrast: 0.95, washOpacity: 0.28 },
  warm: { brightness: 1.04, saturation: 1.05, hue: 6, contrast: 1.02, washOpacity: 0.24 },
  cool: { brightness: 1.04, saturation: 0.95, hue: -6, contrast: 1.02, washOpacity: 0.24 },
  neutral: { brightness: 1.03, saturation: 0.8, hue: 0, contrast: 1.0, washOpacity: 0.22 },
  dark: { brightness: 0.92, saturation: 0.9, hue: 0, contrast: 1.15, washOpacity: 0.22 },
  bold: { brightness: 1.0, saturation: 1.25, hue: 0, contrast: 1.12, washOpacity: 0.22 },
};

/** A custom style's grade (decision 101): its tone's moves, washed with its palette's mean colour, mixed in linear light. */
export function customGrade(style: Pick<RenderStyle, "palette" | "tone">): Grade {
  const palette = style.palette && style.palette.length > 0 ? style.palette : ["#808080"];
  const channels = palette.map((hex) => [1, 3, 5].map((at) => linearOfSrgb(Number.parseInt(hex.slice(at, at + 2), 16))));
  const [r, g, b] = [0, 1, 2].map((channel) =>
    Math.round(srgbOfLinear(channels.reduce((sum, colour) => sum + colour[channel]!, 0) / channels.length)),
  );
  return { ...TONE_GRADES[style.tone ?? "neutral"], wash: { r: r!, g: g!, b: b! } };
}

/**
 * The Preview engine grades colours: it can only "redesign" (in the sense of a colour mood), makes
 * a picture of the photo's own size (issue 30), has no seeds or upscaler, and is not AI. In the modification studio it
 * tints the painted region (masks: true), which lets the studio be tried; it cannot follow the
 * instruction, and the studio says so. It makes nothing of a floor plan (the plan would come back
 * tinted, unchanged otherwise), so plans are neither offered nor charged on it (decision 067).
 */
export const PREVIEW_CAPABILITIES: EngineCapabilities = {
  isAi: false,
  modes: ["redesign"],
  // The photo's own size, up to RENDER.maxWorkingPixels: a 3:2 photo of 24 MP is 6000 px wide.
  maxOutputLongEdge: Math.round(Math.sqrt(RENDER.maxWorkingPixels * 1.5)),
  photoSize: true,
  seeds: false,
  percentProgress: false,
  masks: true,
  upscale: false,
  structureStrength: false,
  // A colour grade of a drawing is the same drawing: not worth a credit, so a plan is not rendered here.
  floorPlan: "none",
};

/** The studio's tint on the Preview engine: the region's colours mixed half with sage, so it visibly changes. */
const REGION_TINT: Grade = {
  brightness: 1.02,
  saturation: 0.7,
  hue: 0,
  contrast: 1.0,
  wash: { r: 120, g: 170, b: 130 },
  washOpacity: 0.5,
};

/** CIE L* of a luminance, and back. */
const lightnessOf = (luminance: number) => (luminance > 216 / 24389 ? 116 * Math.cbrt(luminance) - 16 : (24389 / 27) * luminance);
const luminanceOf = (lightness: number) => (lightness > 8 ? ((lightness + 16) / 116) ** 3 : (lightness * 27) / 24389);

/**
 * Saturation and hue as one 3×3 matrix on sRGB values (scaled by 1024, row by row): saturation
 * scales each colour's distance from the grey of its luminance (Rec. 709 weights), hue turns it
 * (the SVG hueRotate matrix). It stands in for sharp's modulate, which converted every pixel to
 * LCh and back in floating point: the bulk of a 12 MP grade's time.
 */
type Matrix = [number, number, number, number, number, number, number, number, number];

function colourMatrix(saturation: number, hueDegrees: number): Matrix {
  const [wr, wg, wb] = [0.2126, 0.7152, 0.0722];
  const s = saturation;
  const saturate = [
    [wr + s * (1 - wr), wg * (1 - s), wb * (1 - s)],
    [wr * (1 - s), wg + s * (1 - wg), wb * (1 - s)],
    [wr * (1 - s), wg * (1 - s), wb + s * (1 - wb)],
  ];
  const angle = (hueDegrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const turn = [
    [0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715, 0.072 - cos * 0.072 + sin * 0.928],
    [0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.14, 0.072 - cos * 0.072 - sin * 0.283],
    [0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715, 0.072 + cos * 0.928 + sin * 0.072],
  ];
  const matrix = [0, 1, 2].flatMap((row) =>
    [0, 1, 2].map((column) => Math.round(1024 * turn[row]!.reduce((sum, value, k) => sum + value * saturate[k]![column]!, 0))),
  ) as Matrix;
  if (matrix.some((entry) => Math.abs(entry) > 2048)) throw new RangeError("A grade's colour matrix reaches past what its curves can read");
  return matrix;
}

/**
 * One channel's tone as a 256-entry curve: the brightness (L* scaled, as modulate did, exact on
 * greys), the contrast around mid-grey, then the style's wash, soft-light or over, at its opacity:
 * the W3C/PDF formulas on sRGB values with the wash colour premultiplied by its opacity, as libvips
 * composited a picture-sized layer of it before (which is why a light wash also deepens the shadows).
 * Rounded once, at the end.
 */
function toneCurve(grade: Grade, colour: number, blend: "soft-light" | "over"): Uint8Array {
  const curve = new Uint8Array(256);
  const opacity = grade.washOpacity;
  const source = (colour / 255) * opacity;
  for (let value = 0; value < 256; value++) {
    const bright = srgbOfLinear(luminanceOf(Math.min(100, lightnessOf(linearOfSrgb(value)) * grade.brightness)));
    const base = Math.min(1, Math.max(0, (grade.contrast * (bright - 128) + 128) / 255));
    let blended = colour / 255;
    if (blend === "soft-light") {
      if (source <= 0.5) blended = base - (1 - 2 * source) * base * (1 - base);
      else {
        const lifted = base <= 0.25 ? ((16 * base - 12) * base + 4) * base : Math.sqrt(base);
        blended = base + (2 * source - 1) * (lifted - base);
      }
    }
    curve[value] = Math.min(255, Math.max(0, Math.round(255 * ((1 - opacity) * base + opacity * blended))));
  }
  // Read from OFFSET on; what the colour matrix pushes below 0 or above 255 reads the ends.
  const read = new Uint8Array(256 + 2 * OFFSET);
  for (let index = 0; index < read.length; index++) read[index] = curve[Math.min(255, Math.max(0, index - OFFSET))]!;
  return read;
}

/** How far past 0–255 the colour matrix can reach: its rows' entries are within ±2 (× 1024), 3 × 2 × 255 < 2048. */
const OFFSET = 2048;

/** JPEG of a picture this many pixels or fewer is encoded with mozjpeg (smaller files; slow on large pictures). */
const MOZJPEG_MAX_PIXELS = 2_000_000;

/**
 * Grades the picture at its own size in one pass over its decoded pixels (the colour matrix, then
 * one tone curve per channel), then JPEG. Held to the old grade (modulate, linear, then the wash
 * composited by libvips) by a test.
 */
async function applyGrade(image: Buffer, grade: Grade, signal: AbortSignal, blend: "soft-light" | "over" = "soft-light"): Promise<Buffer> {
  const { data, info } = await sharp(image).rotate().toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (!info.width || !info.height || info.channels !== 3) throw new Error("The image could not be read as colour pixels");
  throwIfAborted(signal);
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = colourMatrix(grade.saturation, grade.hue);
  // The matrix can reach past 0–255 on saturated colours: the curves are read from OFFSET on, and
  // clamp below and above, which spares the loop its comparisons.
  const red = toneCurve(grade, grade.wash.r, blend);
  const green = toneCurve(grade, grade.wash.g, blend);
  const blue = toneCurve(grade, grade.wash.b, blend);
  for (let index = 0; index < data.length; index += 3) {
    const r = data[index]!;
    const g = data[index + 1]!;
    const b = data[index + 2]!;
    // (× 1024 + 512) >> 10 rounds the matrix's product.
    data[index] = red[((m0 * r + m1 * g + m2 * b + 512) >> 10) + OFFSET]!;
    data[index + 1] = green[((m3 * r + m4 * g + m5 * b + 512) >> 10) + OFFSET]!;
    data[index + 2] = blue[((m6 * r + m7 * g + m8 * b + 512) >> 10) + OFFSET]!;
  }
  throwIfAborted(signal);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .jpeg({ quality: 90, mozjpeg: info.width * info.height <= MOZJPEG_MAX_PIXELS })
    .toBuffer();
}

export const localProvider: RenderProvider = {
  id: "local",
  label: "Preview engine",
  capabilities: PREVIEW_CAPABILITIES,
  async render({ image, style, styleSnapshot, signal, onProgress }) {
    throwIfAborted(signal);
    onProgress?.(0.2);
    const grade = isBuiltInStyle(style) ? GRADES[style] : customGrade(renderStyleOf(style, styleSnapshot ?? null));
    const output = await applyGrade(image, grade, signal);
    throwIfAborted(signal);
    onProgress?.(1);
    return { image: output, mime: "image/jpeg", model: isBuiltInStyle(style) ? `preview-grade:${style}` : "preview-grade:custom-palette" };
  },
  /**
   * A paint edit: the painted region recoloured exactly to the chosen colour, its light kept (issue 33).
   * Any other edit: the whole picture tinted; the worker's composite keeps it to the painted region.
   * The instruction is not read.
   */
  async inpaint({ image, mask, paint, signal, onProgress }) {
    throwIfAborted(signal);
    onProgress?.(0.2);
    if (paint) {
      const output = await recolourRegion(image, mask, paint.colour, signal);
      onProgress?.(1);
      return { image: output, mime: "image/png", model: "preview-recolour", parameters: { colour: paint.colour, surface: paint.surface } };
    }
    const output = await applyGrade(image, REGION_TINT, signal, "over");
    throwIfAborted(signal);
    onProgress?.(1);
    return { image: output, mime: "image/jpeg", model: "preview-region-tint" };
  },
};
