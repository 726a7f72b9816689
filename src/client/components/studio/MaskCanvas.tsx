/**
 * The picture with the mask over it. The mask is a <canvas> of exactly the version's studio size
 * (the size the server checks), scaled by CSS to fit the screen with the picture; pointer events
 * (mouse, touch, pen) are turned into mask pixels. A stroke is drawn as it goes and handed to the
 * page as one operation when the pointer lifts; the page's history redraws the whole mask.
 * With the keyboard, the focused mask shows a box that the arrow keys move and size and Enter marks.
 */
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from "react";
import { useTranslation } from "react-i18next";
import { pictureFrameStyle } from "../../lib/pictureFrame";
import { MissingPicture, usePictureFailure } from "../render/Picture";
import {
  brushDiameter,
  countPainted,
  drawHistory,
  drawStroke,
  initialKeyboardBox,
  moveKeyboardBox,
  rectBetween,
  screenScale,
  screenToMask,
  type KeyboardBox,
  type MaskHistory,
  type MaskOp,
  type MaskTool,
  type Size,
} from "../../lib/maskPainting";

/** The mask's colour on screen (its opacity is the slider's); exported, painted means white. */
export const MASK_COLOUR = "#ec4899";

interface MaskCanvasProps {
  picture: string;
  alt: string;
  size: Size;
  history: MaskHistory;
  tool: MaskTool;
  brushSize: number;
  opacity: number;
  disabled?: boolean;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  onCommit(op: MaskOp): void;
  onPaintedChange(painted: number): void;
  /** The smart selection's click (tool "select"), in mask pixels: the page adds the surface there. */
  onSelectAt?(point: { x: number; y: number }): void;
}

type Gesture =
  | { kind: "stroke"; pointerId: number; op: Extract<MaskOp, { kind: "stroke" }> }
  | { kind: "rect"; pointerId: number; start: { x: number; y: number }; end: { x: number; y: number } };

