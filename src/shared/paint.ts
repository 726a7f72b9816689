/**
 * The Paint tool of the modification studio (issue 33): an exact paint colour on a region chosen
 * by clicking it. What the client and server share: the colours (parsing, CIE Lab, ΔE 2000), the
 * surfaces a colour is noted under, the palette's limits and the smart selection, which runs in
 * the browser on the studio's picture (and in the tests on pictures they draw).
 */
import { z } from "zod";
import { hexColourSchema } from "./hex-colour";
import { MESSAGES } from "./messages";

export const PAINT = {
  /** Colours in the operator's palette (/admin → Studio). */
  paletteMax: 24,
  /** Characters of a palette colour's name. */
  paletteNameMax: 40,
  /** Colours tried at once on one selection, shown side by side. */
  compareMax: 3,
  /** Most a Preview-engine paint may cost (the operator chooses 0 or 1 credit). */
  previewCreditsMax: 1,
} as const;

/** What a colour is noted under in the project's list ("Walls: #e8e2d6"). */
export const PAINT_SURFACES = ["walls", "ceiling", "cabinets", "doors", "trim", "other"] as const;
export type PaintSurface = (typeof PAINT_SURFACES)[number];

/** A paint colour typed as #rrggbb. */
export const paintColourSchema = hexColourSchema(MESSAGES.paintColourInvalid);

/** A paint request's colours: one to three, each #rrggbb, none twice. */
export const paintInputSchema = z.object({
  surface: z.enum(PAINT_SURFACES, { error: MESSAGES.paintSurfaceInvalid }),
  colours: z
    .array(paintColourSchema)
    .min(1, { error: MESSAGES.paintColourInvalid })
    .max(PAINT.compareMax, { error: MESSAGES.paintTooManyColours })
    .refine((colours) => new Set(colours).size === colours.length, { error: MESSAGES.paintColourRepeated }),
});
export type PaintInput = z.infer<typeof paintInputSchema>;

export const paletteColourSchema = z.object({
  name: z.string().trim().min(1, { error: MESSAGES.paletteNameInvalid }).max(PAINT.paletteNameMax, { error: MESSAGES.paletteNameInvalid }),
  hex: paintColourSchema,
});
export type PaletteColour = z.infer<typeof paletteColourSchema>;

/** /admin → Studio → Paint: the palette offered in the studio and what a Preview-engine paint costs. */
export const paintSettingsInputSchema = z.object({
  palette: z.array(paletteColourSchema).max(PAINT.paletteMax, { error: MESSAGES.paletteTooLong }),
  previewCredits: z
    .number({ error: MESSAGES.studioNumberInvalid })
    .int({ error: MESSAGES.studioNumberInvalid })
    .min(0, { error: MESSAGES.studioNumberInvalid })
    .max(PAINT.previewCreditsMax, { error: MESSAGES.studioNumberInvalid }),
});
export type PaintSettings = z.infer<typeof paintSettingsInputSchema>;

/** The palette a new install offers: neutral names, not a paint maker's (an operator adds theirs). */
export const DEFAULT_PAINT_SETTINGS: PaintSettings = {
  palette: [
    { name: "Warm white", hex: "#f2ede3" },
    { name: "Linen", hex: "#e8e2d6" },
    { name: "Greige", hex: "#c9bfae" },
    { name: "Sage", hex: "#a7b59d" },
    { name: "Dusty blue", hex: "#8fa3b3" },
    { name: "Terracotta", hex: "#c0765a" },
    { name: "Olive", hex: "#6f7350" },
    { name: "Navy", hex: "#2f3e57" },
    { name: "Charcoal", hex: "#3b3b3b" },
  ],
  previewCredits: 0,
};

// ---------------------------------------------------------------------------------------------
// Colour: sRGB (0–255) ⇄ linear light ⇄ CIE XYZ (D65) ⇄ CIE Lab, and ΔE 2000.

export type Rgb = readonly [number, number, number];
export type Lab = readonly [number, number, number];

export function rgbOfHex(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

export function hexOfRgb([r, g, b]: Rgb): string {
  const part = (value: number) =>
    Math.min(255, Math.max(0, Math.round(value)))
      .toString(16)
      .padStart(2, "0");
  return `#${part(r)}${part(g)}${part(b)}`;
}

/** sRGB value (0–255) to linear light (0–1), and back. */
export const linearOfSrgb = (value: number) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
export const srgbOfLinear = (linear: number) =>
  255 * (linear <= 0.0031308 ? 12.92 * linear : 1.055 * Math.max(0, linear) ** (1 / 2.4) - 0.055);

/** The 256 linear values of the sRGB levels: a pixel loop reads these instead of calling pow. */
export const LINEAR_OF_LEVEL: Float64Array = Float64Array.from({ length: 256 }, (_, level) => linearOfSrgb(level));

/** Relative luminance (Rec. 709 / sRGB primaries) of linear light. */
export const luminanceOfLinear = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

const labF = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);

