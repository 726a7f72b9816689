/**
 * Rooms drawn as SVG for the structure check's tests and calibration (tests/unit/structure.test.ts,
 * tests/unit/structure-calibration.slow.test.ts): a back wall, side walls and ceiling in perspective,
 * a window with mullions, a door, the floor edge and skirting, and furniture, with light gradients
 * and sensor grain like a photo. A room is its layout (the structure: walls, window, door) plus a
 * look (colours) and furniture (what a restyle changes), so tests can change one and keep the others.
 */
import sharp from "sharp";

/** Coordinates in a 1000×750 frame; a picture of another size or aspect is this frame stretched. */
export interface Layout {
  /** The back wall's rectangle: x0, y0 (ceiling line), x1, y1 (floor line). */
  back: [number, number, number, number];
  /** Window on the back wall: x, y, width, height, mullion columns and rows. */
  window: { x: number; y: number; width: number; height: number; columns: number; rows: number };
  /** Door on the back wall: x, width, height (it stands on the floor line). */
  door: { x: number; width: number; height: number };
}

export interface Look {
  ceiling: string;
  back: string;
  left: string;
  right: string;
  floor: string;
  frame: string;
  glass: string;
  door: string;
  skirting: string;
  /** The floor's pattern: boards running to the back wall, square tiles, or none. */
  pattern: "boards" | "tiles" | "plain";
}

/** SVG elements of the furniture, in the 1000×750 frame. */
export type Furniture = (layout: Layout) => string;

export const LAYOUTS: Record<string, Layout> = {
  wide: {
    back: [180, 120, 820, 520],
    window: { x: 520, y: 180, width: 230, height: 190, columns: 2, rows: 2 },
    door: { x: 240, width: 110, height: 270 },
  },
  deep: {
    back: [300, 200, 700, 470],
    window: { x: 340, y: 240, width: 150, height: 120, columns: 3, rows: 1 },
    door: { x: 570, width: 90, height: 200 },
  },
  offset: {
    back: [80, 90, 620, 560],
    window: { x: 120, y: 160, width: 260, height: 240, columns: 2, rows: 3 },
    door: { x: 460, width: 120, height: 300 },
  },
  right: {
    back: [380, 140, 930, 500],
    window: { x: 660, y: 190, width: 220, height: 150, columns: 4, rows: 1 },
    door: { x: 420, width: 100, height: 250 },
  },
  tall: {
    back: [240, 60, 760, 600],
    window: { x: 300, y: 120, width: 180, height: 300, columns: 1, rows: 3 },
    door: { x: 580, width: 120, height: 330 },
  },
};

export const LOOKS: Look[] = [
  {
    ceiling: "#f1eee8",
    back: "#d9cbb4",
    left: "#c7b79d",
    right: "#bfae92",
    floor: "#8a6a4b",
    frame: "#fbfaf7",
    glass: "#a9cbe8",
    door: "#7a5a3c",
    skirting: "#f4f1ea",
    pattern: "boards",
  },
  {
    ceiling: "#e9edf0",
    back: "#9fb3c2",
    left: "#8ea3b3",
    right: "#869bab",
    floor: "#c9c2b6",
    frame: "#2f3338",
    glass: "#dce9f2",
    door: "#e8e4dc",
    skirting: "#2f3338",
    pattern: "tiles",
  },
  {
    ceiling: "#fdf8ef",
    back: "#6f7f5f",
    left: "#617150",
    right: "#5b6a4b",
    floor: "#5a4330",
    frame: "#efe6d4",
    glass: "#c3dbe6",
    door: "#3c4a33",
    skirting: "#efe6d4",
    pattern: "plain",
  },
  {
    ceiling: "#f6f2f0",
    back: "#c98f7a",
    left: "#b98170",
    right: "#b07867",
    floor: "#3f3a36",
    frame: "#ffffff",
    glass: "#9cc1dc",
    door: "#ffffff",
    skirting: "#ffffff",
    pattern: "boards",
  },
];

const floorY = (layout: Layout) => layout.back[3];

