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
 * and tests/unit/structure-calibration.slow.test.ts.
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
 * 3–6° rise to 0.74): change either only with the calibration in tests/unit/structure-calibration.slow.test.ts.
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
 * The picture the edges are found on: width×height sRGB bytes, upright, transparency on white,
 * decoded and resized by sharp off the main thread.
 */
export async function workingPicture(image: Buffer, width: number, height: number): Promise<Uint8Array> {
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
 * RGB bytes (interleaved) blurred with the binomial kernel [1 4 6 4 1] in both directions (≈ Gaussian
 * σ 1 px at the working size): takes the edge off grain, texture and JPEG blocks. Integer sums,
 * rounded to 16 × the blurred value (≤ 4080), so the Sobel sums below square within 32 bits. All
 * three channels in one pass; borders mirror. (sharp's convolve would do the same off the main
 * thread, but costs 4–5 ms a call in its set-up at this size, against about 1 ms here.)
 */
function blur(rgb: Uint8Array, width: number, height: number): Uint16Array {
  const up = width * 3;
  const rows = new Uint16Array(rgb.length);
  const mirrorX = (x: number) => (x < 0 ? -x : x >= width ? 2 * width - 2 - x : x);
  for (let y = 0; y < height; y++) {
    const row = y * up;
    for (const x of [0, 1, width - 2, width - 1]) {
      for (let c = 0; c < 3; c++) {
        rows[row + x * 3 + c] =
          rgb[row + mirrorX(x - 2) * 3 + c]! +
          4 * rgb[row + mirrorX(x - 1) * 3 + c]! +
          6 * rgb[row + x * 3 + c]! +
          4 * rgb[row + mirrorX(x + 1) * 3 + c]! +
          rgb[row + mirrorX(x + 2) * 3 + c]!;
      }
    }
    for (let k = row + 6, last = row + up - 6; k < last; k++) {
      rows[k] = rgb[k - 6]! + 4 * (rgb[k - 3]! + rgb[k + 3]!) + 6 * rgb[k]! + rgb[k + 6]!;
    }
  }
  const out = new Uint16Array(rgb.length);
  const mirrorY = (y: number) => (y < 0 ? -y : y >= height ? 2 * height - 2 - y : y) * up;
  for (let y = 0; y < height; y++) {
    const r0 = mirrorY(y - 2);
    const r1 = mirrorY(y - 1);
    const r2 = y * up;
    const r3 = mirrorY(y + 1);
    const r4 = mirrorY(y + 2);
    for (let k = 0; k < up; k++) {
      out[r2 + k] = (rows[r0 + k]! + 4 * (rows[r1 + k]! + rows[r3 + k]!) + 6 * rows[r2 + k]! + rows[r4 + k]! + 8) >> 4;
    }
  }
  return out;
}

/**
 * Canny-style edges of a working picture (width×height sRGB bytes, see workingPicture): blur;
 * Sobel per colour channel, the strongest
 * channel wins (a line between two colours of equal brightness still counts); non-maximum
 * suppression (one pixel wide lines, so a thick line does not outweigh a thin one); hysteresis with
 * thresholds relative to the picture's own gradients; connected edges under MIN_LINE_PIXELS dropped.
 */
export function edgeMap(rgb: Uint8Array, width: number, height: number): EdgeMap {
  const size = width * height;
  if (rgb.length !== size * 3) throw new Error(`Expected ${size * 3} bytes, got ${rgb.length}`);
  const smooth = blur(rgb, width, height);
  // Per pixel, the strongest channel's gradient and its squared magnitude, in units of 1/16 grey level.
  const squared = new Int32Array(size);
  const gradX = new Int32Array(size);
  const gradY = new Int32Array(size);
  const up = width * 3;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      let best = -1;
      let bestX = 0;
      let bestY = 0;
      for (let p = i * 3, last = p + 3; p < last; p++) {
        const nw = smooth[p - up - 3]!;
        const ne = smooth[p - up + 3]!;
        const sw = smooth[p + up - 3]!;
        const se = smooth[p + up + 3]!;
        const gx = ne + 2 * smooth[p + 3]! + se - nw - 2 * smooth[p - 3]! - sw;
        const gy = sw + 2 * smooth[p + up]! + se - nw - 2 * smooth[p - up]! - ne;
        const m = gx * gx + gy * gy;
        if (m > best) {
          best = m;
          bestX = gx;
          bestY = gy;
        }
      }
      squared[i] = best;
      gradX[i] = bestX;
      gradY[i] = bestY;
    }
  }

  // Thresholds in grey levels, compared squared and at the blur's scale.
  const reference = Math.sqrt(quantile(squared, REFERENCE_QUANTILE)) / 16;
  const high = Math.max(MIN_MAGNITUDE, HIGH_RATIO * reference);
  const low = (LOW_RATIO / HIGH_RATIO) * high;
  const high2 = (high * 16) ** 2;
  const low2 = (low * 16) ** 2;

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
  // One array holds the component being walked: [0, found) are its pixels, [next, found) still to visit.
  const component = new Int32Array(size);
  const visit = (j: number, found: number) => {
    // The outer rows and columns have no gradient (never thin), so j stays inside.
    if (evidence[j] || !thin[j]) return found;
    evidence[j] = 1;
    component[found] = j;
    return found + 1;
  };
  let count = 0;
  for (let start = 0; start < size; start++) {
    if (evidence[start] || !thin[start]) continue;
    evidence[start] = 1;
    component[0] = start;
    let found = 1;
    let strong = false;
    for (let next = 0; next < found; next++) {
      const i = component[next]!;
      if (thin[i] === 2) strong = true;
      found = visit(i - width - 1, found);
      found = visit(i - width, found);
      found = visit(i - width + 1, found);
      found = visit(i - 1, found);
      found = visit(i + 1, found);
      found = visit(i + width - 1, found);
      found = visit(i + width, found);
      found = visit(i + width + 1, found);
    }
    if (strong && found >= MIN_LINE_PIXELS) {
      for (let k = 0; k < found; k++) edges[component[k]!] = 1;
      count += found;
    }
  }
  return { width, height, edges, count, weight: straightWeights(edges, width, height), evidence };
}

