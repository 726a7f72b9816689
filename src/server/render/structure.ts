/**
 * The structure check: how much of the room's lines (walls, windows, doors, floor edges) a render
 * kept, compared with the picture the engine was given. Pure functions over image buffers.
 *
 * 1. Both pictures are decoded at one small common size: the input's aspect, long edge 256 px, the
 *    result stretched onto it ("fill": an engine may answer at another resolution or a slightly
 *    different aspect, and its picture still covers the input's view).
 * 2. Each becomes a thin edge map, Canny-style (edgeMap): blur, colour Sobel, non-maximum
 *    suppression, hysteresis with thresholds relative to the picture's own gradients.
 * 3. The maps are compared as an F-measure with a 2 px tolerance (compareEdges):
 *      precision = share of the result's edges within 2 px of a line in the input,
 *      recall    = share of the input's edges within 2 px of a line in the result,
 *      score     = 2PR / (P + R),
 *    where an edge pixel on a straight line (walls, window and door frames, the floor edge) weighs
 *    1 and any other (furniture curves, clutter, texture) weighs STRAY_WEIGHT.
 *
 * Calibration (what scores what, and the warning threshold): docs/decisions/032-structure-check.md
 * and tests/unit/structure.test.ts.
 */
import sharp from "sharp";

export interface StructureOptions {
  /** Long edge of the working size (px). Small on purpose: room lines survive, grain and fine texture do not. */
  workingLongEdge?: number;
  /** How far (px at the working size) a line may sit from its counterpart and still count as kept. */
  tolerance?: number;
}

export interface StructureScore {
  /** F-measure of precision and recall, 0..1. */
  score: number;
  precision: number;
  recall: number;
  /** Edge pixels found in each picture at the working size. */
  edgePixels: { before: number; after: number };
}

/**
 * The calibrated setting. Together they say how far a line may move and still count as kept:
 * 2 px at 256 ≈ 0.8 % of the frame (8 px on a 1024-px picture). A larger working size with the same
 * tolerance is stricter (320: restyles fall to 0.57–0.79), a smaller one looser (192: rotations of
 * 3–6° rise to 0.74): change either only with the calibration in tests/unit/structure.test.ts.
 */
export const STRUCTURE_DEFAULTS = {
  workingLongEdge: 256,
  tolerance: 2,
} as const;

/** A picture's lines at the working size. */
export interface EdgeMap {
  width: number;
  height: number;
  /** 1 on an edge: thin, strong (or connected to a strong one), part of a line of MIN_LINE_PIXELS or more. */
  edges: Uint8Array;
  count: number;
  /** Per edge pixel, how much it counts: 1 on a straight line, STRAY_WEIGHT elsewhere (0 off the edges). */
  weight: Float32Array;
  /**
   * 1 wherever the picture shows a line at all, weak or short ones included. The other picture's
   * edges are matched against this, not against `edges`: a line that is just above the threshold in
   * one picture and just below it in the other (a recolour changed its contrast a little) is kept,
   * not lost. Only a line that vanished altogether counts as lost.
   */
  evidence: Uint8Array;
}

/**
 * Below this gradient magnitude (Sobel, grey levels) nothing is a strong edge, whatever the
 * picture's own contrast. After the blur, a step of s grey levels gives a Sobel peak of 2.5·s: 24 is
 * a step of about 10 levels, well above JPEG noise and grain after the downscale and blur. It is what
 * gives a blank or grained picture no edges (its own 98th percentile would otherwise find "lines").
 */
const MIN_MAGNITUDE = 24;
/**
 * Thresholds follow each picture's own gradients: a strong edge from HIGH_RATIO × the 98th
 * percentile of the gradient magnitude, a weak one (kept only when connected to a strong one) from
 * LOW_RATIO × it. A recoloured room with lower contrast scales its gradients down together, so the
 * same lines stay above a relative threshold where a fixed one would lose them. The 98th percentile
 * rather than the maximum: one glint must not decide. Not finely tuned: with ratios from 0.2 to 0.4
 * or percentiles from 0.95 to 0.99, no calibration category's min, median or max moves by more than 0.05.
 */
const REFERENCE_QUANTILE = 0.98;
const HIGH_RATIO = 0.3;
const LOW_RATIO = 0.12;
/** Connected edges of fewer pixels than this are specks of texture or noise, not room lines. */
const MIN_LINE_PIXELS = 8;
/**
 * Straight lines: the edge pixels in the (2R+1)² window around a pixel lie along one line (minor
 * axis variance under STRAIGHT_SPREAD × the major one) and span a good part of the window.
 */
