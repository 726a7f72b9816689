/**
 * The studio's mask logic: the undo/redo history, the screen-to-mask geometry at any display size,
 * pen pressure, rectangles, drawing operations (on a recording context), the painted count by the
 * server's rule, the keyboard shortcuts, the keyboard's box, and the version tree's rows.
 */
import { describe, expect, it } from "vitest";
import {
  BRUSH,
  brushDiameter,
  canRedo,
  canUndo,
  countPainted,
  drawHistory,
  emptyHistory,
  initialKeyboardBox,
  isBlank,
  moveKeyboardBox,
  maskCoverage,
  pushOp,
  rectBetween,
  redo,
  screenScale,
  screenToMask,
  shortcutFor,
  stepBrush,
  undo,
  type MaskContext,
  type MaskOp,
} from "../../src/client/lib/maskPainting";
import { finishedAncestor, startingVersion, versionRows } from "../../src/client/lib/versionTree";
import { EDIT, type VersionNode } from "../../src/shared/edits";

const stroke = (x: number): MaskOp => ({ kind: "stroke", mode: "paint", points: [{ x, y: 10, size: 20 }] });
const erase: MaskOp = { kind: "stroke", mode: "erase", points: [{ x: 5, y: 5, size: 10 }] };

describe("mask history", () => {
  it("undoes and redoes in order, and a new operation drops what was undone", () => {
    let history = pushOp(pushOp(emptyHistory, stroke(1)), stroke(2));
    expect([canUndo(history), canRedo(history)]).toEqual([true, false]);
    history = undo(history);
    expect(history.done).toEqual([stroke(1)]);
    expect(history.undone).toEqual([stroke(2)]);
    history = undo(history);
    expect([canUndo(history), canRedo(history)]).toEqual([false, true]);
    expect(undo(history)).toBe(history);
    history = redo(history);
    expect(history.done).toEqual([stroke(1)]);
    expect(history.undone).toEqual([stroke(2)]);
    history = pushOp(history, stroke(3));
    expect(history.done).toEqual([stroke(1), stroke(3)]);
    expect(canRedo(history)).toBe(false);
    expect(redo(history)).toBe(history);
  });

  it("is blank with nothing painted since the last clear, and a clear can be undone", () => {
    expect(isBlank(emptyHistory)).toBe(true);
    expect(isBlank(pushOp(emptyHistory, erase))).toBe(true);
    const painted = pushOp(emptyHistory, stroke(1));
    expect(isBlank(painted)).toBe(false);
    const cleared = pushOp(painted, { kind: "clear" });
    expect(isBlank(cleared)).toBe(true);
    expect(isBlank(undo(cleared))).toBe(false);
    expect(isBlank(pushOp(cleared, { kind: "rect", mode: "paint", x: 0, y: 0, width: 5, height: 5 }))).toBe(false);
  });
});

describe("mask geometry", () => {
  const size = { width: 1024, height: 768 };

  it("maps a point on the displayed picture to the mask's pixels at any display size", () => {
    // A phone shows the 1024 × 768 mask 342 px wide; a desktop 800 px wide, elsewhere on the page.
    const phone = { left: 24, top: 300, width: 342, height: 256.5 };
    expect(screenToMask(24, 300, phone, size)).toEqual({ x: 0, y: 0 });
    expect(screenToMask(24 + 171, 300 + 128.25, phone, size)).toEqual({ x: 512, y: 384 });
    expect(screenToMask(24 + 342, 300 + 256.5, phone, size)).toEqual({ x: 1024, y: 768 });
    const desktop = { left: 100, top: 50, width: 800, height: 600 };
    expect(screenToMask(100 + 200, 50 + 150, desktop, size)).toEqual({ x: 256, y: 192 });
    expect(screenScale(desktop, size)).toBeCloseTo(800 / 1024);
  });

  it("holds points outside the picture at its edge", () => {
    const box = { left: 0, top: 0, width: 512, height: 384 };
    expect(screenToMask(-40, 1000, box, size)).toEqual({ x: 0, y: 768 });
    expect(screenToMask(9999, -5, box, size)).toEqual({ x: 1024, y: 0 });
    expect(screenToMask(10, 10, { left: 0, top: 0, width: 0, height: 0 }, size)).toEqual({ x: 0, y: 0 });
  });

  it("lets a pen's pressure thin the brush, not a mouse's or a finger's", () => {
    expect(brushDiameter(40, "mouse", 0.5)).toBe(40);
    expect(brushDiameter(40, "touch", 0)).toBe(40);
    expect(brushDiameter(40, "pen", 1)).toBe(40);
    expect(brushDiameter(40, "pen", 0.2)).toBeCloseTo(40 * (0.25 + 0.15));
    expect(brushDiameter(40, "pen", 0)).toBe(40);
  });

  it("makes a rectangle from two corners in either order, in whole pixels inside the mask", () => {
    expect(rectBetween({ x: 300.4, y: 200.6 }, { x: 100, y: 50 }, size)).toEqual({ x: 100, y: 50, width: 200, height: 151 });
    expect(rectBetween({ x: -20, y: 700 }, { x: 2000, y: 900 }, size)).toEqual({ x: 0, y: 700, width: 1024, height: 68 });
  });

  it("steps the brush size within its limits", () => {
    expect(stepBrush(BRUSH.default, 1)).toBe(BRUSH.default + BRUSH.step);
    expect(stepBrush(BRUSH.min, -1)).toBe(BRUSH.min);
    expect(stepBrush(BRUSH.max, 1)).toBe(BRUSH.max);
  });
});