/** CIE Lab (D65 white) of linear sRGB light. */
export function labOfLinear(r: number, g: number, b: number): Lab {
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const [fx, fy, fz] = [labF(x), labF(y), labF(z)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

export const labOfRgb = ([r, g, b]: Rgb): Lab => labOfLinear(LINEAR_OF_LEVEL[r]!, LINEAR_OF_LEVEL[g]!, LINEAR_OF_LEVEL[b]!);

/** CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation): about 1 is just noticeable. */
export function deltaE2000([l1, a1, b1]: Lab, [l2, a2, b2]: Lab): number {
  const rad = Math.PI / 180;
  const c1 = Math.hypot(a1, b1);
  const c2 = Math.hypot(a2, b2);
  const cMean7 = ((c1 + c2) / 2) ** 7;
  const g = 0.5 * (1 - Math.sqrt(cMean7 / (cMean7 + 25 ** 7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1);
  const c2p = Math.hypot(a2p, b2);
  const hue = (a: number, b: number) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1p = hue(a1p, b1);
  const h2p = hue(a2p, b2);
  const dLp = l2 - l1;
  const dCp = c2p - c1p;
  let dhp = 0;
  if (c1p * c2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(c1p * c2p) * Math.sin((dhp * rad) / 2);
  const lMean = (l1 + l2) / 2;
  const cMeanP = (c1p + c2p) / 2;
  let hMean = h1p + h2p;
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hMean /= 2;
    else hMean = h1p + h2p < 360 ? (hMean + 360) / 2 : (hMean - 360) / 2;
  }
  const t =
    1 -
    0.17 * Math.cos((hMean - 30) * rad) +
    0.24 * Math.cos(2 * hMean * rad) +
    0.32 * Math.cos((3 * hMean + 6) * rad) -
    0.2 * Math.cos((4 * hMean - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hMean - 275) / 25) ** 2));
  const cMeanP7 = cMeanP ** 7;
  const rc = 2 * Math.sqrt(cMeanP7 / (cMeanP7 + 25 ** 7));
  const sl = 1 + (0.015 * (lMean - 50) ** 2) / Math.sqrt(20 + (lMean - 50) ** 2);
  const sc = 1 + 0.045 * cMeanP;
  const sh = 1 + 0.015 * cMeanP * t;
  const rt = -Math.sin(2 * dTheta * rad) * rc;
  return Math.sqrt((dLp / sl) ** 2 + (dCp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dCp / sc) * (dHp / sh));
}

// ---------------------------------------------------------------------------------------------
// Smart selection: from a click, the region of the same surface.

/** Pixels as a canvas's ImageData (RGBA) or sharp's raw output (RGB). */
export interface SelectionPicture {
  width: number;
  height: number;
  data: Uint8Array | Uint8ClampedArray;
  channels: 3 | 4;
}

export const SMART_SELECTION = {
  /**
   * Largest colour step (ΔE 76, on the lightly smoothed picture) between two neighbouring pixels of
   * one surface: a wall's shading and grain change by far less per pixel; an edge between two
   * materials or a wall and a window frame by more, even smoothed over three pixels.
   */
  stepMax: 4,
  /**
   * Largest difference from the clicked colour, with lightness counted at LIGHTNESS_WEIGHT: a wall
   * is darker away from the window (its lightness varies) while its hue and chroma do not. This
   * stops a slow drift across a soft edge that no single step would.
   */
  regionMax: 14,
  lightnessWeight: 0.35,
  /** Enclosed gaps smaller than this share of the picture (grain, a nail) are filled; larger ones (a window, a frame) stay out. */
  holeShareMax: 0.0005,
} as const;

/**
 * The surface under `seed`: the 4-connected region grown from it over pixels that step smoothly from
 * their neighbour and stay near the clicked colour (see SMART_SELECTION), then with its small
 * enclosed gaps filled. Returns one byte per pixel, 1 = selected.
 */
export function smartSelect(picture: SelectionPicture, seed: { x: number; y: number }): Uint8Array {
  const { width, height } = picture;
  const count = width * height;
  const selected = new Uint8Array(count);
  const sx = Math.floor(seed.x);
  const sy = Math.floor(seed.y);
  if (sx < 0 || sy < 0 || sx >= width || sy >= height) return selected;
  const lab = smoothedLab(picture);

  // The clicked colour: the mean of a 5×5 window around the click (one pixel may be grain).
  let [sL, sA, sB, n] = [0, 0, 0, 0];
  for (let y = Math.max(0, sy - 2); y <= Math.min(height - 1, sy + 2); y++) {
    for (let x = Math.max(0, sx - 2); x <= Math.min(width - 1, sx + 2); x++) {
      const p = (y * width + x) * 3;
      sL += lab[p]!;
      sA += lab[p + 1]!;
      sB += lab[p + 2]!;
      n++;
    }
  }
  [sL, sA, sB] = [sL / n, sA / n, sB / n];

  const { stepMax, regionMax, lightnessWeight } = SMART_SELECTION;
  const step2 = stepMax * stepMax;
  const region2 = regionMax * regionMax;
  const w2 = lightnessWeight * lightnessWeight;
  const queue = new Int32Array(count);
  let head = 0;
  let tail = 0;
  const start = sy * width + sx;
  selected[start] = 1;
  queue[tail++] = start;
  const visit = (from: number, to: number) => {
    if (selected[to]) return;
    const f = from * 3;
    const t = to * 3;
    const dL = lab[t]! - lab[f]!;
    const dA = lab[t + 1]! - lab[f + 1]!;
    const dB = lab[t + 2]! - lab[f + 2]!;
    if (dL * dL + dA * dA + dB * dB > step2) return;
    const rL = lab[t]! - sL;
    const rA = lab[t + 1]! - sA;
    const rB = lab[t + 2]! - sB;
    if (w2 * rL * rL + rA * rA + rB * rB > region2) return;
    selected[to] = 1;
    queue[tail++] = to;
  };
  while (head < tail) {
    const p = queue[head++]!;
    const x = p % width;
    if (x > 0) visit(p, p - 1);
    if (x < width - 1) visit(p, p + 1);
    if (p >= width) visit(p, p - width);
    if (p < count - width) visit(p, p + width);
  }
  fillSmallHoles(selected, width, height, Math.max(1, Math.round(count * SMART_SELECTION.holeShareMax)));
  return selected;
}

/** Lab of each pixel after a 3×3 box blur (grain and JPEG noise would stop the growing early). */
function smoothedLab({ width, height, data, channels }: SelectionPicture): Float32Array {
  const count = width * height;
  const linear = new Float32Array(count * 3);
  for (let i = 0, p = 0; i < count; i++, p += channels) {
    linear[i * 3] = LINEAR_OF_LEVEL[data[p]!]!;
    linear[i * 3 + 1] = LINEAR_OF_LEVEL[data[p + 1]!]!;
    linear[i * 3 + 2] = LINEAR_OF_LEVEL[data[p + 2]!]!;
  }
  const lab = new Float32Array(count * 3);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - 1);
    const y1 = Math.min(height - 1, y + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - 1);
      const x1 = Math.min(width - 1, x + 1);
      let [r, g, b, n] = [0, 0, 0, 0];
      for (let yy = y0; yy <= y1; yy++) {
        for (let xx = x0; xx <= x1; xx++) {
          const q = (yy * width + xx) * 3;
          r += linear[q]!;
          g += linear[q + 1]!;
          b += linear[q + 2]!;
          n++;
        }
      }
      const [l, a, bb] = labOfLinear(r / n, g / n, b / n);
      const o = (y * width + x) * 3;
      lab[o] = l;
      lab[o + 1] = a;
      lab[o + 2] = bb;
    }
  }
  return lab;
}

/** Fills the unselected regions that touch no border of the picture and have at most `maxSize` pixels. */
function fillSmallHoles(selected: Uint8Array, width: number, height: number, maxSize: number): void {
  const count = width * height;
  const seen = new Uint8Array(count);
  const queue = new Int32Array(count);
  for (let start = 0; start < count; start++) {
    if (selected[start] || seen[start]) continue;
    let head = 0;
    let tail = 0;
    let touchesBorder = false;
    seen[start] = 1;
    queue[tail++] = start;
    while (head < tail) {
      const p = queue[head++]!;
      const x = p % width;
      const y = (p - x) / width;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touchesBorder = true;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1]) {
        if (q >= 0 && !selected[q] && !seen[q]) {
          seen[q] = 1;
          queue[tail++] = q;
        }
      }
    }
    if (!touchesBorder && tail <= maxSize) for (let i = 0; i < tail; i++) selected[queue[i]!] = 1;
  }
}
