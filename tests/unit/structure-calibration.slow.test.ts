/**
 * The structure check's calibration (src/server/render/engines/structure.ts; docs/decisions/032-structure-check.md
 * quotes the figures). Each category is a set of before/after pairs made here with sharp from rooms
 * drawn as SVG (tests/helpers/rooms.ts): five rooms of different layouts, 1024×768 JPEGs with grain.
 * Results that keep the room must score at least the warning threshold, results that moved or
 * replaced it below it; the figures are printed as a table. A check that returned a constant, or
 * compared pictures of different sizes or positions, fails both sides. Then the worker's way of
 * scoring (the two 320-px thumbnails) against the full pictures.
 *
 * A slow test (`*.slow.test.ts`): `npm test` and CI run it, `npm run test:fast` does not. The
 * structure check's own unit tests are tests/unit/structure.test.ts.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { localProvider } from "../../src/server/render/engines/local";
import { resultVariants, thumbnail } from "../../src/server/images/variants";
import { structureScore } from "../../src/server/render/engines/structure";
import { RENDER } from "../../src/shared/render";
import type { DesignStyle } from "../../src/shared/styles";
import { drawRoom, FURNITURE, jitter, LOOKS, rotate, ROOMS, shift, zoom, type RoomSpec } from "../helpers/rooms";

const WARNING = RENDER.structureWarningBelow;
const SLOW = 120_000;

/** The Preview engine's grade of a picture: a real recolour the app makes. */
async function grade(image: Buffer, style: DesignStyle): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const signal = new AbortController().signal;
  return (await localProvider.render({ image, width, height, style, roomType: "living-room", mode: "room-photo", signal })).image;
}

/** Item `step` places after `current` in `list`, wrapping: "another" look, furniture or room. */
const other = <T>(list: readonly T[], current: T, step = 1): T => list[(list.indexOf(current) + step) % list.length]!;
const restyled = (room: RoomSpec, step = 1): RoomSpec => ({
  ...room,
  look: other(LOOKS, room.look, step),
  furniture: other(FURNITURE, room.furniture, step),
});
const STYLES: DesignStyle[] = ["industrial", "scandinavian", "art-deco", "coastal", "bohemian"];
const W = 1024;
const H = 768;

interface Category {
  name: string;
  /** The pair for room `index`: [before, after]. */
  pair: (room: RoomSpec, index: number, before: Buffer) => Promise<[Buffer, Buffer]>;
}

const same = (make: (before: Buffer, index: number, room: RoomSpec) => Promise<Buffer>): Category["pair"] => {
  return async (room, index, before) => [before, await make(before, index, room)];
};

