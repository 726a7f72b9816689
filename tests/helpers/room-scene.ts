/**
 * Rooms the tests draw in perspective with a pinhole camera they set (decision 089): a box room
 * (floor, four walls, ceiling), a rug on the floor and a door in the back wall, flat-shaded, so the
 * room's true dimensions are known and the measuring code can be held to them. World units are
 * centimetres, z up, the floor at z = 0.
 */
import type { Point } from "../../src/shared/measure-geometry";

export type Vec3 = [number, number, number];

export interface Camera {
  width: number;
  height: number;
  /** Focal length in pixels. */
  focal: number;
  position: Vec3;
  /** Turn to the right from looking along +y, in degrees. */
  yaw: number;
  /** Downward tilt from level, in degrees. */
  tilt: number;
}

interface Axes {
  right: Vec3;
  down: Vec3;
  forward: Vec3;
}

const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

function axes(camera: Camera): Axes {
  const yaw = (camera.yaw * Math.PI) / 180;
  const tilt = (camera.tilt * Math.PI) / 180;
  const forward: Vec3 = [Math.sin(yaw) * Math.cos(tilt), Math.cos(yaw) * Math.cos(tilt), -Math.sin(tilt)];
  const right: Vec3 = [Math.cos(yaw), -Math.sin(yaw), 0];
  const down: Vec3 = [
    forward[1] * right[2] - forward[2] * right[1],
    forward[2] * right[0] - forward[0] * right[2],
    forward[0] * right[1] - forward[1] * right[0],
  ];
  return { right, down, forward };
}

/** The pixel a world point lands on (principal point at the picture's centre), or null behind the camera. */
export function project(camera: Camera, point: Vec3): { x: number; y: number } | null {
  const { right, down, forward } = axes(camera);
  const p = sub(point, camera.position);
  const depth = dot(p, forward);
  if (depth <= 1) return null;
  return {
    x: camera.width / 2 + (camera.focal * dot(p, right)) / depth,
    y: camera.height / 2 + (camera.focal * dot(p, down)) / depth,
  };
}

/** A pixel as the fractions the measuring code takes. */
export function fraction(camera: Camera, pixel: { x: number; y: number }): Point {
  return { x: pixel.x / camera.width, y: pixel.y / camera.height };
}

/** True when the pixel is inside the picture with a margin. */
export function inside(camera: Camera, pixel: { x: number; y: number } | null, margin = 4): pixel is { x: number; y: number } {
  return !!pixel && pixel.x >= margin && pixel.y >= margin && pixel.x <= camera.width - margin && pixel.y <= camera.height - margin;
}

export interface Room {
  /** The room spans x in [0, width], y in [0, depth], z in [0, height]. */
  width: number;
  depth: number;
  height: number;
  /** The rug's corners on the floor, in order (the first side is its width). */
  rug: [Vec3, Vec3, Vec3, Vec3];
  /** The door in the back wall (y = depth): left x, width, height. */
  door: { x: number; width: number; height: number };
}

/** The rug's corners for a rug of width × depth centred at (cx, cy), turned by `angle` degrees. */
export function rugCorners(cx: number, cy: number, width: number, depth: number, angle: number): [Vec3, Vec3, Vec3, Vec3] {
  const a = (angle * Math.PI) / 180;
  const u: [number, number] = [Math.cos(a), Math.sin(a)];
  const v: [number, number] = [-Math.sin(a), Math.cos(a)];
  const corner = (s: number, t: number): Vec3 => [
    cx + (s - 0.5) * width * u[0] + (t - 0.5) * depth * v[0],
    cy + (s - 0.5) * width * u[1] + (t - 0.5) * depth * v[1],
    0,
  ];
  return [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
}

function insidePolygon(x: number, y: number, polygon: ReadonlyArray<Vec3>): boolean {
  let crossings = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) crossings = !crossings;
  }
  return crossings;
}

const COLOURS = {
  floor: [176, 140, 100],
  rug: [60, 90, 150],
  ceiling: [240, 240, 236],
  wallBack: [222, 214, 200],
  wallSide: [200, 192, 178],
  wallFront: [210, 202, 190],
  door: [120, 70, 40],
} as const;

/**
 * The room as the camera sees it: raw RGB pixels (width × height × 3), one ray per pixel through its
 * centre, the nearest surface's flat colour.
 */
