/**
 * The structure check (src/server/render/engines/structure.ts): its working size, its edge maps (thin lines
 * on a drawing, none on a blank or grained picture), its tolerance, its extremes (blank against
 * blank, blank against a room), EXIF orientation and transparency, and a score that falls as the
 * room turns, zooms or shifts further. Its calibration on pairs of drawn rooms, what scores what
 * and the warning threshold, is tests/unit/structure-calibration.slow.test.ts (in `npm test`, not in
 * `npm run test:fast`: 90 pairs of 1024×768 pictures take seconds of sharp work).
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { compareEdges, edgeMap, structureScore, workingPicture, workingSize } from "../../src/server/render/engines/structure";
import { drawRoom, rotate, ROOMS, shift, zoom } from "../helpers/rooms";

const W = 1024;
const H = 768;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** A picture without lines: flat off-white (seed 0), or a flat wall under the room's light gradient with grain. */
async function blank(seed: number): Promise<Buffer> {
  if (seed === 0)
    return sharp({ create: { width: W, height: H, channels: 3, background: "#f4f1ea" } })
      .jpeg({ quality: 90 })
      .toBuffer();
  // The room helper with "furniture" that covers the whole frame: grain and the light gradient stay.
  return drawRoom({ ...ROOMS[0]!, furniture: () => `<rect width="1000" height="750" fill="#d9cbb4"/>` }, W, H, 6, seed);
}

describe("structureScore", () => {
  it("works at the input's aspect, long edge 256, never enlarging", () => {
    expect(workingSize(1024, 768, 256)).toEqual({ width: 256, height: 192 });
    expect(workingSize(1024, 683, 256)).toEqual({ width: 256, height: 171 });
    expect(workingSize(768, 1024, 256)).toEqual({ width: 192, height: 256 });
    expect(workingSize(200, 100, 256)).toEqual({ width: 200, height: 100 });
  });

  it("finds one-pixel-wide edges on a drawn rectangle, and no edges on a blank or grained picture", async () => {
    const rectangle = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="192"><rect width="256" height="192" fill="#fff"/><rect x="64" y="48" width="128" height="96" fill="#333"/></svg>`,
      ),
    )
      .png()
      .toBuffer();
    const map = edgeMap(await workingPicture(rectangle, 256, 192), 256, 192);
    // The outline is 2 × (128 + 96) = 448 px long; thin edges give about one pixel per pixel of outline.
    expect(map.count).toBeGreaterThan(400);
    expect(map.count).toBeLessThan(500);
    for (const seed of [0, 1, 2]) {
      const picture = await blank(seed);
      const result = await structureScore(picture, picture);
      expect(result.edgePixels).toEqual({ before: 0, after: 0 });
    }
  });

  it("counts a line within the tolerance (2 px at the working size) as kept and one further off as lost", async () => {
    // PNG at the working size: edge positions exact, no JPEG ringing to move them by a pixel.
    const square = (x: number, y: number) =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="192"><rect width="256" height="192" fill="#fff"/><rect x="${x}" y="${y}" width="100" height="80" fill="#333"/></svg>`,
        ),
      )
        .png()
        .toBuffer();
    const base = await square(70, 50);
    const score = async (x: number, y: number, tolerance?: number) => (await structureScore(base, await square(x, y), { tolerance })).score;
    expect(await score(71, 51)).toBeGreaterThan(0.95);
    expect(await score(72, 52)).toBeGreaterThan(0.95);
    expect(await score(73, 53)).toBeLessThan(0.1);
    expect(await score(73, 53, 3)).toBeGreaterThan(0.95);
    expect(await score(80, 60)).toBeLessThan(0.1);
  });

  it("scores two blank pictures 1 and a blank against a room 0, both ways", async () => {
    const white = await blank(0);
    const grained = await blank(3);
    const room = await drawRoom(ROOMS[0]!);
    expect(await structureScore(white, grained)).toEqual({ score: 1, precision: 1, recall: 1, edgePixels: { before: 0, after: 0 } });
    // Every line of the room lost: recall 0.
    const lost = await structureScore(room, white);
    expect(lost).toMatchObject({ score: 0, precision: 1, recall: 0, edgePixels: { after: 0 } });
    expect(lost.edgePixels.before).toBeGreaterThan(1000);
    // Every line of the result invented: precision 0.
    expect(await structureScore(white, room)).toMatchObject({ score: 0, precision: 0, recall: 1 });
  });

  it("stands a picture with an EXIF orientation upright and reads PNGs with transparency", async () => {
    const room = await drawRoom(ROOMS[1]!);
    // Stored turned a quarter, with orientation 6 ("rotate 90° clockwise to view").
    const turned = await sharp(room).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect((await sharp(turned).metadata()).orientation).toBe(6);
    expect((await structureScore(room, turned)).score).toBeGreaterThan(0.9);
    expect((await structureScore(turned, room)).score).toBeGreaterThan(0.9);
    const png = await sharp(room).ensureAlpha(1).png().toBuffer();
    expect((await structureScore(room, png)).score).toBeGreaterThan(0.9);
  });

  it("refuses to compare edge maps of different sizes", () => {
    const small = edgeMap(new Uint8Array(64 * 48 * 3), 64, 48);
    const other = edgeMap(new Uint8Array(48 * 64 * 3), 48, 64);
    expect(() => compareEdges(small, other)).toThrow(/different sizes/);
  });

  it("falls as the room turns, zooms or shifts further", async () => {
    const room = await drawRoom(ROOMS[2]!);
    const score = async (after: Promise<Buffer>) => (await structureScore(room, await after)).score;
    expect(await score(Promise.resolve(room))).toBeGreaterThan(0.99);
    const turned = [await score(rotate(room, 1)), await score(rotate(room, 3)), await score(rotate(room, 8))];
    expect(turned).toEqual(sorted(turned).reverse());
    const zoomed = [await score(zoom(room, 1.02)), await score(zoom(room, 1.06)), await score(zoom(room, 1.15))];
    expect(zoomed).toEqual(sorted(zoomed).reverse());
    const shifted = [await score(shift(room, 10, 0)), await score(shift(room, 40, 0)), await score(shift(room, 120, 0))];
    expect(shifted).toEqual(sorted(shifted).reverse());
  });
});
