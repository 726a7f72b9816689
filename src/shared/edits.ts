/**
 * The modification studio's shared contract: what an edit request carries, the mask's limits and
 * the version tree the studio shows. An edit is a render job of kind "edit": one credit, the same
 * queue, live events, cancel and refund as a render.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";
import type { RenderMode } from "./render";
import { paintInputSchema, type PaintSurface } from "./paint";

export const EDIT = {
  /** Characters in an edit's instruction. */
  instructionMax: 300,
  /** Fewest painted pixels (at the picture's size) a mask must have: a few strokes, not a stray dot. */
  maskMinPaintedPixels: 400,
  /** Largest share of the picture a mask may cover: beyond it, an edit is a whole new render. */
  maskMaxPaintedShare: 0.95,
  /** Characters of the mask as a base64 data URL: a black-and-white PNG of a 1024-px canvas is tens of kilobytes. */
  maskDataUrlMax: 1_000_000,
  /** How far (px) the edited region fades into the original at its edge. */
  featherPx: 4,
  /** Versions of one photo the studio lists (its renders and edits). */
  versionsMax: 200,
} as const;

/** Quick instructions the studio offers (their texts are translated in the client). */
export const EDIT_PRESETS = ["remove", "replace", "recolour"] as const;
export type EditPreset = (typeof EDIT_PRESETS)[number];

export const JOB_KINDS = ["render", "edit"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/**
 * An edit: the picture (a finished render or edit by id, or an upload by id), the mask painted on it
 * as a PNG data URL (white or opaque = change, at the picture's size as the studio shows it), and
 * the instruction for the region (empty = fill it in naturally, to remove what is there).
 */
export const editRequestSchema = z
  .object({
    sourceJobId: z.string().max(64).optional(),
    uploadId: z.string().max(64).optional(),
    // The content (a PNG of the right size and area) is checked on the server: src/server/images/mask.ts.
    mask: z.string().max(EDIT.maskDataUrlMax, { error: MESSAGES.maskNotPng }),
    instruction: z.string().trim().max(EDIT.instructionMax, { error: MESSAGES.instructionTooLong }),
    preset: z.enum(EDIT_PRESETS).optional(),
  })
  .refine((input) => (input.sourceJobId === undefined) !== (input.uploadId === undefined), { error: MESSAGES.missingRequiredFields });
export type EditRequestInput = z.infer<typeof editRequestSchema>;

/**
 * The Paint tool (issue 33): the region (a mask, as an edit's) painted in one to three exact colours,
 * one version each, noted under the surface painted.
 */
export const paintRequestSchema = z
  .object({
    sourceJobId: z.string().max(64).optional(),
    uploadId: z.string().max(64).optional(),
    mask: z.string().max(EDIT.maskDataUrlMax, { error: MESSAGES.maskNotPng }),
    ...paintInputSchema.shape,
  })
  .refine((input) => (input.sourceJobId === undefined) !== (input.uploadId === undefined), { error: MESSAGES.missingRequiredFields });
export type PaintRequestInput = z.infer<typeof paintRequestSchema>;

/** One version in the studio's history: the photo itself, a render of it, or an edit. */
export interface VersionNode {
  /** The job's id; the photo itself has the upload's id. */
  id: string;
  /**
   * Its number in the history (v1 is the photo): given once, when the version was made, and never
   * changed, neither by later edits of older versions nor by deleting one (decision 069).
   */
  number: number;
  kind: "photo" | JobKind;
  /** The engine that made it (an edit by the Preview engine is a tint that did not read the instruction); null for the photo. */
  engine: { id: string; isAi: boolean } | null;
  /** The version it was made from; null for the photo (renders hang under the photo). */
  parentId: string | null;
  status: "succeeded" | "queued" | "preprocessing" | "rendering" | "saving" | "failed" | "canceled";
  instruction: string | null;
  /** A paint edit's exact colour and what it is noted under (issue 33); null otherwise. */
  paint: { colour: string; surface: PaintSurface } | null;
  style: string | null;
  /** A custom style's name as the render used it; null for a built-in style (named by the client). */
  styleName: string | null;
  /** The render's mode (an edit keeps its source's); null for the photo. */
  renderMode: RenderMode | null;
  createdAt: number;
  /** The picture as the studio shows and masks it (long edge at most 1024 px); null until finished. */
  picture: string | null;
  thumb: string | null;
  width: number | null;
  height: number | null;
}

/** One colour a project's paint edits used ("Walls: #e8e2d6"), with the finished versions painted in it. */
export interface PaintColourNote {
  surface: PaintSurface;
  colour: string;
  jobIds: string[];
  lastUsedAt: number;
}

export interface VersionTree {
  uploadId: string;
  projectId: string | null;
  nodes: VersionNode[];
}

/** The studio's picture of a source of width × height: long edge at most 1024 px, never enlarged. */
export function studioPictureSize(width: number, height: number, longEdge = 1024): { width: number; height: number } {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}
