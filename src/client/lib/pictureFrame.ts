/**
 * The box a picture is shown in, sized from the picture's own shape so that the whole picture
 * shows (no cropping) whatever its aspect ratio: as wide as the space allows, unless that would
 * make it taller than a limit, then narrower (and centred). Pure, so tests can check the sums.
 */
import type { CSSProperties } from "react";

export interface PictureSize {
  width: number;
  height: number;
}

/** The shape a box takes before its picture's size is known. */
export const FALLBACK_SIZE: PictureSize = { width: 4, height: 3 };

/** A usable size (both sides positive, finite), or null. */
export function pictureSize(width: number | null | undefined, height: number | null | undefined): PictureSize | null {
  if (!width || !height || !Number.isFinite(width) || !Number.isFinite(height) || width <= 0 || height <= 0) return null;
  return { width, height };
}

/**
 * The box's CSS: the picture's aspect ratio, and a width of the whole space or, when the picture
 * would then be taller than `maxHeight` (a CSS length), the width at which it is exactly that tall.
 */
export function pictureFrameStyle(size: PictureSize | null, maxHeight: string): CSSProperties {
  const { width, height } = size ?? FALLBACK_SIZE;
  const ratio = Number((width / height).toFixed(6));
  return { aspectRatio: `${width} / ${height}`, width: `min(100%, calc(${maxHeight} * ${ratio}))` };
}
