/**
 * One contract for every render engine (see ../shared/PROVIDERS.md): an image in, an image out,
 * progress through a callback, cancellation through an AbortSignal. Transient failures are
 * reported as RetryableRenderError so the worker retries them within its deadline.
 */
import type { DesignStyle, InputMode, RoomType } from "../../../shared/styles";

export interface RenderRequest {
  image: Buffer;
  width: number;
  height: number;
  style: DesignStyle;
  roomType: RoomType;
  mode: InputMode;
  /** The user's optional note, added to the prompt. */
  prompt?: string;
  signal: AbortSignal;
  /** 0..1 where the engine says how far it is. */
  onProgress?: (fraction: number) => void;
}

export interface RenderResult {
  image: Buffer;
  mime: "image/jpeg" | "image/png" | "image/webp";
  model: string;
  seed?: number;
}

export interface RenderProvider {
  /** "local", "replicate", "openai". */
  readonly id: string;
  /** How the interface names the engine; the local one is never called AI. */
  readonly label: string;
  render(request: RenderRequest): Promise<RenderResult>;
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