/** A context that records what is drawn. */
function recordingContext() {
  const calls: string[] = [];
  const ctx = {
    globalCompositeOperation: "source-over",
    fillStyle: "",
    strokeStyle: "",
    lineWidth: 1,
    lineCap: "butt",
    lineJoin: "miter",
    beginPath: () => calls.push("beginPath"),
    moveTo: (x: number, y: number) => calls.push(`moveTo ${x},${y}`),
    lineTo: (x: number, y: number) => calls.push(`lineTo ${x},${y}`),
    arc: (x: number, y: number, radius: number) => calls.push(`arc ${x},${y} r${radius}`),
    fill: () => calls.push(`fill ${ctx.globalCompositeOperation}`),
    stroke: () => calls.push(`stroke w${ctx.lineWidth} ${ctx.globalCompositeOperation}`),
    fillRect: (x: number, y: number, w: number, h: number) => calls.push(`fillRect ${x},${y},${w},${h} ${ctx.globalCompositeOperation}`),
    clearRect: (x: number, y: number, w: number, h: number) => calls.push(`clearRect ${x},${y},${w},${h}`),
  };
  return { ctx: ctx as unknown as MaskContext, calls };
}

describe("drawing the mask", () => {
  it("replays the history from a cleared mask: dots, segments at the pressure's width, erasing and rectangles", () => {
    const { ctx, calls } = recordingContext();
    let history = pushOp(emptyHistory, {
      kind: "stroke",
      mode: "paint",
      points: [
        { x: 10, y: 10, size: 20 },
        { x: 30, y: 10, size: 10 },
      ],
    });
    history = pushOp(history, erase);
    history = pushOp(history, { kind: "rect", mode: "paint", x: 1, y: 2, width: 3, height: 4 });
    history = pushOp(history, stroke(99));
    drawHistory(ctx, undo(history), { width: 64, height: 48 }, "#ec4899");
    expect(calls).toEqual([
      "clearRect 0,0,64,48",
      "beginPath",
      "arc 10,10 r10",
      "fill source-over",
      "beginPath",
      "moveTo 10,10",
      "lineTo 30,10",
      "stroke w15 source-over",
      "beginPath",
      "arc 5,5 r5",
      "fill destination-out",
      "fillRect 1,2,3,4 source-over",
    ]);
    expect(ctx.globalCompositeOperation).toBe("source-over");
  });

  it("a clear in the history wipes what came before it", () => {
    const { ctx, calls } = recordingContext();
    drawHistory(ctx, pushOp(pushOp(emptyHistory, stroke(1)), { kind: "clear" }), { width: 8, height: 8 }, "#fff");
    expect(calls.at(-1)).toBe("clearRect 0,0,8,8");
  });

  it("counts painted pixels as the server does (alpha at least 128) and says whether the server takes the mask", () => {
    const rgba = new Uint8ClampedArray(4 * 4);
    rgba[3] = 255;
    rgba[7] = 128;
    rgba[11] = 127;
    expect(countPainted(rgba)).toBe(2);
    const size = { width: 1024, height: 768 };
    expect(maskCoverage(0, size)).toBe("empty");
    expect(maskCoverage(EDIT.maskMinPaintedPixels - 1, size)).toBe("tooSmall");
    expect(maskCoverage(EDIT.maskMinPaintedPixels, size)).toBe("ok");
    expect(maskCoverage(Math.floor(EDIT.maskMaxPaintedShare * 1024 * 768), size)).toBe("ok");
    expect(maskCoverage(Math.floor(EDIT.maskMaxPaintedShare * 1024 * 768) + 1, size)).toBe("tooLarge");
  });
});