const STRAIGHT_RADIUS = 6;
const STRAIGHT_SPREAD = 0.15;
/**
 * What an edge pixel off a straight line counts for. Walls, windows, doors and the floor edge are
 * straight; a restyle changes furniture (curves, corners, clutter) without moving them, while a
 * moved camera moves the long lines too. In the calibration, counting every edge alike leaves
 * rotations of 4–6° at up to 0.65 and restyles down to 0.61 (they overlap); with this weight the
 * rotations are at most 0.55 and restyles at least 0.66.
 */
const STRAY_WEIGHT = 0.25;

/** Working size: the input's aspect, long edge `longEdge` (never larger than the input). */
export function workingSize(width: number, height: number, longEdge: number): { width: number; height: number } {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return { width: Math.max(16, Math.round(width * scale)), height: Math.max(16, Math.round(height * scale)) };
}

/**
 * Decode upright to width×height sRGB bytes, transparency on white. sharp resizes with JPEG
 * shrink-on-load, so a 1024-px JPEG is never decoded at full size.
 */
async function decode(image: Buffer, width: number, height: number): Promise<Uint8Array> {
  const data = await sharp(image)
    .autoOrient()
    .flatten({ background: "#ffffff" })
    .resize(width, height, { fit: "fill" })
    .toColourspace("srgb")
    .raw()
    .toBuffer();
  if (data.length !== width * height * 3) throw new Error(`Expected ${width * height * 3} bytes, got ${data.length}`);
  return data;
}

/**
 * One channel of RGB bytes blurred with the binomial kernel [1 4 6 4 1] in both directions
 * (≈ Gaussian σ 1 px at the working size): takes the edge off grain, texture and JPEG blocks.
 * Integer sums: the result is 256 × the blurred value (≤ 65280, a Uint16). Borders mirror.
 */
function blurChannel(rgb: Uint8Array, channel: number, width: number, height: number, rows: Uint16Array, out: Uint16Array) {
  const mirrorX = (x: number) => (x < 0 ? -x : x >= width ? 2 * width - 2 - x : x);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const base = row * 3 + channel;
    for (const x of [0, 1, width - 2, width - 1]) {
      rows[row + x] =
        rgb[base + mirrorX(x - 2) * 3]! +
        4 * rgb[base + mirrorX(x - 1) * 3]! +
        6 * rgb[base + x * 3]! +
        4 * rgb[base + mirrorX(x + 1) * 3]! +
        rgb[base + mirrorX(x + 2) * 3]!;
    }
    for (let x = 2, p = base + 6; x < width - 2; x++, p += 3) {
      rows[row + x] = rgb[p - 6]! + 4 * (rgb[p - 3]! + rgb[p + 3]!) + 6 * rgb[p]! + rgb[p + 6]!;
    }
  }
  const mirrorY = (y: number) => (y < 0 ? -y : y >= height ? 2 * height - 2 - y : y) * width;
  for (let y = 0; y < height; y++) {
    const r0 = mirrorY(y - 2);
    const r1 = mirrorY(y - 1);
    const r2 = y * width;
    const r3 = mirrorY(y + 1);
    const r4 = mirrorY(y + 2);
    for (let x = 0; x < width; x++) out[r2 + x] = rows[r0 + x]! + 4 * (rows[r1 + x]! + rows[r3 + x]!) + 6 * rows[r2 + x]! + rows[r4 + x]!;
  }
}

/**
 * Canny-style edges of width×height sRGB bytes: blur; Sobel per colour channel, the strongest
 * channel wins (a line between two colours of equal brightness still counts); non-maximum
 * suppression (one pixel wide lines, so a thick line does not outweigh a thin one); hysteresis with
 * thresholds relative to the picture's own gradients; connected edges under MIN_LINE_PIXELS dropped.
 */
