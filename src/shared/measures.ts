/**
 * Measuring a room from a photo (issue 30, decision 089): the limits, schemas, views and the
 * accuracy the app states, shared by the studio, the client review page and the server. The geometry
 * itself is measure-geometry.ts.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";
import { MEASURE_KINDS, type MeasureKind, type MeasureReference, type Point, type ReferenceKind } from "./measure-geometry";

export * from "./measure-geometry";

export const MEASURE = {
  /** Measures kept per photo. */
  perPhotoMax: 50,
  labelMax: 60,
  /** The reference's known size, in centimetres. */
  referenceMinCm: 10,
  referenceMaxCm: 2000,
  /** Measures made in AR kept per project (decision 092). */
  perProjectArMax: 100,
  /** A length measured in AR, in centimetres: 1 cm to 50 m. */
  arMinCm: 1,
  arMaxCm: 5000,
  /** How far from where the session started a point measured in AR may be, in metres (a house, not a city). */
  arPointMaxM: 100,
} as const;

/**
 * How close measures come, as measured by tests/unit/measure-accuracy.test.ts: 95 % of its measures
 * (1,000 cameras: focal length 0.5–1.0 × the long side, 110–170 cm high, yaw ±25°, tilted down 5–30°
 * for a rug, held level within ±3° for a door; every point clicked up to ±2 px off on a 1024 px
 * picture) are within this many per cent of the true length. The test fails when a measured error
 * exceeds its figure, or when a figure is more than the measurement rounded up.
 */
export const MEASURE_ACCURACY = {
  withinPercent: {
    /** Floor lengths from a rectangle on the floor (measured p95: 7.2 %). */
    floorFromRug: 8,
    /** Heights from a rectangle on the floor (measured p95: 5.6 %). */
    heightFromRug: 6,
    /** Heights from a door's height, the camera held level (measured p95: 6.5 %). */
    heightFromDoor: 7,
  },
  /** The share of measures within the figure, in per cent. */
  share: 95,
} as const;

/** The figure the app shows for a measure of this kind from this reference. */
export function accuracyPercent(reference: ReferenceKind, kind: MeasureKind): number {
  if (reference === "height") return MEASURE_ACCURACY.withinPercent.heightFromDoor;
  return kind === "floor" ? MEASURE_ACCURACY.withinPercent.floorFromRug : MEASURE_ACCURACY.withinPercent.heightFromRug;
}

/**
 * How close a measure made in AR comes, in centimetres, as measured by tests/e2e/ar-measure.test.ts: an
 * emulated phone (Meta's IWER with its synthetic environment module) in a room of known size, aimed at two
 * known points on the floor and on a wall; the saved lengths were within this of the true ones. It is the
 * app's own error (hit test, points, rounding); a real phone's AR tracking adds its own, which no test here measures.
 */
export const AR_MEASURE_TOLERANCE_CM = 1;

/** Where a measure comes from: a photo marked in the studio, or an AR session on a phone (decision 092). */
export const MEASURE_SOURCES = ["photo", "ar"] as const;
export type MeasureSource = (typeof MEASURE_SOURCES)[number];

const id = z.string().min(1).max(64);
const fraction = z.number({ error: MESSAGES.measurePointOutside }).min(0, { error: MESSAGES.measurePointOutside }).max(1, {
  error: MESSAGES.measurePointOutside,
});
export const measurePointSchema = z.object({ x: fraction, y: fraction });
const sizeCm = z
  .number()
  .min(MEASURE.referenceMinCm, { error: MESSAGES.measureSizeOutOfRange })
  .max(MEASURE.referenceMaxCm, { error: MESSAGES.measureSizeOutOfRange });

export const measureReferenceSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("floor"),
    corners: z.tuple([measurePointSchema, measurePointSchema, measurePointSchema, measurePointSchema]),
    widthCm: sizeCm,
    depthCm: sizeCm,
  }),
  z.object({ kind: z.literal("height"), foot: measurePointSchema, top: measurePointSchema, heightCm: sizeCm }),
]);

export const measureLabelSchema = z.string().trim().max(MEASURE.labelMax, { error: MESSAGES.measureLabelTooLong });

export const measuresOfPhotoInputSchema = z.object({ uploadId: id });
export const setReferenceInputSchema = z.object({ uploadId: id, reference: measureReferenceSchema.nullable() });
export const addMeasureInputSchema = z.object({
  uploadId: id,
  kind: z.enum(MEASURE_KINDS),
  a: measurePointSchema,
  b: measurePointSchema,
  label: measureLabelSchema.default(""),
});
export const deleteMeasureInputSchema = z.object({ uploadId: id, measureId: id });

/**
 * A point measured in AR: where the phone's hit test met the floor or a wall, in metres, in the AR
 * session's own space (its origin where the session started, y up). Only the distance between two
 * points means something outside the session.
 */
const metres = z
  .number({ error: MESSAGES.arMeasurePointInvalid })
  .min(-MEASURE.arPointMaxM, { error: MESSAGES.arMeasurePointInvalid })
  .max(MEASURE.arPointMaxM, { error: MESSAGES.arMeasurePointInvalid });
export const arPointSchema = z.object({ x: metres, y: metres, z: metres });
export type ArPoint = z.infer<typeof arPointSchema>;

export const projectMeasuresInputSchema = z.object({ projectId: id });
export const addArMeasureInputSchema = z.object({
  projectId: id,
  a: arPointSchema,
  b: arPointSchema,
  label: measureLabelSchema.default(""),
});
export const deleteArMeasureInputSchema = z.object({ projectId: id, measureId: id });

/** The length between two AR points in centimetres, to the millimetre (what the phone shows and the server stores). */
export function arLengthCm(a: ArPoint, b: ArPoint): number {
  return Math.round(Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) * 1000) / 10;
}

/** A measure made in AR on a phone, kept with its project. */
export interface ArMeasureView {
  id: string;
  label: string;
  lengthCm: number;
  createdAt: number;
}

export interface MeasureView {
  id: string;
  source: MeasureSource;
  kind: MeasureKind;
  a: Point;
  b: Point;
  label: string;
  /** The length as the photo's reference gives it now (null: the reference cannot measure it). */
  lengthCm: number | null;
  /** 95 % of our test measures of this kind were within this many per cent. */
  withinPercent: number | null;
  createdAt: number;
}

export interface PhotoMeasures {
  uploadId: string;
  /** The photo's size (the points are fractions of it). */
  width: number;
  height: number;
  reference: MeasureReference | null;
  measures: MeasureView[];
}

/**
 * A length as the app writes it: metric first, imperial after (the app has no unit setting):
 * "85 cm (2 ft 9 in)", "2.45 m (8 ft 0 in)"; numbers in the language's format.
 */
export function formatLength(cm: number, language = "en"): string {
  const metric =
    cm < 100
      ? `${new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(cm)} cm`
      : `${new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cm / 100)} m`;
  const inches = Math.round(cm / 2.54);
  return `${metric} (${Math.floor(inches / 12)} ft ${inches % 12} in)`;
}

/** The figures the onboarding tour states for photo measuring: the share, floor lengths, and heights from either reference (the larger). */
export const PHOTO_MEASURE_FIGURES = {
  share: MEASURE_ACCURACY.share,
  floor: MEASURE_ACCURACY.withinPercent.floorFromRug,
  height: Math.max(MEASURE_ACCURACY.withinPercent.heightFromRug, MEASURE_ACCURACY.withinPercent.heightFromDoor),
} as const;