describe("keyboard shortcuts", () => {
  const key = (name: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) =>
    shortcutFor({ key: name, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

  it("maps the listed keys, on Windows, Linux and macOS", () => {
    expect([key("b"), key("E"), key("r"), key("["), key("]"), key("Delete")]).toEqual([
      "brush",
      "eraser",
      "rectangle",
      "smaller",
      "larger",
      "clear",
    ]);
    expect(key("z", { ctrlKey: true })).toBe("undo");
    expect(key("z", { metaKey: true })).toBe("undo");
    expect(key("Z", { ctrlKey: true, shiftKey: true })).toBe("redo");
    expect(key("z", { metaKey: true, shiftKey: true })).toBe("redo");
    expect(key("y", { ctrlKey: true })).toBe("redo");
  });

  it("leaves other keys and combinations to the browser", () => {
    expect(key("z")).toBeNull();
    expect(key("b", { ctrlKey: true })).toBeNull();
    expect(key("r", { altKey: true })).toBeNull();
    expect(key("Backspace")).toBeNull();
  });
});

describe("version rows", () => {
  // The server numbers versions in the order they were made: createdAt stands for that here.
  const node = (id: string, parentId: string | null, createdAt: number, extra: Partial<VersionNode> = {}): VersionNode => ({
    id,
    number: createdAt,
    kind: parentId === null ? "photo" : "edit",
    engine: parentId === null ? null : { id: "local", isAi: false },
    parentId,
    status: "succeeded",
    renderMode: parentId === null ? null : "redesign",
    instruction: null,
    paint: null,
    style: null,
    styleName: null,
    createdAt,
    picture: `/p/${id}`,
    thumb: `/t/${id}`,
    width: 1024,
    height: 768,
    ...extra,
  });
  // photo → render → (edit a → edit a2, edit b); photo → edit c; the server lists by time.
  const nodes = [
    node("photo", null, 1),
    node("render", "photo", 2, { kind: "render" }),
    node("a", "render", 3),
    node("c", "photo", 4),
    node("b", "render", 5),
    node("a2", "a", 6, { status: "rendering", picture: null, thumb: null, width: null, height: null }),
  ];

  it("walks the tree depth first, oldest child first, with depths and the numbers the versions were given", () => {
    // a2 (made sixth) is shown under a as v6, and b and c keep v5 and v4: a row's place never renumbers it.
    expect(versionRows(nodes).map((row) => [row.node.id, row.depth, row.number, row.parentNumber])).toEqual([
      ["photo", 0, 1, null],
      ["render", 1, 2, 1],
      ["a", 2, 3, 2],
      ["a2", 3, 6, 3],
      ["b", 2, 5, 2],
      ["c", 1, 4, 1],
    ]);
  });

  it("hangs a version whose parent is not listed at the top", () => {
    expect(versionRows([node("photo", null, 1), node("orphan", "gone", 2)]).map((row) => row.depth)).toEqual([0, 0]);
  });

  it("starts from the version asked for, from its finished parent while it is being made, else from the photo", () => {
    expect(startingVersion(nodes, "b")?.id).toBe("b");
    expect(startingVersion(nodes, "a2")?.id).toBe("a");
    expect(startingVersion(nodes, "deleted")?.id).toBe("photo");
    expect(startingVersion(nodes, null)?.id).toBe("photo");
    expect(finishedAncestor(nodes, "b")?.id).toBe("render");
  });
});

describe("the keyboard's box (marking without a pointer)", () => {
  const size = { width: 1024, height: 768 };

  it("starts as a quarter of each side in the middle, and moves by a twentieth of the picture, never out of it", () => {
    const box = initialKeyboardBox(size);
    expect(box).toEqual({ x: 384, y: 288, width: 256, height: 192 });
    expect(moveKeyboardBox(box, "ArrowRight", false, size)).toEqual({ ...box, x: 435 });
    expect(moveKeyboardBox(box, "ArrowUp", false, size)).toEqual({ ...box, y: 250 });
    let edge = box;
    for (let press = 0; press < 30; press++) edge = moveKeyboardBox(edge, "ArrowLeft", false, size)!;
    expect(edge.x).toBe(0);
    for (let press = 0; press < 30; press++) edge = moveKeyboardBox(edge, "ArrowDown", false, size)!;
    expect(edge.y + edge.height).toBe(768);
  });

  it("with Shift changes its size from the top-left corner, between one step and the picture's edge", () => {
    const box = initialKeyboardBox(size);
    expect(moveKeyboardBox(box, "ArrowRight", true, size)).toEqual({ ...box, width: 307 });
    expect(moveKeyboardBox(box, "ArrowDown", true, size)).toEqual({ ...box, height: 230 });
    let small = box;
    for (let press = 0; press < 30; press++) small = moveKeyboardBox(small, "ArrowLeft", true, size)!;
    expect(small.width).toBe(51);
    let large = box;
    for (let press = 0; press < 30; press++) large = moveKeyboardBox(large, "ArrowRight", true, size)!;
    expect(large.x + large.width).toBe(1024);
  });

  it("leaves every other key alone", () => {
    expect(moveKeyboardBox(initialKeyboardBox(size), "Enter", false, size)).toBeNull();
    expect(moveKeyboardBox(initialKeyboardBox(size), "a", true, size)).toBeNull();
  });
});