export function drawRoom(camera: Camera, room: Room): Buffer {
  const { right, down, forward } = axes(camera);
  const pixels = Buffer.alloc(camera.width * camera.height * 3);
  const [px, py, pz] = camera.position;
  for (let row = 0; row < camera.height; row++) {
    for (let col = 0; col < camera.width; col++) {
      const sx = (col + 0.5 - camera.width / 2) / camera.focal;
      const sy = (row + 0.5 - camera.height / 2) / camera.focal;
      const dx = forward[0] + sx * right[0] + sy * down[0];
      const dy = forward[1] + sx * right[1] + sy * down[1];
      const dz = forward[2] + sx * right[2] + sy * down[2];
      let best = Infinity;
      let colour: readonly number[] = COLOURS.wallFront;
      const hit = (t: number, c: readonly number[]) => {
        if (t > 0 && t < best) {
          best = t;
          colour = c;
        }
      };
      if (dz < 0) {
        const t = -pz / dz;
        const x = px + t * dx;
        const y = py + t * dy;
        hit(t, insidePolygon(x, y, room.rug) ? COLOURS.rug : COLOURS.floor);
      } else if (dz > 0) hit((room.height - pz) / dz, COLOURS.ceiling);
      if (dy > 0) {
        const t = (room.depth - py) / dy;
        const x = px + t * dx;
        const z = pz + t * dz;
        const inDoor = x >= room.door.x && x <= room.door.x + room.door.width && z <= room.door.height;
        hit(t, inDoor ? COLOURS.door : COLOURS.wallBack);
      } else if (dy < 0) hit(-py / dy, COLOURS.wallFront);
      if (dx > 0) hit((room.width - px) / dx, COLOURS.wallSide);
      else if (dx < 0) hit(-px / dx, COLOURS.wallSide);
      const at = (row * camera.width + col) * 3;
      pixels[at] = colour[0]!;
      pixels[at + 1] = colour[1]!;
      pixels[at + 2] = colour[2]!;
    }
  }
  return pixels;
}

/** A small deterministic random source (mulberry32), so a failing case can be run again. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One room the API and browser tests measure: a 2 × 1.4 m rug on the floor, a 2.05 m door in the back wall. */
export const SAMPLE_CAMERA: Camera = { width: 1024, height: 768, focal: 700, position: [250, 40, 150], yaw: 8, tilt: 16 };
export const SAMPLE_ROOM: Room = {
  width: 500,
  depth: 600,
  height: 260,
  rug: rugCorners(260, 330, 200, 140, 10),
  door: { x: 120, width: 90, height: 205 },
};

/** Where the sample room's marks are, as fractions of the picture: the rug's corners, the door, a floor line. */
export function sampleMarks() {
  const at = (point: Vec3) => fraction(SAMPLE_CAMERA, project(SAMPLE_CAMERA, point)!);
  return {
    rug: SAMPLE_ROOM.rug.map(at) as [Point, Point, Point, Point],
    doorFoot: at([120, 600, 0]),
    doorTop: at([120, 600, 205]),
    /** The back wall's foot from the door's left edge to 3 m along: 300 cm. */
    floorFrom: at([120, 600, 0]),
    floorTo: at([420, 600, 0]),
  };
}

/** The sample room as a JPEG photo. */
export async function sampleRoomPhoto(): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  return sharp(drawRoom(SAMPLE_CAMERA, SAMPLE_ROOM), { raw: { width: SAMPLE_CAMERA.width, height: SAMPLE_CAMERA.height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** The sample room from a level camera (verticals upright), for the door reference, which needs one. */
export const SAMPLE_LEVEL_CAMERA: Camera = { ...SAMPLE_CAMERA, tilt: 0, position: [250, 40, 130] };

export function sampleLevelMarks() {
  const at = (point: Vec3) => fraction(SAMPLE_LEVEL_CAMERA, project(SAMPLE_LEVEL_CAMERA, point)!);
  return {
    doorFoot: at([120, 600, 0]),
    doorTop: at([120, 600, 205]),
    /** The back right corner of the room, floor to ceiling: 260 cm. */
    cornerFoot: at([500, 600, 0]),
    cornerTop: at([500, 600, 260]),
  };
}