export const FURNITURE: Furniture[] = [
  // Sofa, cushions, low table, floor lamp, rug.
  (l) => {
    const y = floorY(l);
    return `<ellipse cx="520" cy="${y + 150}" rx="260" ry="60" fill="#a44a3f" opacity="0.8"/>
      <rect x="230" y="${y + 20}" width="380" height="130" rx="24" fill="#5f6b78"/>
      <rect x="250" y="${y - 30}" width="340" height="70" rx="20" fill="#6f7d8c"/>
      <rect x="280" y="${y - 10}" width="80" height="60" rx="14" fill="#c98f5a"/>
      <rect x="640" y="${y + 90}" width="160" height="50" fill="#5b4636"/>
      <line x1="860" y1="${y - 200}" x2="860" y2="${y + 120}" stroke="#2b2b2b" stroke-width="6"/>
      <polygon points="820,${y - 200} 900,${y - 200} 880,${y - 250} 840,${y - 250}" fill="#f3e2b3"/>`;
  },
  // Bed with headboard, bedside table, lamp, plant.
  (l) => {
    const y = floorY(l);
    return `<rect x="300" y="${y - 60}" width="360" height="80" rx="8" fill="#4b3b2d"/>
      <rect x="280" y="${y}" width="400" height="140" rx="10" fill="#ece7de"/>
      <rect x="320" y="${y + 10}" width="130" height="40" rx="12" fill="#ffffff"/>
      <rect x="700" y="${y + 30}" width="90" height="90" fill="#6b5440"/>
      <circle cx="745" cy="${y + 5}" r="24" fill="#fde68a"/>
      <circle cx="150" cy="${y + 60}" r="60" fill="#3e6b48"/>
      <rect x="135" y="${y + 100}" width="30" height="80" fill="#b0876a"/>`;
  },
  // Dining table with chairs and a pendant light.
  (l) => {
    const y = floorY(l);
    return `<rect x="320" y="${y + 40}" width="360" height="24" fill="#6b4f36"/>
      <rect x="340" y="${y + 64}" width="16" height="120" fill="#6b4f36"/>
      <rect x="644" y="${y + 64}" width="16" height="120" fill="#6b4f36"/>
      <rect x="250" y="${y - 20}" width="60" height="200" rx="6" fill="#2f4858"/>
      <rect x="690" y="${y - 20}" width="60" height="200" rx="6" fill="#2f4858"/>
      <line x1="500" y1="0" x2="500" y2="${y - 150}" stroke="#222222" stroke-width="4"/>
      <circle cx="500" cy="${y - 130}" r="26" fill="#fcd34d"/>`;
  },
  // Armchairs, bookshelf with books, side table.
  (l) => {
    const y = floorY(l);
    const books = Array.from(
      { length: 10 },
      (_, index) =>
        `<rect x="${710 + index * 17}" y="${y - 170 + (index % 3) * 8}" width="13" height="${70 - (index % 3) * 8}" fill="hsl(${(index * 47) % 360},45%,42%)"/>`,
    ).join("");
    return `<rect x="690" y="${y - 200}" width="200" height="320" fill="#5b4636"/>${books}
      <rect x="200" y="${y + 10}" width="150" height="150" rx="30" fill="#8c6d4f"/>
      <rect x="420" y="${y + 10}" width="150" height="150" rx="30" fill="#8c6d4f"/>
      <circle cx="385" cy="${y + 110}" r="30" fill="#d6d3d1"/>`;
  },
];

/** Floor lines in perspective: boards converge to the back wall, tiles add rows that close up with distance. */
function floorPattern(layout: Layout, look: Look): string {
  if (look.pattern === "plain") return "";
  const [x0, , x1, y1] = layout.back;
  const stroke = `stroke="#000000" stroke-opacity="0.28" stroke-width="3"`;
  const count = look.pattern === "boards" ? 14 : 8;
  const lines = Array.from({ length: count - 1 }, (_, index) => {
    const t = (index + 1) / count;
    return `<line x1="${x0 + (x1 - x0) * t}" y1="${y1}" x2="${1000 * t}" y2="750" ${stroke}/>`;
  });
  if (look.pattern === "tiles") {
    for (const t of [0.12, 0.28, 0.5, 0.78]) {
      const y = y1 + (750 - y1) * t;
      const left = x0 * (1 - t);
      const right = x1 + (1000 - x1) * t;
      lines.push(`<line x1="${left}" y1="${y}" x2="${right}" y2="${y}" ${stroke}/>`);
    }
  }
  return lines.join("");
}