/** Results that keep the room: at least the warning threshold (and more where stated). */
const KEPT: Array<Category & { atLeast: number }> = [
  { name: "recoloured: Preview engine grade", atLeast: 0.8, pair: same((before, i) => grade(before, STYLES[i]!)) },
  {
    name: "recoloured: hue, saturation, brightness",
    atLeast: 0.8,
    pair: same((before, i) =>
      sharp(before)
        .modulate({ hue: 40 + 50 * i, saturation: 0.5 + 0.2 * i, brightness: 0.8 + 0.08 * i })
        .jpeg({ quality: 85 })
        .toBuffer(),
    ),
  },
  {
    name: "recoloured: tint, contrast halved",
    atLeast: 0.8,
    pair: same((before, i) =>
      sharp(before).tint(["#d9b38c", "#8cb3d9", "#b3d98c", "#d98cb3", "#cccccc"][i]!).linear(0.5, 70).jpeg({ quality: 85 }).toBuffer(),
    ),
  },
  {
    name: "recompressed: JPEG q30–62, blur σ 0.8–1.6",
    atLeast: 0.9,
    pair: same((before, i) =>
      sharp(before)
        .blur(0.8 + 0.2 * i)
        .jpeg({ quality: 30 + 8 * i })
        .toBuffer(),
    ),
  },
  {
    name: "other resolution or aspect, graded",
    atLeast: 0.9,
    pair: async (room, i) => {
      // [input, result]: 1000×750 → 1024×768, 1024×683 → 1536×1024, half size, 16:9 → 7:4, portrait.
      const sizes = [
        [1000, 750, 1024, 768],
        [1024, 683, 1536, 1024],
        [1024, 768, 512, 384],
        [1024, 576, 1344, 768],
        [768, 1024, 832, 1216],
      ][i]!;
      const [bw, bh, aw, ah] = sizes as [number, number, number, number];
      return [await drawRoom(room, bw, bh), await grade(await drawRoom(room, aw, ah, 4, 2), STYLES[i]!)];
    },
  },
  {
    name: "restyled: other colours, floor and furniture",
    atLeast: WARNING,
    pair: same((_before, _i, room) => drawRoom(restyled(room), W, H, 4, 2)),
  },
  {
    name: "restyled and graded",
    atLeast: WARNING,
    pair: same(async (_before, i, room) => grade(await drawRoom(restyled(room, 2), W, H, 4, 3), STYLES[(i + 2) % 5]!)),
  },
  {
    name: "restyled, lines redrawn up to 0.8 % off",
    atLeast: WARNING,
    pair: same((_before, i, room) => drawRoom({ ...restyled(room), layout: jitter(room.layout, 8, i + 1) }, W, H, 4, 4)),
  },
];

/** Results that moved or replaced the room: below the warning threshold (and less where stated). */
const MOVED: Array<Category & { below: number }> = [
  {
    name: "shifted 5–10 % sideways",
    below: WARNING,
    pair: same((before, i) => shift(before, Math.round(W * (0.05 + 0.0125 * i)) * (i % 2 ? -1 : 1), 0)),
  },
  {
    name: "shifted 5–10 % up or down",
    below: WARNING,
    pair: same((before, i) => shift(before, 0, Math.round(H * (0.05 + 0.0125 * i)) * (i % 2 ? -1 : 1))),
  },
  {
    name: "shifted 5–10 % diagonally",
    below: WARNING,
    pair: same((before, i) => shift(before, Math.round(W * (0.05 + 0.0125 * i)), Math.round(H * (0.05 + 0.0125 * i)) * (i % 2 ? -1 : 1))),
  },
  { name: "rotated 4–6°", below: WARNING, pair: same((before, i) => rotate(before, [4, -5, 6, -4, 5][i]!)) },
  { name: "different room", below: 0.5, pair: same((_before, i, room) => drawRoom(restyled(other(ROOMS, room, 1 + (i % 4))), W, H, 4, 5)) },
  {
    name: "different room, same colours and furniture",
    below: 0.5,
    pair: same((_before, i, room) => drawRoom(other(ROOMS, room, 1 + (i % 4)), W, H, 4, 6)),
  },
];

/** Not asserted against the threshold: where the check cannot tell a small move from a kept room. */
const LIMITS: Category[] = [
  { name: "(limit) rotated 2°", pair: same((before, i) => rotate(before, i % 2 ? -2 : 2)) },
  { name: "(limit) rotated 3°", pair: same((before, i) => rotate(before, i % 2 ? -3 : 3)) },
  { name: "(limit) zoomed in 5 %", pair: same((before) => zoom(before, 1.05)) },
  { name: "(limit) zoomed in 10 %", pair: same((before) => zoom(before, 1.1)) },
];

let befores: Promise<Buffer[]> | undefined;
const made = new Map<string, Promise<Array<[Buffer, Buffer]>>>();
const scored = new Map<string, Promise<number[]>>();

