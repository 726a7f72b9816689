/** What the engine adapters' tests hand an engine: a small noisy room photo and a render request around it. */
import sharp from "sharp";
import type { RenderRequest } from "../../src/server/render/engines/provider";

/** A JPEG of the given size, brown with noise (so it compresses like a photo, not a flat colour). */
export function noisyRoomPhoto(width = 120, height = 80): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#8a6d4b", noise: { type: "gaussian", mean: 110, sigma: 25 } } })
    .jpeg()
    .toBuffer();
}

/** The user's note the adapters' tests send, with the spaces a user might leave around it. */
export const TEST_NOTE = "  Please add a reading nook by the window  ";

/** A render request for `image`: a Scandinavian living room from a room photo, with TEST_NOTE, unless overridden. */
export function engineRequest(image: Buffer, overrides: Partial<RenderRequest> = {}): RenderRequest {
  return {
    image,
    width: 120,
    height: 80,
    style: "scandinavian",
    roomType: "living-room",
    mode: "room-photo",
    prompt: TEST_NOTE,
    signal: new AbortController().signal,
    ...overrides,
  };
}
