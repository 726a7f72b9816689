/**
 * The modification studio's mask, as pure logic: what the user did (strokes, rectangles, clears)
 * as a list of operations with undo and redo, the geometry from the screen to the mask's pixels,
 * drawing the operations onto a 2D context, and counting what is painted the way the server does.
 * The mask canvas has the picture's size as the server checks it (studioPictureSize), so these
 * coordinates are the exported PNG's pixels.
 */
import { EDIT } from "../../shared/edits";

/** "select": the Paint tool's smart selection, a click adds the surface under it (issue 33). */
export type MaskTool = "brush" | "eraser" | "rectangle" | "select";
export type PaintMode = "paint" | "erase";

export interface MaskPoint {
  x: number;
  y: number;
  /** The brush's diameter at this point, in mask pixels (pen pressure already applied). */
  size: number;
}

export type MaskOp =
  | { kind: "stroke"; mode: PaintMode; points: MaskPoint[] }
  | { kind: "rect"; mode: PaintMode; x: number; y: number; width: number; height: number }
  /** A region the smart selection found: its rows' runs of selected pixels, as [y, x, length] triples. */
  | { kind: "region"; mode: PaintMode; runs: readonly number[] }
  | { kind: "clear" };

/** A selection (one byte per pixel of the mask, 1 = selected) as an operation that paints it. */
export function regionOp(selected: Uint8Array, size: Size): Extract<MaskOp, { kind: "region" }> {
  const runs: number[] = [];
  for (let y = 0; y < size.height; y++) {
    let x = 0;
    while (x < size.width) {
      if (!selected[y * size.width + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size.width && selected[y * size.width + x]) x++;
      runs.push(y, start, x - start);
    }
  }
  return { kind: "region", mode: "paint", runs };
}

/** Everything done to the mask: `done` is drawn in order; `undone` (latest first) is what redo brings back. */
export interface MaskHistory {
  done: readonly MaskOp[];
  undone: readonly MaskOp[];
}

export const BRUSH = { min: 4, max: 200, default: 48, step: 4 } as const;
export const MASK_OPACITY = { min: 20, max: 90, default: 55 } as const;

export const emptyHistory: MaskHistory = { done: [], undone: [] };

/** A new operation: it is drawn last, and whatever was undone can no longer be redone. */
export function pushOp(history: MaskHistory, op: MaskOp): MaskHistory {
  return { done: [...history.done, op], undone: [] };
}

export function undo(history: MaskHistory): MaskHistory {
  const last = history.done.at(-1);
  if (!last) return history;
  return { done: history.done.slice(0, -1), undone: [last, ...history.undone] };
}

export function redo(history: MaskHistory): MaskHistory {
  const [next, ...rest] = history.undone;
  if (!next) return history;
  return { done: [...history.done, next], undone: rest };
}

export const canUndo = (history: MaskHistory) => history.done.length > 0;
export const canRedo = (history: MaskHistory) => history.undone.length > 0;

/** True when nothing painted survives: no operation since the last clear paints. */
export function isBlank(history: MaskHistory): boolean {
  for (let index = history.done.length - 1; index >= 0; index--) {
    const op = history.done[index]!;
    if (op.kind === "clear") return true;
    if (op.mode === "paint") return false;
  }
  return true;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * A point on the screen (clientX/Y) as a point of the mask: the mask fills `box` (the canvas
 * element's bounding box) and has `size` pixels. Points outside the picture are held at its edge.
 */
export function screenToMask(clientX: number, clientY: number, box: Box, size: Size): { x: number; y: number } {
  if (box.width <= 0 || box.height <= 0) return { x: 0, y: 0 };
  return {
    x: clamp(((clientX - box.left) / box.width) * size.width, 0, size.width),
    y: clamp(((clientY - box.top) / box.height) * size.height, 0, size.height),
  };
}

/** How many screen pixels one mask pixel takes (to draw the brush's outline at its true size). */
export function screenScale(box: Box, size: Size): number {
  return size.width > 0 ? box.width / size.width : 1;
}

/**
 * The brush's diameter for a pointer: a pen presses from a quarter of the size to the whole of it;
 * mouse and touch (whose pressure is a fixed 0.5 or 0/1) paint at the size chosen.
 */
export function brushDiameter(size: number, pointerType: string, pressure: number): number {
  if (pointerType !== "pen" || !(pressure > 0)) return size;
  return Math.max(1, size * (0.25 + 0.75 * Math.min(1, pressure)));
}

/** The rectangle between two corners, in whole pixels inside the mask. */
export function rectBetween(a: { x: number; y: number }, b: { x: number; y: number }, size: Size) {
  const left = Math.round(clamp(Math.min(a.x, b.x), 0, size.width));
  const top = Math.round(clamp(Math.min(a.y, b.y), 0, size.height));
  const right = Math.round(clamp(Math.max(a.x, b.x), 0, size.width));
  const bottom = Math.round(clamp(Math.max(a.y, b.y), 0, size.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * The keyboard's way to mark (WCAG 2.1.1): a box on the focused mask that the arrow keys move and
 * Shift with the arrow keys resize, by a twentieth of the picture; Enter or Space marks it (or
 * erases it with the eraser). Mask pixels, always inside the picture.
 */
export interface KeyboardBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The box when the mask gets the keyboard's focus: a quarter of each side, in the middle. */
export function initialKeyboardBox(size: Size): KeyboardBox {
  const width = Math.max(1, Math.round(size.width / 4));
  const height = Math.max(1, Math.round(size.height / 4));
  return { x: Math.round((size.width - width) / 2), y: Math.round((size.height - height) / 2), width, height };
}

/** The box after an arrow key (Shift: resize from its top-left corner); null for any other key. */
export function moveKeyboardBox(box: KeyboardBox, key: string, resize: boolean, size: Size): KeyboardBox | null {
  const direction = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  if (!direction) return null;
  // One step is a twentieth of the side, and the smallest box one step square.
  const unitX = Math.max(1, Math.round(size.width / 20));
  const unitY = Math.max(1, Math.round(size.height / 20));
  const [dx, dy] = direction as [number, number];
  if (resize) {
    return {
      ...box,
      width: clamp(box.width + dx * unitX, unitX, size.width - box.x),
      height: clamp(box.height + dy * unitY, unitY, size.height - box.y),
    };
  }
  return { ...box, x: clamp(box.x + dx * unitX, 0, size.width - box.width), y: clamp(box.y + dy * unitY, 0, size.height - box.height) };
}

/** The size slider's next value for the [ and ] keys. */
export function stepBrush(size: number, direction: 1 | -1): number {
  return clamp(size + direction * BRUSH.step, BRUSH.min, BRUSH.max);
}

/** The part of CanvasRenderingContext2D that drawing the mask needs (a fake one in tests). */
export type MaskContext = Pick<
  CanvasRenderingContext2D,
  | "globalCompositeOperation"
  | "fillStyle"
  | "strokeStyle"
  | "lineWidth"
  | "lineCap"
  | "lineJoin"
  | "beginPath"
  | "moveTo"
  | "lineTo"
  | "arc"
  | "fill"
  | "stroke"
  | "fillRect"
  | "clearRect"
>;

/** Draws a stroke's part from point `from` to the end (from = 0: the whole stroke). */
export function drawStroke(ctx: MaskContext, op: Extract<MaskOp, { kind: "stroke" }>, colour: string, from = 0): void {
  ctx.globalCompositeOperation = op.mode === "erase" ? "destination-out" : "source-over";
  ctx.fillStyle = colour;
  ctx.strokeStyle = colour;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  const points = op.points;
  if (points.length === 0) return;
  if (from === 0) {
    // A dot where the stroke starts: a tap paints too.
    const first = points[0]!;
    ctx.beginPath();
    ctx.arc(first.x, first.y, first.size / 2, 0, Math.PI * 2);
    ctx.fill();
  }
  for (let index = Math.max(1, from); index < points.length; index++) {
    const a = points[index - 1]!;
    const b = points[index]!;
    ctx.lineWidth = (a.size + b.size) / 2;
    ctx.beginPath();
    ctx.moveTo(a.x, a.y);
    ctx.lineTo(b.x, b.y);
    ctx.stroke();
  }
  ctx.globalCompositeOperation = "source-over";
}

/** Draws one operation. */
export function drawOp(ctx: MaskContext, op: MaskOp, size: Size, colour: string): void {
  if (op.kind === "clear") {
    ctx.globalCompositeOperation = "source-over";
    ctx.clearRect(0, 0, size.width, size.height);
    return;
  }
  if (op.kind === "stroke") {
    drawStroke(ctx, op, colour);
    return;
  }
  if (op.kind === "region") {
    ctx.globalCompositeOperation = op.mode === "erase" ? "destination-out" : "source-over";
    ctx.fillStyle = colour;
    for (let index = 0; index < op.runs.length; index += 3) ctx.fillRect(op.runs[index + 1]!, op.runs[index]!, op.runs[index + 2]!, 1);
    ctx.globalCompositeOperation = "source-over";
    return;
  }
  ctx.globalCompositeOperation = op.mode === "erase" ? "destination-out" : "source-over";
  ctx.fillStyle = colour;
  ctx.fillRect(op.x, op.y, op.width, op.height);
  ctx.globalCompositeOperation = "source-over";
}

/** Draws the whole history on a cleared mask. */
export function drawHistory(ctx: MaskContext, history: MaskHistory, size: Size, colour: string): void {
  ctx.globalCompositeOperation = "source-over";
  ctx.clearRect(0, 0, size.width, size.height);
  for (const op of history.done) drawOp(ctx, op, size, colour);
}

/** Pixels the server counts as painted: on black, bright enough (alpha ≥ 128 for one opaque colour). */
export function countPainted(rgba: Uint8ClampedArray): number {
  let painted = 0;
  for (let index = 3; index < rgba.length; index += 4) if (rgba[index]! >= 128) painted++;
  return painted;
}

export type MaskCoverage = "empty" | "tooSmall" | "ok" | "tooLarge";

/** Whether the server will take a mask with `painted` pixels of a `size` picture. */
export function maskCoverage(painted: number, size: Size): MaskCoverage {
  if (painted === 0) return "empty";
  if (painted < EDIT.maskMinPaintedPixels) return "tooSmall";
  if (painted > EDIT.maskMaxPaintedShare * size.width * size.height) return "tooLarge";
  return "ok";
}

/** What the keyboard does in the studio (null: nothing; the key is left to the page). */
export type ShortcutAction = "brush" | "eraser" | "rectangle" | "select" | "smaller" | "larger" | "undo" | "redo" | "clear";

export function shortcutFor(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): ShortcutAction | null {
  const key = event.key.toLowerCase();
  const command = event.ctrlKey || event.metaKey;
  if (event.altKey) return null;
  if (command) {
    if (key === "z") return event.shiftKey ? "redo" : "undo";
    if (key === "y" && !event.shiftKey) return "redo";
    return null;
  }
  switch (key) {
    case "b":
      return "brush";
    case "e":
      return "eraser";
    case "r":
      return "rectangle";
    case "w":
      return "select";
    case "[":
      return "smaller";
    case "]":
      return "larger";
    case "delete":
      return "clear";
    default:
      return null;
  }
}