export function edgeMap(rgb: Uint8Array, width: number, height: number): EdgeMap {
  const size = width * height;
  if (rgb.length !== size * 3) throw new Error(`Expected ${size * 3} bytes, got ${rgb.length}`);
  // Per pixel, the strongest channel's gradient and its squared magnitude, in units of 256 × grey levels.
  const squared = new Float64Array(size);
  const gradX = new Int32Array(size);
  const gradY = new Int32Array(size);
  const rows = new Uint16Array(size);
  const smooth = new Uint16Array(size);
  for (let channel = 0; channel < 3; channel++) {
    blurChannel(rgb, channel, width, height, rows, smooth);
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
        const nw = smooth[i - width - 1]!;
        const n = smooth[i - width]!;
        const ne = smooth[i - width + 1]!;
        const w = smooth[i - 1]!;
        const e = smooth[i + 1]!;
        const sw = smooth[i + width - 1]!;
        const s = smooth[i + width]!;
        const se = smooth[i + width + 1]!;
        const gx = ne + 2 * e + se - nw - 2 * w - sw;
        const gy = sw + 2 * s + se - nw - 2 * n - ne;
        const m = gx * gx + gy * gy;
        if (m > squared[i]!) {
          squared[i] = m;
          gradX[i] = gx;
          gradY[i] = gy;
        }
      }
    }
  }

  // Thresholds in grey levels, compared squared and at the blur's scale.
  const reference = Math.sqrt(quantile(squared, REFERENCE_QUANTILE)) / 256;
  const high = Math.max(MIN_MAGNITUDE, HIGH_RATIO * reference);
  const low = (LOW_RATIO / HIGH_RATIO) * high;
  const high2 = (high * 256) ** 2;
  const low2 = (low * 256) ** 2;

  // Non-maximum suppression across the line (direction quantised to 0°, 45°, 90°, 135°).
  // thin: 0 no edge, 1 weak (≥ low), 2 strong (≥ high).
  const tan22 = 0.41421356;
  const across = [1, width + 1, width, width - 1];
  const thin = new Uint8Array(size);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const m = squared[i]!;
      if (m < low2) continue;
      const gx = gradX[i]!;
      const gy = gradY[i]!;
      const ax = Math.abs(gx);
      const ay = Math.abs(gy);
      const o = across[ay <= tan22 * ax ? 0 : ax <= tan22 * ay ? 2 : gx > 0 === gy > 0 ? 1 : 3]!;
      // ≥ on one side, > on the other: a two-pixel plateau keeps exactly one pixel.
      if (m >= squared[i - o]! && m > squared[i + o]!) thin[i] = m >= high2 ? 2 : 1;
    }
  }

  // Hysteresis and the length filter in one pass over connected sets of thin pixels.
  const edges = new Uint8Array(size);
  const evidence = new Uint8Array(size);
  const stack = new Int32Array(size);
  const component: number[] = [];
  const neighbours = [-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1];
  let count = 0;
  for (let start = 0; start < size; start++) {
    if (evidence[start] || !thin[start]) continue;
    let top = 0;
    stack[top++] = start;
    evidence[start] = 1;
    component.length = 0;
    let strong = false;
    while (top > 0) {
      const i = stack[--top]!;
      component.push(i);
      if (thin[i] === 2) strong = true;
      for (const offset of neighbours) {
        const j = i + offset;
        // The outer rows and columns have no gradient (never thin), so j stays inside.
        if (!evidence[j] && thin[j]) {
          evidence[j] = 1;
          stack[top++] = j;
        }
      }
    }
    if (strong && component.length >= MIN_LINE_PIXELS) {
      for (const i of component) edges[i] = 1;
      count += component.length;
    }
  }
  return { width, height, edges, count, weight: straightWeights(edges, width, height), evidence };
}

/**
 * The p-quantile (0..1) of the positive values, from a histogram of 1024 bins over 0..max (O(n),
 * within one bin of exact). Pixels without any gradient (flat drawing, the border) are left out.
 */
function quantile(values: Float64Array, p: number): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  if (max === 0) return 0;
  const bins = new Uint32Array(1024);
  const scale = 1023 / max;
  let positive = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value > 0) {
      bins[Math.floor(value * scale)]!++;
      positive++;
    }
  }
  const target = p * positive;
  let seen = 0;
  for (let bin = 0; bin < 1024; bin++) {
    seen += bins[bin]!;
    if (seen >= target) return (bin + 1) / scale;
  }
  return max;
}

/**
 * Weight of each edge pixel: 1 where the edge pixels in the window of STRAIGHT_RADIUS around it form
 * one straight line, STRAY_WEIGHT elsewhere. Straight: the covariance of their coordinates has a
 * minor eigenvalue under STRAIGHT_SPREAD × the major one, and the major one spans most of the window
 * (a segment of length L has variance L²/12; R²/6 means L ≥ ~1.4 R). Coordinates are taken relative
 * to the pixel, so the sums stay small and exact.
 */
