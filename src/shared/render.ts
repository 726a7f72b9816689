/**
 * The render flow's shared contract: job states, the live events a subscribed client receives,
 * the render request's fields, and the limits around them. Server and client import it.
 */
import { customStyleIdSchema, type CustomStyleId, type StyleKey } from "./custom-styles";
import { z } from "zod";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES, type InputMode, type RoomType } from "./styles";
import { FIELD_LIMITS } from "./constants";

export const JOB_STATUSES = ["queued", "preprocessing", "rendering", "saving", "succeeded", "failed", "canceled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "canceled"];
export const isFinalStatus = (status: JobStatus) => FINAL_JOB_STATUSES.includes(status);

/** Render limits. */
export const RENDER = {
  /** Long edge of the picture handed to the render engine (engines that work at the photo's size excepted). */
  providerInputLongEdge: 1024,
  /**
   * The most pixels an engine working at the photo's own size is given (the Preview engine): a
   * larger photo is scaled down to it, so one render's memory stays bounded (issue 30: 24 MP).
   */
  maxWorkingPixels: 24_000_000,
  mediumLongEdge: 1024,
  thumbLongEdge: 320,
  noteMax: 500,
  /** The "apply several styles" choice: at most this many styles per request. */
  maxStylesPerRequest: 12,
  /** Files in one batch upload. */
  batchMaxFiles: 20,
  /** What stands in for a project when a visitor renders the free demo. */
  demoProjectId: "demo",
  /** How long a visitor's demo pictures are kept unless they sign in from the same browser. */
  visitorWorkDays: 7,
  /** Variations of each style in one request (one credit each). */
  maxVariations: 4,
  /** Photos in one "Apply to the whole project" set (one credit each): a large listing's worth. */
  maxSetPhotos: 50,
  /** Largest seed an engine is given (fits every engine's integer seed). */
  maxSeed: 2_147_483_647,
  /** Below this "structure kept" score (0..1) a render is flagged: walls or windows may have moved. */
  structureWarningBelow: 0.6,
} as const;

/**
 * What a render does with the room: redesign it in the style (structure kept), stage an empty room
 * (furnish it in the style), or declutter (remove loose items, keep everything else).
 */
export const RENDER_MODES = ["redesign", "stage", "declutter", "sky", "twilight", "garden"] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/**
 * What an AI engine does with a photo of a house from outside (issue 33, room type "exterior"): a
 * blue sky for an overcast one, a twilight shot (day to dusk, windows lit), a refreshed garden. Only
 * these are offered for an exterior, and they only for one; each says what it changed in a listing's
 * disclosure.
 */
export const EXTERIOR_MODES = ["sky", "twilight", "garden"] as const satisfies readonly RenderMode[];
export type ExteriorMode = (typeof EXTERIOR_MODES)[number];
export const isExteriorMode = (mode: RenderMode): mode is ExteriorMode => (EXTERIOR_MODES as readonly string[]).includes(mode);

/**
 * What an engine makes of a floor plan (input mode "floor-plan"), declared by each engine and said
 * on the style page before the user confirms (decision 067):
 * - "none": nothing worth a credit (the Preview engine would only tint the drawing): a plan is not
 *   offered for rendering, and the server refuses it before anything is charged;
 * - "top-down": a furnished, coloured top view that follows the plan's walls, doors and windows
 *   (engines whose ControlNets hold the drawing's lines cannot leave the plan's viewpoint);
 * - "eye-level": one view of the room imagined at eye level from the plan, furnished (instruction
 *   editors); the layout is read from the drawing and may not match it exactly.
 */
export const FLOOR_PLAN_RENDERS = ["none", "top-down", "eye-level"] as const;
export type FloorPlanRender = (typeof FLOOR_PLAN_RENDERS)[number];

/** How strongly the engine holds the room's lines; "strong" is the re-render offered after a low structure score. */
export const STRUCTURE_STRENGTHS = ["normal", "strong"] as const;
export type StructureStrength = (typeof STRUCTURE_STRENGTHS)[number];

/** The engines that are AI (the Preview engine, "local", is not). Renders record which engine made them. */
export const AI_ENGINE_IDS: readonly string[] = ["comfyui", "replicate", "openai"];

/** Each engine's name, for renders made by an engine other than the one this server runs now. */
export const ENGINE_NAMES: Readonly<Record<string, string>> = {
  local: "Preview engine",
  comfyui: "ComfyUI",
  replicate: "Replicate",
  openai: "OpenAI",
};

/**
 * The downloads of a finished render, each labelled with what it is: "3000 × 2000, AI-upscaled with
 * <model> on <engine>", "1024 × 683, as rendered", the medium reduced for screens.
 */
export type DownloadKind = "rendered" | "upscaled" | "medium";

export interface RenderDownload {
  kind: DownloadKind;
  url: string;
  width: number;
  height: number;
  /** For an upscale: the upscale model and the engine that ran it. */
  upscaledWith?: { model: string; engine: string };
}

/** How long each phase of a render took (null while unknown). */
export interface RenderDurations {
  queuedMs: number | null;
  preprocessingMs: number | null;
  engineMs: number | null;
  savingMs: number | null;
}

/** What the configured engine can do; the interface offers only this. */
export interface EngineCapabilities {
  /** True for the AI engines; the Preview engine is not AI and nothing may say it is. */
  isAi: boolean;
  modes: readonly RenderMode[];
  /** Long edge of the largest picture the engine makes natively. */
  maxOutputLongEdge: number;
  /**
   * The engine works at the photo's own size (at most RENDER.maxWorkingPixels), so its picture "as
   * rendered" has the photo's size; otherwise it is given the photo at RENDER.providerInputLongEdge.
   */
  photoSize?: boolean;
  /**
   * A second picture can be given as the look to follow (colours, materials, furniture families):
   * a set's reference render ("Apply to the whole project"). Other engines get the set's style and seed only.
   */
  referencePicture?: boolean;
  /** A seed can be asked for (re-render with the same seed gives the same picture). */
  seeds: boolean;
  /** The engine reports how far it is (else only the phases are shown). */
  percentProgress: boolean;
  /** Targeted edits of a painted region (the modification studio). */
  masks: boolean;
  /** An AI upscale to the photo's size is available. */
  upscale: boolean;
  /** A stronger structure setting exists for a re-render after a low structure score. */
  structureStrength: boolean;
  /** What the engine makes of a floor plan ("none": plans are neither offered nor charged). */
  floorPlan: FloorPlanRender;
}

/**
 * The render modes offered for a picture: a room photo gets every interior mode the engine has, an
 * exterior photo its exterior modes (none on the Preview engine); a floor plan gets one ("redesign":
 * the plan's room furnished in the style; staging and decluttering a drawing mean nothing), or none
 * when the engine makes nothing of a plan.
 */
export function renderModesFor(
  capabilities: Pick<EngineCapabilities, "modes" | "floorPlan">,
  inputMode: InputMode,
  roomType?: RoomType,
): readonly RenderMode[] {
  if (inputMode !== "floor-plan") {
    const exterior = roomType === "exterior";
    return capabilities.modes.filter((mode) => isExteriorMode(mode) === exterior);
  }
  return capabilities.floorPlan === "none" || roomType === "exterior" ? [] : capabilities.modes.filter((mode) => mode === "redesign");
}

/**
 * The tasks an operator gives engines to (issue 30), each an ordered list tried in turn: renders
 * (redesign), staging an empty room, decluttering, exteriors (sky, twilight, garden: issue 33),
 * region edits (the modification studio), upscales.
 */
export const ENGINE_TASKS = ["render", "stage", "declutter", "exterior", "edit", "upscale"] as const;
export type EngineTask = (typeof ENGINE_TASKS)[number];

/** The task a job belongs to: an edit, or a render in its mode. */
export function engineTaskOf(kind: "render" | "edit", renderMode: RenderMode): EngineTask {
  if (kind === "edit") return "edit";
  if (isExteriorMode(renderMode)) return "exterior";
  return renderMode === "redesign" ? "render" : renderMode;
}

export interface EngineInfo {
  /** The engine that renders first (the render task's first engine). */
  id: string;
  label: string;
  isAi: boolean;
  /** The engine bills every render (a hosted API): free credits are usable once the e-mail address is confirmed. */
  billedPerRender: boolean;
  /** What the chosen engines can do together: a mode is offered when its task has an able engine, edits and upscales likewise. */
  capabilities: EngineCapabilities;
  /** Each task's engines in the order they are tried (empty: nothing does it here). */
  tasks: Record<EngineTask, string[]>;
}

/** The URLs of a finished render's pictures (all served only to their owner). */
export interface RenderResultLinks {
  /** The picture the engine was given (orientated, resized): the "before" side. */
  before: string;
  /** The engine's output at its own resolution. */
  full: string;
  medium: string;
  thumb: string;
  /** Download links: high = the original photo's resolution, medium = 1024 px long edge. */
  downloadHigh: string;
  downloadMedium: string;
}

interface EventBase {
  jobId: string;
  /** Server time of the event (Unix ms). */
  at: number;
}

/** What a subscribed client receives, in order, each with a tracked id. */
export type RenderEvent =
  | (EventBase & { type: "queued"; position: number; resumed?: boolean })
  | (EventBase & { type: "preprocessing"; startedAt: number })
  | (EventBase & { type: "rendering"; startedAt: number; percent: number | null; attempt: number })
  | (EventBase & { type: "saving"; startedAt: number })
  | (EventBase & { type: "succeeded"; startedAt: number; elapsedMs: number; result: RenderResultLinks })
  | (EventBase & { type: "failed"; message: string; refunded: boolean })
  | (EventBase & { type: "canceled"; refunded: boolean })
  /** After "succeeded": the structure check's score (0..1), measured once the result is out. */
  | (EventBase & { type: "scored"; structureScore: number; flagged: boolean })
  /**
   * The places of the owner's waiting jobs after the queue moved: one event per owner instead of
   * one per job (jobId is the first of them, the row's job). Only jobs among the first waiting ones.
   */
  | (EventBase & { type: "positions"; positions: QueuePlace[] });

/** A waiting job's place in the queue (1 = next). */
export interface QueuePlace {
  jobId: string;
  position: number;
}

/** Whether a stream of one job's events carries this event: its own, or a queue move that places it. */
export function eventConcernsJob(event: RenderEvent, jobId: string): boolean {
  return event.jobId === jobId || (event.type === "positions" && event.positions.some((place) => place.jobId === jobId));
}

/** What render.events takes: one job's events or all the owner's, after lastEventId (sent back on reconnect). */
export const renderEventsInputSchema = z.object({ jobId: z.string().min(1).max(64).optional(), lastEventId: z.string().max(20).nullish() });

export type RenderEventType = RenderEvent["type"];

export const designStyleSchema = z.enum(DESIGN_STYLES, { error: "Unknown design style" });
/** A style a render may be ordered in: a built-in one, or a custom style of the caller's space (decision 101). */
export const styleKeySchema = z.union([designStyleSchema, customStyleIdSchema.transform((id) => id as CustomStyleId)]);
export const roomTypeSchema = z.enum(ROOM_TYPES);
export const inputModeSchema = z.enum(INPUT_MODES);

/**
 * ai-render (spec section 7): projectId, imageUrl (or imageId) and style. Every field is optional
 * in the schema so that a missing one is answered with the spec's "Missing required fields".
 * style may be one style or several (one credit each).
 */
export const renderRequestSchema = z.object({
  projectId: z.string().max(64).optional(),
  imageId: z.string().max(64).optional(),
  imageUrl: z.string().max(300).optional(),
  style: z.union([styleKeySchema, z.array(styleKeySchema).max(RENDER.maxStylesPerRequest)]).optional(),
  note: z.string().max(RENDER.noteMax).optional(),
  /** Redesign (default), stage an empty room, or declutter. */
  renderMode: z.enum(RENDER_MODES).optional(),
  /** Variations of each style, 1 (default) to RENDER.maxVariations, one credit each. */
  variations: z.number().int().min(1).max(RENDER.maxVariations).optional(),
  /** Render with this seed (engines with seeds); without it each render gets a new one. */
  seed: z.number().int().min(0).max(RENDER.maxSeed).optional(),
  structure: z.enum(STRUCTURE_STRENGTHS).optional(),
});
export type RenderRequestInput = z.infer<typeof renderRequestSchema>;

export const projectNameSchema = z
  .string()
  .trim()
  .min(1, { error: "Project name is required" })
  .max(FIELD_LIMITS.projectNameMax, { error: "Project name must be less than 100 characters" });

/** Upload endpoint: POST the raw file bytes here, with these query parameters. */
export const UPLOAD_ENDPOINT = "/api/uploads";
export const uploadQuerySchema = z.object({
  mode: inputModeSchema.default("room-photo"),
  roomType: roomTypeSchema.default("living-room"),
  projectId: z.string().max(64).optional(),
});

/** What the upload endpoint answers. */
export interface UploadResponse {
  imageId: string;
  /** The project the image belongs to ("demo" for a visitor). */
  projectId: string;
  width: number;
  height: number;
  /** The stored copy (orientated, metadata removed) and a thumbnail, served only to the owner. */
  url: string;
  thumbUrl: string;
}

/**
 * "Apply to the whole project" (issue 30): the project's chosen photos rendered in one style and
 * mode with one seed, each photo with its room type, optionally after a reference picture (a
 * finished render of the project) on engines that accept one. One credit per photo.
 */
export const renderSetRequestSchema = z.object({
  projectId: z.string().min(1).max(64),
  style: styleKeySchema,
  renderMode: z.enum(RENDER_MODES).optional(),
  photos: z
    .array(z.object({ imageId: z.string().min(1).max(64), roomType: roomTypeSchema }))
    .min(1, { error: "Choose at least one photo of the project" })
    .max(RENDER.maxSetPhotos, { error: "A set renders at most 50 photos at once" }),
  referenceJobId: z.string().min(1).max(64).optional(),
});
export type RenderSetRequest = z.infer<typeof renderSetRequestSchema>;

/** A set as its project page shows it: each photo's before and, once made, its after. */
export interface RenderSetView {
  id: string;
  style: StyleKey;
  /** A custom style's name as the set used it; null for a built-in style (named by the client). */
  styleName: string | null;
  renderMode: RenderMode;
  /** The one seed asked of every picture (null: the engine has no seeds). */
  seed: number | null;
  referenceJobId: string | null;
  createdAt: number;
  pictures: Array<{
    jobId: string;
    uploadId: string;
    roomType: RoomType;
    status: JobStatus;
    before: string;
    /** The render's medium picture once it succeeded. */
    after: string | null;
  }>;
}