/**
 * The p-quantile (0..1) of the positive values, from a histogram of 1024 bins over 0..max (O(n),
 * within one bin of exact). Pixels without any gradient (flat drawing, the border) are left out.
 */
function quantile(values: Int32Array, p: number): number {
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
 * (a segment of length L has variance L²/12; R²/6 means L ≥ ~1.4 R).
 *
 * The window sums (count, Σx, Σy, Σx², Σy², Σxy) come from summed-area tables, four reads each
 * instead of a walk over the (2R+1)² window. All sums are integers well under 2⁵³, so they are exact,
 * and so is n²·covariance = n·Σxx − (Σx)², which the test below uses (scaled by n² on both sides).
 */
function straightWeights(edges: Uint8Array, width: number, height: number): Float32Array {
  const R = STRAIGHT_RADIUS;
  const stride = width + 1;
  const tables = Array.from({ length: 6 }, () => new Float64Array(stride * (height + 1)));
  const [tn, tx, ty, txx, tyy, txy] = tables as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  for (let y = 0; y < height; y++) {
    let n = 0,
      sx = 0,
      sy = 0,
      sxx = 0,
      syy = 0,
      sxy = 0;
    const above = y * stride;
    const here = above + stride;
    for (let x = 0; x < width; x++) {
      if (edges[y * width + x]) {
        n++;
        sx += x;
        sy += y;
        sxx += x * x;
        syy += y * y;
        sxy += x * y;
      }
      const a = above + x + 1;
      const h = here + x + 1;
      tn[h] = tn[a]! + n;
      tx[h] = tx[a]! + sx;
      ty[h] = ty[a]! + sy;
      txx[h] = txx[a]! + sxx;
      tyy[h] = tyy[a]! + syy;
      txy[h] = txy[a]! + sxy;
    }
  }
  const longEnough = (R * R) / 6;
  const weight = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = Math.max(0, y - R) * stride;
    const bottom = (Math.min(height - 1, y + R) + 1) * stride;
    for (let x = 0; x < width; x++) {
      if (!edges[y * width + x]) continue;
      const left = Math.max(0, x - R);
      const right = Math.min(width - 1, x + R) + 1;
      const a = bottom + right;
      const b = bottom + left;
      const c = top + right;
      const d = top + left;
      const n = tn[a]! - tn[b]! - tn[c]! + tn[d]!;
      const sx = tx[a]! - tx[b]! - tx[c]! + tx[d]!;
      const sy = ty[a]! - ty[b]! - ty[c]! + ty[d]!;
      // n² × the covariance of the coordinates, exact.
      const cxx = n * (txx[a]! - txx[b]! - txx[c]! + txx[d]!) - sx * sx;
      const cyy = n * (tyy[a]! - tyy[b]! - tyy[c]! + tyy[d]!) - sy * sy;
      const cxy = n * (txy[a]! - txy[b]! - txy[c]! + txy[d]!) - sx * sy;
      const half = (cxx + cyy) / 2;
      const spread = Math.sqrt(Math.max(0, half * half - (cxx * cyy - cxy * cxy)));
      const major = half + spread;
      const minor = half - spread;
      weight[y * width + x] = major >= longEnough * n * n && minor <= STRAIGHT_SPREAD * major ? 1 : STRAY_WEIGHT;
    }
  }
  return weight;
}

/** `mask` dilated by a disc of `radius` px: everything within the tolerance of a line. */
function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const reach = Math.floor(radius);
  const dxs: number[] = [];
  const dys: number[] = [];
  for (let dy = -reach; dy <= reach; dy++) {
    for (let dx = -reach; dx <= reach; dx++) {
      if (dx * dx + dy * dy <= radius * radius) {
        dxs.push(dx);
        dys.push(dy);
      }
    }
  }
  const offsets = Int32Array.from(dxs, (dx, k) => dys[k]! * width + dx);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const inside = y >= reach && y < height - reach;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (!mask[i]) continue;
      if (inside && x >= reach && x < width - reach) {
        // Away from the border every offset lands inside: no checks.
        for (let k = 0; k < offsets.length; k++) out[i + offsets[k]!] = 1;
        continue;
      }
      for (let k = 0; k < offsets.length; k++) {
        const xx = x + dxs[k]!;
        const yy = y + dys[k]!;
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
  // EXIF orientations 5–8 turn the picture a quarter; workingPicture() stands it upright.
  const size = orientation >= 5 ? workingSize(height, width, longEdge) : workingSize(width, height, longEdge);
  // The result's decode (sharp, off the main thread) overlaps the input's edges (JavaScript).
  const decodedAfter = workingPicture(after, size.width, size.height);
  const edgesBefore = edgeMap(await workingPicture(before, size.width, size.height), size.width, size.height);
  return compareEdges(edgesBefore, edgeMap(await decodedAfter, size.width, size.height), tolerance);
}