function roomSvg(layout: Layout, look: Look, furniture: string, width: number, height: number): string {
  const [x0, y0, x1, y1] = layout.back;
  const w = layout.window;
  const d = layout.door;
  const mullions = [
    ...Array.from({ length: w.columns - 1 }, (_, index) => {
      const x = w.x + ((index + 1) * w.width) / w.columns;
      return `<line x1="${x}" y1="${w.y}" x2="${x}" y2="${w.y + w.height}" stroke="${look.frame}" stroke-width="7"/>`;
    }),
    ...Array.from({ length: w.rows - 1 }, (_, index) => {
      const y = w.y + ((index + 1) * w.height) / w.rows;
      return `<line x1="${w.x}" y1="${y}" x2="${w.x + w.width}" y2="${y}" stroke="${look.frame}" stroke-width="7"/>`;
    }),
  ].join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1000 750" preserveAspectRatio="none">
  <defs>
    <linearGradient id="light" x1="0" y1="0" x2="1" y2="0.3">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.18"/><stop offset="1" stop-color="#000000" stop-opacity="0.12"/>
    </linearGradient>
  </defs>
  <polygon points="0,0 1000,0 ${x1},${y0} ${x0},${y0}" fill="${look.ceiling}"/>
  <polygon points="0,0 ${x0},${y0} ${x0},${y1} 0,750" fill="${look.left}"/>
  <polygon points="1000,0 ${x1},${y0} ${x1},${y1} 1000,750" fill="${look.right}"/>
  <rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="${look.back}"/>
  <polygon points="0,750 ${x0},${y1} ${x1},${y1} 1000,750" fill="${look.floor}"/>
  ${floorPattern(layout, look)}
  <line x1="${x0}" y1="${y1 - 6}" x2="${x1}" y2="${y1 - 6}" stroke="${look.skirting}" stroke-width="10"/>
  <rect x="${w.x}" y="${w.y}" width="${w.width}" height="${w.height}" fill="${look.glass}" stroke="${look.frame}" stroke-width="12"/>
  ${mullions}
  <rect x="${d.x}" y="${y1 - d.height}" width="${d.width}" height="${d.height}" fill="${look.door}" stroke="${look.frame}" stroke-width="8"/>
  <circle cx="${d.x + d.width - 16}" cy="${y1 - d.height / 2}" r="5" fill="${look.skirting}"/>
  ${furniture}
  <rect width="1000" height="750" fill="url(#light)"/>
</svg>`;
}

export interface RoomSpec {
  layout: Layout;
  look: Look;
  furniture: Furniture;
}

/**
 * Sensor grain: `amount` (σ, grey levels) of Gaussian-like noise per channel from a seeded
 * generator, so a test's pictures are the same on every run (sharp's own noise is not seeded).
 * Whole grey levels: Math.round(level + noise) is level + Math.round(noise) for a whole level, so
 * adding these gives the same bytes as adding the unrounded noise.
 */
function grainBytes(width: number, height: number, amount: number, seed: number): Int8Array {
  let state = Math.imul(seed, 2654435761) >>> 0 || 1;
  const noise = new Int8Array(width * height * 3);
  for (let i = 0; i < noise.length; i++) {
    // xorshift32; the sum of four uniforms is close enough to a Gaussian for grain (σ of the sum: 1/√3).
    let sum = 0;
    for (let k = 0; k < 4; k++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      sum += state / 4294967296 - 0.5;
    }
    noise[i] = Math.round(Math.fround(sum * Math.sqrt(3) * amount));
  }
  return noise;
}

/**
 * The grain of each size, amount and seed, made once per test file: the calibration draws many
 * rooms with the same grain (a category's five "after" pictures share a seed), and making it is
 * most of what drawing a room costs.
 */
const grains = new Map<string, Int8Array>();
function grainOf(width: number, height: number, amount: number, seed: number): Int8Array {
  const key = `${width}x${height}:${amount}:${seed}`;
  let noise = grains.get(key);
  if (!noise) {
    noise = grainBytes(width, height, amount, seed);
    grains.set(key, noise);
  }
  return noise;
}

/** The room as a JPEG of width×height (q90) with `grain` grey levels (σ) of sensor grain; `seed` picks the grain. */
export async function drawRoom(room: RoomSpec, width = 1024, height = 768, grain = 4, seed = 1): Promise<Buffer> {
  const drawing = await sharp(Buffer.from(roomSvg(room.layout, room.look, room.furniture(room.layout), width, height)))
    .removeAlpha()
    .raw()
    .toBuffer();
  if (grain > 0) {
    const noise = grainOf(width, height, grain, seed);
    for (let i = 0; i < drawing.length; i++) drawing[i] = Math.max(0, Math.min(255, drawing[i]! + noise[i]!));
  }
  return sharp(drawing, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const ROOM_NAMES = Object.keys(LAYOUTS);
/** The five calibration rooms: each layout with its own look and furniture. */
export const ROOMS: RoomSpec[] = ROOM_NAMES.map((name, index) => ({
  layout: LAYOUTS[name]!,
  look: LOOKS[index % LOOKS.length]!,
  furniture: FURNITURE[index % FURNITURE.length]!,
}));

/** Shift the picture by (dx, dy) px, the uncovered band filled by mirroring (no hard new border). */
export async function shift(image: Buffer, dx: number, dy: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const pad = Math.max(Math.abs(dx), Math.abs(dy));
  const extended = await sharp(image)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: "mirror" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(extended.data, { raw: extended.info })
    .extract({ left: pad - dx, top: pad - dy, width, height })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Rotate by `degrees` about the centre, same frame; the corners the rotation uncovers are filled by mirroring. */
export async function rotate(image: Buffer, degrees: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const pad = Math.ceil(Math.max(width, height) * 0.1);
  const extended = await sharp(image)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: "mirror" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rotated = await sharp(extended.data, { raw: extended.info })
    .rotate(degrees, { background: "#808080" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(rotated.data, { raw: rotated.info })
    .extract({ left: Math.round((rotated.info.width - width) / 2), top: Math.round((rotated.info.height - height) / 2), width, height })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * The layout with every wall corner, window and door edge moved by up to ±`amount` frame units
 * (of 1000 across), deterministically from `seed`: how an engine that kept the room redraws its
 * lines, a few pixels off.
 */
export function jitter(layout: Layout, amount: number, seed: number): Layout {
  let state = Math.imul(seed, 2654435761) >>> 0 || 1;
  // xorshift32: a uniform offset in −amount..amount.
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return (state / 4294967296) * 2 * amount - amount;
  };
  const [x0, y0, x1, y1] = layout.back;
  return {
    back: [x0 + next(), y0 + next(), x1 + next(), y1 + next()],
    window: {
      ...layout.window,
      x: layout.window.x + next(),
      y: layout.window.y + next(),
      width: layout.window.width + next(),
      height: layout.window.height + next(),
    },
    door: { ...layout.door, x: layout.door.x + next(), width: layout.door.width + next(), height: layout.door.height + next() },
  };
}

/** Zoom in by `factor` (> 1) about the centre, same frame: the camera moved forward. */
export async function zoom(image: Buffer, factor: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const cropWidth = Math.round(width / factor);
  const cropHeight = Math.round(height / factor);
  return sharp(image)
    .extract({
      left: Math.round((width - cropWidth) / 2),
      top: Math.round((height - cropHeight) / 2),
      width: cropWidth,
      height: cropHeight,
    })
    .resize(width, height, { fit: "fill" })
    .jpeg({ quality: 90 })
    .toBuffer();
}
