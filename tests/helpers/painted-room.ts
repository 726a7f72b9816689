/**
 * A room drawn for the Paint tests (issue 33), with its regions known: a ceiling, a back wall with
 * a window in it (a white frame round a sky), a left and a right wall each of another colour, and a
 * wooden floor. Light falls from the window (each surface darker away from it) and every pixel has
 * grain, as in a photo; the drawing is the same on every run (a seeded generator).
 */
import sharp from "sharp";

export type RoomRegion = "ceiling" | "backWall" | "window" | "leftWall" | "rightWall" | "floor";

export interface PaintedRoom {
  width: number;
  height: number;
  /** RGB, three bytes per pixel. */
  rgb: Buffer;
  /** Each pixel's region. */
  regionAt(x: number, y: number): RoomRegion;
  /** One byte per pixel: 1 where the region is. */
  maskOf(region: RoomRegion): Uint8Array;
  png(): Promise<Buffer>;
}

export const ROOM_COLOURS: Record<Exclude<RoomRegion, "window">, readonly [number, number, number]> = {
  ceiling: [238, 234, 226],
  backWall: [206, 190, 162],
  leftWall: [150, 172, 142],
  rightWall: [150, 165, 190],
  floor: [132, 94, 62],
};
const FRAME = [246, 246, 244] as const;
const SKY = [168, 200, 236] as const;

/** Mulberry32: a small seeded generator, so the grain is the same each run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function paintedRoom(width = 800, height = 600, grain = 2.5): PaintedRoom {
  const random = seeded(33);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  // The back wall's corners: the side walls and the floor and ceiling meet it in perspective.
  const back = { left: width * 0.24, right: width * 0.76, top: height * 0.16, bottom: height * 0.7 };
  const window = { left: width * 0.4, right: width * 0.6, top: height * 0.26, bottom: height * 0.54, frame: 8 };
  const regionAt = (x: number, y: number): RoomRegion => {
    const cx = x + 0.5;
    const cy = y + 0.5;
    if (cx >= back.left && cx < back.right && cy >= back.top && cy < back.bottom) {
      const inWindow = cx >= window.left && cx < window.right && cy >= window.top && cy < window.bottom;
      return inWindow ? "window" : "backWall";
    }
    // Above and below the back wall, the ceiling and the floor widen towards the picture's edges
    // (the side walls' edges run from the back wall's corners to the picture's corners).
    const t = cy < back.top ? (back.top - cy) / back.top : cy >= back.bottom ? (cy - back.bottom) / (height - back.bottom) : 0;
    if (cx < back.left * (1 - t)) return "leftWall";
    if (cx >= back.right + (width - back.right) * t) return "rightWall";
    return cy < back.top ? "ceiling" : "floor";
  };
  const rgb = Buffer.alloc(width * height * 3);
  const lightX = (window.left + window.right) / 2;
  const lightY = (window.top + window.bottom) / 2;
  const reach = Math.hypot(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const region = regionAt(x, y);
      let colour: readonly [number, number, number];
      let light = 1;
      if (region === "window") {
        const inFrame =
          x + 0.5 < window.left + window.frame ||
          x + 0.5 >= window.right - window.frame ||
          y + 0.5 < window.top + window.frame ||
          y + 0.5 >= window.bottom - window.frame;
        colour = inFrame ? FRAME : SKY;
      } else {
        colour = ROOM_COLOURS[region];
        // Light falls off away from the window: up to a third darker at the far corners.
        light = 1.05 - 0.38 * (Math.hypot(x - lightX, y - lightY) / reach);
        // The floor's boards: stripes of a slightly different tone.
        if (region === "floor" && Math.floor(x / 40) % 2 === 1) light *= 0.9;
      }
      const at = (y * width + x) * 3;
      for (let channel = 0; channel < 3; channel++) {
        const value = colour[channel]! * light + gaussian() * grain;
        rgb[at + channel] = Math.max(0, Math.min(255, Math.round(value)));
      }
    }
  }
  return {
    width,
    height,
    rgb,
    regionAt,
    maskOf(region) {
      const mask = new Uint8Array(width * height);
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (regionAt(x, y) === region) mask[y * width + x] = 1;
      return mask;
    },
    png: () =>
      sharp(rgb, { raw: { width, height, channels: 3 } })
        .png()
        .toBuffer(),
  };
}

/** Intersection over union of two masks of one byte per pixel. */
export function intersectionOverUnion(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) both++;
    if (a[i] || b[i]) either++;
  }
  return either === 0 ? 1 : both / either;
}

/** How many pixels two masks share. */
export function overlap(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  for (let i = 0; i < a.length; i++) if (a[i] && b[i]) both++;
  return both;
}