export function MaskCanvas({
  picture,
  alt,
  size,
  history,
  tool,
  brushSize,
  opacity,
  disabled = false,
  canvasRef,
  onCommit,
  onPaintedChange,
  onSelectAt,
}: MaskCanvasProps) {
  const { t } = useTranslation();
  const gesture = useRef<Gesture | null>(null);
  const [rectPreview, setRectPreview] = useState<{ x: number; y: number; width: number; height: number } | null>(null);
  const [cursor, setCursor] = useState<{ x: number; y: number; diameter: number } | null>(null);
  // The picture's file may be gone (cleanup, a restore without files): the frame says so instead of staying blank.
  const pictureFailure = usePictureFailure(picture);
  const [keyboardBox, setKeyboardBox] = useState<KeyboardBox | null>(null);
  const helpId = useId();

  // The mask is the history drawn from scratch whenever it (or the picture's size) changes.
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext("2d", { willReadFrequently: true });
    if (!canvas || !ctx) return;
    drawHistory(ctx, history, size, MASK_COLOUR);
    onPaintedChange(countPainted(ctx.getImageData(0, 0, size.width, size.height).data));
  }, [canvasRef, history, size, onPaintedChange]);

  // A gesture in progress ends when the tool is switched or the canvas is disabled.
  useEffect(() => {
    gesture.current = null;
    setRectPreview(null);
  }, [tool, disabled, size]);

  const point = (event: { clientX: number; clientY: number }) => {
    const canvas = canvasRef.current!;
    return screenToMask(event.clientX, event.clientY, canvas.getBoundingClientRect(), size);
  };

  /** A rectangle of the mask where it shows on the screen, relative to the canvas. */
  const onScreen = (rect: { x: number; y: number; width: number; height: number }) => {
    const scale = screenScale(canvasRef.current!.getBoundingClientRect(), size);
    return { x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale };
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (disabled || gesture.current || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const at = point(event);
    if (tool === "select") {
      onSelectAt?.(at);
      return;
    }
    if (tool === "rectangle") {
      gesture.current = { kind: "rect", pointerId: event.pointerId, start: at, end: at };
      setRectPreview(onScreen({ x: at.x, y: at.y, width: 0, height: 0 }));
      return;
    }
    const op: Extract<MaskOp, { kind: "stroke" }> = {
      kind: "stroke",
      mode: tool === "eraser" ? "erase" : "paint",
      points: [{ ...at, size: brushDiameter(brushSize, event.pointerType, event.pressure) }],
    };
    gesture.current = { kind: "stroke", pointerId: event.pointerId, op };
    const ctx = canvasRef.current?.getContext("2d");
    if (ctx) drawStroke(ctx, op, MASK_COLOUR);
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const canvas = canvasRef.current;
    if (canvas && tool !== "rectangle" && tool !== "select" && event.pointerType !== "touch") {
      const box = canvas.getBoundingClientRect();
      setCursor({
        x: event.clientX - box.left,
        y: event.clientY - box.top,
        diameter: brushSize * screenScale(box, size),
      });
    }
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    if (current.kind === "rect") {
      current.end = point(event);
      setRectPreview(onScreen(rectBetween(current.start, current.end, size)));
      return;
    }
    // Every sample the browser took since the last event, so fast strokes stay smooth.
    const samples = event.nativeEvent.getCoalescedEvents?.() ?? [];
    const from = current.op.points.length;
    for (const sample of samples.length > 0 ? samples : [event.nativeEvent]) {
      current.op.points.push({ ...point(sample), size: brushDiameter(brushSize, sample.pointerType, sample.pressure) });
    }
    const ctx = canvas?.getContext("2d");
    if (ctx) drawStroke(ctx, current.op, MASK_COLOUR, from);
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLCanvasElement>) => {
    if (disabled || event.altKey || event.ctrlKey || event.metaKey) return;
    const box = keyboardBox ?? initialKeyboardBox(size);
    const moved = moveKeyboardBox(box, event.key, event.shiftKey, size);
    if (moved) {
      event.preventDefault(); // not the page's scrolling
      setKeyboardBox(moved);
      return;
    }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      setKeyboardBox(box);
      // The smart selection takes the surface under the box's centre.
      if (tool === "select") {
        onSelectAt?.({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
        return;
      }
      onCommit({ kind: "rect", mode: tool === "eraser" ? "erase" : "paint", ...box });
    }
  };

  const finish = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const current = gesture.current;
    if (!current || current.pointerId !== event.pointerId) return;
    gesture.current = null;
    if (current.kind === "rect") {
      setRectPreview(null);
      const rect = rectBetween(current.start, event.type === "pointercancel" ? current.end : point(event), size);
      if (rect.width >= 1 && rect.height >= 1) onCommit({ kind: "rect", mode: "paint", ...rect });
      return;
    }
    onCommit(current.op);
  };

  return (
    <div
      // The frame shows the mask's focus: the canvas's own outline would be clipped and faded with the mask.
      className="relative mx-auto max-w-full overflow-hidden rounded-xl bg-slate-100 has-[canvas:focus-visible]:outline-2 has-[canvas:focus-visible]:outline-offset-2 has-[canvas:focus-visible]:outline-brand-500 dark:bg-slate-800"
      style={pictureFrameStyle(size, "min(70vh, 44rem)")}
      data-testid="studio-canvas-frame"
      data-focus-ring
    >
      {pictureFailure.failed ? (
        <MissingPicture className="absolute inset-0 size-full" />
      ) : (
        <img
          src={picture}
          alt={alt}
          draggable={false}
          className="absolute inset-0 size-full select-none object-fill"
          onError={pictureFailure.onError}
        />
      )}
      <canvas
        ref={canvasRef}
        width={size.width}
        height={size.height}
        role="application"
        tabIndex={disabled ? -1 : 0}
        aria-label={t("studio.canvas.label", { width: size.width, height: size.height })}
        aria-describedby={helpId}
        data-testid="mask-canvas"
        data-width={size.width}
        data-height={size.height}
        className={`absolute inset-0 size-full touch-none select-none focus-visible:outline-none ${disabled ? "cursor-not-allowed" : tool === "rectangle" || tool === "select" ? "cursor-crosshair" : "cursor-none"}`}
        style={{ opacity: opacity / 100, touchAction: "none" }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={finish}
        onPointerCancel={finish}
        onPointerLeave={() => setCursor(null)}
        // The box shows for the keyboard's focus only, not for a click on the picture.
        onFocus={(event) => {
          if (event.currentTarget.matches(":focus-visible")) setKeyboardBox((box) => box ?? initialKeyboardBox(size));
        }}
        onBlur={() => setKeyboardBox(null)}
        onKeyDown={onKeyDown}
        onContextMenu={(event) => event.preventDefault()}
      />
      <p id={helpId} className="sr-only">
        {t("studio.canvas.keyboardHelp")}
      </p>
      {keyboardBox && !disabled ? (
        <>
          <div
            className="pointer-events-none absolute border-2 border-dashed border-white shadow-[0_0_0_2px_rgba(0,0,0,0.75)]"
            style={percentBox(keyboardBox, size)}
            data-testid="keyboard-box"
          />
          <p className="sr-only" aria-live="polite">
            {t("studio.canvas.keyboardBox", { ...keyboardBox })}
          </p>
        </>
      ) : null}
      {rectPreview ? (
        <div
          className="pointer-events-none absolute border-2 border-dashed border-white bg-pink-500/30 shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
          style={{ left: rectPreview.x, top: rectPreview.y, width: rectPreview.width, height: rectPreview.height }}
          data-testid="rect-preview"
        />
      ) : null}
      {cursor && !disabled ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute rounded-full border-2 border-white shadow-[0_0_0_1px_rgba(0,0,0,0.7)]"
          style={{
            left: cursor.x - cursor.diameter / 2,
            top: cursor.y - cursor.diameter / 2,
            width: cursor.diameter,
            height: cursor.diameter,
          }}
        />
      ) : null}
    </div>
  );
}

/** A box of the mask placed over the frame, in percent (the frame is scaled by CSS). */
function percentBox(box: KeyboardBox, size: Size) {
  return {
    left: `${(box.x / size.width) * 100}%`,
    top: `${(box.y / size.height) * 100}%`,
    width: `${(box.width / size.width) * 100}%`,
    height: `${(box.height / size.height) * 100}%`,
  };
}

/**
 * The mask as the server takes it: a PNG of the canvas's size, black where nothing is painted and
 * white where it is (the on-screen colour and opacity play no part).
 */
export function exportMask(canvas: HTMLCanvasElement): string {
  const out = document.createElement("canvas");
  out.width = canvas.width;
  out.height = canvas.height;
  const ctx = out.getContext("2d")!;
  ctx.drawImage(canvas, 0, 0);
  ctx.globalCompositeOperation = "source-in";
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.globalCompositeOperation = "destination-over";
  ctx.fillStyle = "#000000";
  ctx.fillRect(0, 0, out.width, out.height);
  return out.toDataURL("image/png");
}
