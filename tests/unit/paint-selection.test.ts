/**
 * The Paint tool's shared parts (issue 33): colour arithmetic checked against published values, the
 * request's limits, and the smart selection on a room drawn with known regions: one click selects
 * the wall it lands on (intersection over union at least 0.9) and nothing of the window in it.
 */
import { describe, expect, it } from "vitest";
import { deltaE2000, hexOfRgb, labOfRgb, paintInputSchema, rgbOfHex, smartSelect } from "../../src/shared/paint";
import { MESSAGES } from "../../src/shared/messages";
import { intersectionOverUnion, overlap, paintedRoom, type RoomRegion } from "../helpers/painted-room";

describe("paint colours", () => {
  it("converts between #rrggbb and RGB, and sRGB to CIE Lab (D65)", () => {
    expect(rgbOfHex("#e8e2d6")).toEqual([232, 226, 214]);
    expect(hexOfRgb([232, 226, 214])).toBe("#e8e2d6");
    const [l, a, b] = labOfRgb([255, 255, 255]);
    expect(l).toBeCloseTo(100, 3);
    expect(Math.abs(a) + Math.abs(b)).toBeLessThan(0.01);
    // sRGB red in CIE Lab (D65): about (53.24, 80.09, 67.20).
    const red = labOfRgb([255, 0, 0]);
    expect(red[0]).toBeCloseTo(53.24, 1);
    expect(red[1]).toBeCloseTo(80.09, 1);
    expect(red[2]).toBeCloseTo(67.2, 1);
  });

  it("measures ΔE 2000 as Sharma, Wu and Dalal's test data does", () => {
    // Pairs 1, 7 and 17 of the published test data.
    expect(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE2000([50, 0, 0], [50, -1, 2])).toBeCloseTo(2.3669, 4);
    expect(deltaE2000([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
    expect(deltaE2000([60, 10, 10], [60, 10, 10])).toBe(0);
  });

  it("takes one to three different colours under a named surface, and refuses the rest with the message", () => {
    expect(paintInputSchema.parse({ surface: "walls", colours: ["#E8E2D6"] })).toEqual({ surface: "walls", colours: ["#e8e2d6"] });
    const refusal = (input: unknown) => paintInputSchema.safeParse(input).error?.issues[0]?.message;
    expect(refusal({ surface: "walls", colours: ["#e8e2d6", "#000000", "#ffffff", "#123456"] })).toBe(MESSAGES.paintTooManyColours);
    expect(refusal({ surface: "walls", colours: ["e8e2d6"] })).toBe(MESSAGES.paintColourInvalid);
    expect(refusal({ surface: "walls", colours: ["#e8e2d6", "#E8E2D6"] })).toBe(MESSAGES.paintColourRepeated);
    expect(refusal({ surface: "roof", colours: ["#e8e2d6"] })).toBe(MESSAGES.paintSurfaceInvalid);
    expect(refusal({ surface: "walls", colours: [] })).toBe(MESSAGES.paintColourInvalid);
  });
});

describe("smart selection", () => {
  const room = paintedRoom();
  const picture = { width: room.width, height: room.height, data: room.rgb, channels: 3 as const };
  const click = (x: number, y: number) => smartSelect(picture, { x: x * room.width, y: y * room.height });

  it.each<[RoomRegion, number, number]>([
    ["backWall", 0.3, 0.45],
    ["backWall", 0.7, 0.62],
    ["leftWall", 0.1, 0.5],
    ["rightWall", 0.9, 0.4],
    ["ceiling", 0.5, 0.05],
  ])("one click on the %s at (%f, %f) selects it and nothing of the window or another surface", (region, x, y) => {
    const selected = click(x, y);
    expect(intersectionOverUnion(selected, room.maskOf(region))).toBeGreaterThanOrEqual(0.9);
    expect(overlap(selected, room.maskOf("window"))).toBe(0);
    for (const other of ["ceiling", "backWall", "leftWall", "rightWall", "floor"] as const) {
      if (other !== region) expect(overlap(selected, room.maskOf(other)), other).toBeLessThan(room.width);
    }
  });

  it("a click in the window's sky selects the sky, not the wall round it", () => {
    const selected = click(0.5, 0.4);
    expect(overlap(selected, room.maskOf("backWall"))).toBe(0);
    expect(overlap(selected, room.maskOf("window"))).toBeGreaterThan(0);
  });

  it("a click outside the picture selects nothing", () => {
    expect(smartSelect(picture, { x: -1, y: 10 }).some(Boolean)).toBe(false);
    expect(smartSelect(picture, { x: room.width, y: 10 }).some(Boolean)).toBe(false);
  });

  it("reads RGBA pixels (a canvas's ImageData) as it reads RGB", () => {
    const rgba = new Uint8ClampedArray(room.width * room.height * 4);
    for (let i = 0; i < room.width * room.height; i++) {
      rgba.set(room.rgb.subarray(i * 3, i * 3 + 3), i * 4);
      rgba[i * 4 + 3] = 255;
    }
    const fromRgba = smartSelect({ width: room.width, height: room.height, data: rgba, channels: 4 }, { x: 240, y: 270 });
    expect(fromRgba).toEqual(click(0.3, 0.45));
  });
});