/** A category's five pairs, one per room, made once per run (the worker's test below compares them too). */
function pairs(category: Category): Promise<Array<[Buffer, Buffer]>> {
  let result = made.get(category.name);
  if (!result) {
    befores ??= Promise.all(ROOMS.map((room) => drawRoom(room)));
    // The rooms side by side: sharp's threads draw and encode one while JavaScript adds grain to another.
    result = befores.then((pictures) => Promise.all(ROOMS.map((room, index) => category.pair(room, index, pictures[index]!))));
    made.set(category.name, result);
  }
  return result;
}

/** The scores of a category's five pairs, made once per run. */
function scores(category: Category): Promise<number[]> {
  let result = scored.get(category.name);
  if (!result) {
    result = pairs(category).then((list) => Promise.all(list.map(async ([before, after]) => (await structureScore(before, after)).score)));
    scored.set(category.name, result);
  }
  return result;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const medianOf = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;

describe("structure check calibration", () => {
  for (const category of KEPT) {
    it(
      `keeps the room: ${category.name} ≥ ${category.atLeast}`,
      async () => {
        expect(Math.min(...(await scores(category)))).toBeGreaterThanOrEqual(category.atLeast);
      },
      SLOW,
    );
  }

  for (const category of MOVED) {
    it(
      `flags the room: ${category.name} < ${category.below}`,
      async () => {
        expect(Math.max(...(await scores(category)))).toBeLessThan(category.below);
      },
      SLOW,
    );
  }

  it("separates kept from moved rooms by a margin around the warning threshold, and prints the figures", async () => {
    const rows: Array<[string, number[]]> = [];
    for (const category of [...KEPT, ...MOVED, ...LIMITS]) rows.push([category.name, await scores(category)]);
    const lowestKept = Math.min(...KEPT.flatMap((category) => rows.find(([name]) => name === category.name)![1]));
    const highestMoved = Math.max(...MOVED.flatMap((category) => rows.find(([name]) => name === category.name)![1]));
    const width = Math.max(...rows.map(([name]) => name.length));
    const table = [
      `${"category".padEnd(width)}  min   median  max`,
      ...rows.map(([name, values]) => {
        const ordered = sorted(values);
        return `${name.padEnd(width)}  ${ordered[0]!.toFixed(2)}  ${medianOf(values).toFixed(2)}    ${ordered.at(-1)!.toFixed(2)}`;
      }),
      `lowest kept ${lowestKept.toFixed(2)}, highest moved ${highestMoved.toFixed(2)}, warning below ${WARNING}`,
    ].join("\n");
    console.log(`Structure scores, five rooms per category:\n${table}`);
    expect(lowestKept - highestMoved).toBeGreaterThanOrEqual(0.05);
    expect(lowestKept).toBeGreaterThanOrEqual(WARNING);
    expect(highestMoved).toBeLessThan(WARNING);
    // Different rooms are far below: a typical one shares about a third of its lines at most.
    const different = rows.filter(([name]) => name.startsWith("different room")).flatMap(([, values]) => values);
    expect(medianOf(different)).toBeLessThanOrEqual(0.35);
  }, 300_000);
});

describe("structure check in the worker", () => {
  it(
    "scores the thumbnails the worker compares as it scores the full pictures",
    async () => {
      // The worker compares the upload's thumbnail (made at upload) with the result's (made by
      // resultVariants): both 320 px, cheap to decode.
      const differences: number[] = [];
      for (const category of [...KEPT, ...MOVED]) {
        for (const index of [0, 3]) {
          const [before, after] = (await pairs(category))[index]!;
          const encoded = (await scores(category))[index]!;
          const thumbs = (await structureScore((await thumbnail(before)).data, (await resultVariants(after)).thumb.data)).score;
          differences.push(Math.abs(thumbs - encoded));
          expect(thumbs >= WARNING, `${category.name}, room ${index}: ${thumbs} against ${encoded}`).toBe(encoded >= WARNING);
        }
      }
      expect(Math.max(...differences)).toBeLessThanOrEqual(0.05);
    },
    SLOW,
  );
});