function straightWeights(edges: Uint8Array, width: number, height: number): Float32Array {
  const R = STRAIGHT_RADIUS;
  const weight = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!edges[y * width + x]) continue;
      let n = 0,
        sx = 0,
        sy = 0,
        sxx = 0,
        syy = 0,
        sxy = 0;
      const x0 = Math.max(0, x - R) - x;
      const x1 = Math.min(width - 1, x + R) - x;
      for (let dy = Math.max(0, y - R) - y, last = Math.min(height - 1, y + R) - y; dy <= last; dy++) {
        const row = (y + dy) * width + x;
        for (let dx = x0; dx <= x1; dx++) {
          if (!edges[row + dx]) continue;
          n++;
          sx += dx;
          sy += dy;
          sxx += dx * dx;
          syy += dy * dy;
          sxy += dx * dy;
        }
      }
      const mx = sx / n;
      const my = sy / n;
      const cxx = sxx / n - mx * mx;
      const cyy = syy / n - my * my;
      const cxy = sxy / n - mx * my;
      const half = (cxx + cyy) / 2;
      const spread = Math.sqrt(Math.max(0, half * half - (cxx * cyy - cxy * cxy)));
      const major = half + spread;
      const minor = half - spread;
      weight[y * width + x] = major >= (R * R) / 6 && minor <= STRAIGHT_SPREAD * major ? 1 : STRAY_WEIGHT;
    }
  }
  return weight;
}

/** `mask` dilated by a disc of `radius` px: everything within the tolerance of a line. */
function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const reach = Math.floor(radius);
  const disc: number[][] = [];
  for (let dy = -reach; dy <= reach; dy++)
    for (let dx = -reach; dx <= reach; dx++) if (dx * dx + dy * dy <= radius * radius) disc.push([dx, dy]);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (const [dx, dy] of disc) {
        const xx = x + dx!;
        const yy = y + dy!;
        if (xx >= 0 && xx < width && yy >= 0 && yy < height) out[yy * width + xx] = 1;
      }
    }
  }
  return out;
}

/** Weighted share of `map`'s edges inside `near`; 1 when the map has no edges (nothing there to lose or invent). */
function weightedShare(map: EdgeMap, near: Uint8Array): number {
  let total = 0;
  let inside = 0;
  for (let i = 0; i < map.weight.length; i++) {
    const w = map.weight[i]!;
    if (w === 0) continue;
    total += w;
    if (near[i]) inside += w;
  }
  return total === 0 ? 1 : inside / total;
}

/**
 * Compare two edge maps of the same size. The degenerate cases follow from "no edges → share 1":
 * both blank → 1 (nothing to keep, nothing invented); one blank, the other not → 0 (every line lost,
 * or every line invented).
 */
export function compareEdges(before: EdgeMap, after: EdgeMap, tolerance: number = STRUCTURE_DEFAULTS.tolerance): StructureScore {
  if (before.width !== after.width || before.height !== after.height) {
    throw new Error(`Edge maps of different sizes: ${before.width}×${before.height} and ${after.width}×${after.height}`);
  }
  const precision = weightedShare(after, dilate(before.evidence, before.width, before.height, tolerance));
  const recall = weightedShare(before, dilate(after.evidence, after.width, after.height, tolerance));
  const score = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { score, precision, recall, edgePixels: { before: before.count, after: after.count } };
}

/** The structure check: how much of `before`'s lines `after` kept, 0..1 (see the top of this file). */
export async function structureScore(before: Buffer, after: Buffer, options: StructureOptions = {}): Promise<StructureScore> {
  const longEdge = options.workingLongEdge ?? STRUCTURE_DEFAULTS.workingLongEdge;
  const tolerance = options.tolerance ?? STRUCTURE_DEFAULTS.tolerance;
  const { width = 0, height = 0, orientation = 1 } = await sharp(before).metadata();
  if (!width || !height) throw new Error("The input picture has no size");
  // EXIF orientations 5–8 turn the picture a quarter; decode() stands it upright.
  const size = orientation >= 5 ? workingSize(height, width, longEdge) : workingSize(width, height, longEdge);
  // Both decodes start at once (sharp works off the main thread); each picture's edges are found as
  // soon as it is decoded, so the JavaScript of one overlaps the other's decode.
  const edgesOf = async (image: Buffer) => edgeMap(await decode(image, size.width, size.height), size.width, size.height);
  const [edgesBefore, edgesAfter] = await Promise.all([edgesOf(before), edgesOf(after)]);
  return compareEdges(edgesBefore, edgesAfter, tolerance);
}
