/**
 * One contract for every render engine (see ../shared/PROVIDERS.md): an image in, an image out,
 * progress through a callback, cancellation through an AbortSignal. Transient failures are
 * reported as RetryableRenderError so the worker retries them within its deadline.
 */
import type { EngineCapabilities, RenderMode, StructureStrength } from "../../../shared/render";
import type { StyleKey, StyleSnapshot } from "../../../shared/custom-styles";
import type { InputMode, RoomType } from "../../../shared/styles";
import type { PaintSurface } from "../../../shared/paint";

export type { EngineCapabilities } from "../../../shared/render";

/**
 * The engine's own id of the work, across workers (issue 30): an engine that runs work under an id
 * it can be asked about later (a Replicate prediction) reports the id once it has accepted the work,
 * and the worker records it on the job; a worker taking over the job of one that died hands it back,
 * and the engine follows that work instead of starting (and billing) it again.
 */
export interface EngineWork {
  /** The id of work already started for this job on this engine, to follow instead of starting anew. */
  resume?: string;
  /** Called once the engine has accepted new work, with its id for it. */
  onAccepted?: (workId: string) => Promise<void>;
}

export interface RenderRequest {
  image: Buffer;
  width: number;
  height: number;
  /** A built-in style's id, or a custom style's (cs_…) with its content in styleSnapshot (decision 101). */
  style: StyleKey;
  /** A custom style as the render uses it: its description and what to avoid (prompts), palette and tone (the Preview grade). */
  styleSnapshot?: StyleSnapshot;
  roomType: RoomType;
  /** What the picture shows: a room photo or a floor plan. */
  mode: InputMode;
  /** What to do with the room (default redesign); only modes in the engine's capabilities are asked for. */
  renderMode?: RenderMode;
  /** The user's optional note, added to the prompt. */
  prompt?: string;
  /** Render with this seed (engines with seeds); without it the engine picks one and reports it. */
  seed?: number;
  /** How strongly the room's lines are held (default normal). */
  structure?: StructureStrength;
  /**
   * A second picture whose look to follow (engines with capabilities.referencePicture): another room
   * of the same home, already rendered, or the custom style's reference picture (styleSnapshot.referenceUsed).
   */
  reference?: Buffer;
  signal: AbortSignal;
  /** 0..1 where the engine says how far it is. */
  onProgress?: (fraction: number) => void;
  work?: EngineWork;
}

export interface RenderResult {
  image: Buffer;
  mime: "image/jpeg" | "image/png" | "image/webp";
  /** The model that made it (e.g. "black-forest-labs/flux-kontext-pro", a checkpoint file name). */
  model: string;
  /** The model's version, when the engine says (a Replicate version id, a checkpoint hash). */
  modelVersion?: string;
  seed?: number;
  /** The prompt exactly as the engine received it. */
  prompt?: string;
  /** The other parameters sent (strengths, steps, sizes), for the render's details. */
  parameters?: Record<string, unknown>;
}

/** An upscale of a finished render to (about) the photo's size. */
export interface UpscaleRequest {
  image: Buffer;
  width: number;
  height: number;
  targetWidth: number;
  targetHeight: number;
  signal: AbortSignal;
  /** 0..1 where the engine says how far it is. */
  onProgress?: (fraction: number) => void;
}

/** A targeted edit of a painted region (the modification studio): white in the mask is changed, black is kept. */
export interface InpaintRequest {
  image: Buffer;
  /** The same size as image; white = change, black = keep. */
  mask: Buffer;
  /** What the client wants in the painted region; empty = fill it in naturally (to remove an object). */
  prompt: string;
  /**
   * A paint edit (issue 33): the exact colour for the region and what it is. The prompt already names
   * it for an AI engine; the Preview engine recolours the region to it exactly.
   */
  paint?: { colour: string; surface: PaintSurface };
  seed?: number;
  signal: AbortSignal;
  onProgress?: (fraction: number) => void;
  work?: EngineWork;
}

export interface RenderProvider {
  /** "local", "comfyui", "replicate", "openai". */
  readonly id: string;
  /** How the interface names the engine; the local one is never called AI. */
  readonly label: string;
  /** True for hosted engines that bill every call (Replicate, OpenAI): free credits then need a confirmed address. */
  readonly billedPerRender?: boolean;
  readonly capabilities: EngineCapabilities;
  render(request: RenderRequest): Promise<RenderResult>;
  /** Present when capabilities.upscale is true. */
  upscale?(request: UpscaleRequest): Promise<RenderResult>;
  /** Present when capabilities.masks is true. */
  inpaint?(request: InpaintRequest): Promise<RenderResult>;
}

/** 429, 5xx, network trouble: worth trying again. */
export class RetryableRenderError extends Error {
  override name = "RetryableRenderError";
}

export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new DOMException("Render canceled", "AbortError");
}

/** A failure worth telling the user as it is (the engine refused or failed); never retried. */
export class PermanentRenderError extends Error {
  override name = "PermanentRenderError";
}
