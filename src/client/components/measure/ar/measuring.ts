/// <reference types="webxr" />
/**
 * The AR measure's loop (decision 092), without React and without three.js: raw WebGL only clears the
 * session's transparent base layer each frame (the camera's picture shows through); a hit test from the
 * viewer's space (the middle of the screen) finds the floor or a wall; each `select` (a tap on a phone)
 * places a point where it hits. The points are in the session's "local" space, in metres; the length
 * between them is shown live and handed to the overlay, which draws the points projected with the view's
 * projection and transform matrices.
 */
import { arLengthCm, type ArPoint } from "../../../../shared/measures";

/** A point of the screen as fractions of the overlay's width and height; null: behind the viewer. */
export type ScreenPoint = { x: number; y: number } | null;

export interface ArMeasuring {
  /** "aim": nothing placed; "first": one point placed; "done": two points, a length to save. */
  phase: "aim" | "first" | "done";
  /** The hit test meets a surface at the middle of the screen now. */
  onSurface: boolean;
  a: ArPoint | null;
  b: ArPoint | null;
  /** From the first point to the second, or to where the screen's middle meets a surface while aiming; centimetres. */
  lengthCm: number | null;
  /** Where the points (and the aimed-at surface) are on the screen. */
  screen: { a: ScreenPoint; b: ScreenPoint; aim: ScreenPoint };
}

export type ArProblem = "noHitTest" | "refused";

export interface ArController {
  /** Forgets the points, to measure again. */
  reset(): void;
  end(): Promise<void>;
}

function project(view: XRView, point: ArPoint): ScreenPoint {
  const m = view.transform.inverse.matrix;
  const p = view.projectionMatrix;
  // Eye space, then clip space (column-major 4×4 matrices).
  const ex = m[0]! * point.x + m[4]! * point.y + m[8]! * point.z + m[12]!;
  const ey = m[1]! * point.x + m[5]! * point.y + m[9]! * point.z + m[13]!;
  const ez = m[2]! * point.x + m[6]! * point.y + m[10]! * point.z + m[14]!;
  const cx = p[0]! * ex + p[4]! * ey + p[8]! * ez + p[12]!;
  const cy = p[1]! * ex + p[5]! * ey + p[9]! * ez + p[13]!;
  const cw = p[3]! * ex + p[7]! * ey + p[11]! * ez + p[15]!;
  if (cw <= 1e-6) return null;
  return { x: Math.round(((cx / cw + 1) / 2) * 1000) / 1000, y: Math.round(((1 - cy / cw) / 2) * 1000) / 1000 };
}

const same = (a: ArMeasuring, b: ArMeasuring) => JSON.stringify(a) === JSON.stringify(b);
const round = (value: number) => Math.round(value * 1e4) / 1e4;

/**
 * Runs the measure in a session the caller started (with `hit-test` required). Calls `onChange` when
 * what the overlay shows changes, and `onProblem` when the session cannot measure (then ends it).
 */
export async function measureInSession(
  session: XRSession,
  onChange: (state: ArMeasuring) => void,
  onProblem: (problem: ArProblem) => void,
): Promise<ArController> {
  const canvas = document.createElement("canvas");
  const gl = canvas.getContext("webgl", { xrCompatible: true, alpha: true, antialias: false });
  if (!gl) {
    onProblem("refused");
    await session.end().catch(() => undefined);
    return { reset() {}, end: async () => undefined };
  }
  await session.updateRenderState({ baseLayer: new XRWebGLLayer(session, gl) });
  const local = await session.requestReferenceSpace("local");
  const viewer = await session.requestReferenceSpace("viewer");
  let hitSource: XRHitTestSource | undefined;
  try {
    hitSource = await session.requestHitTestSource!({ space: viewer });
  } catch {
    onProblem("noHitTest");
    await session.end().catch(() => undefined);
    return { reset() {}, end: async () => undefined };
  }

  let a: ArPoint | null = null;
  let b: ArPoint | null = null;
  let aim: ArPoint | null = null;
  let shown: ArMeasuring | null = null;

  // A tap places the first point, then the second; with two placed, the overlay saves or starts again.
  session.addEventListener("select", () => {
    if (!aim || b !== null) return;
    if (a === null) a = aim;
    else b = aim;
  });

  const onFrame: XRFrameRequestCallback = (_time, frame) => {
    session.requestAnimationFrame(onFrame);
    const layer = session.renderState.baseLayer;
    if (layer) {
      gl.bindFramebuffer(gl.FRAMEBUFFER, layer.framebuffer);
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    }
    const hit = hitSource ? frame.getHitTestResults(hitSource)[0]?.getPose(local) : undefined;
    const position = hit?.transform.position;
    aim = position ? { x: round(position.x), y: round(position.y), z: round(position.z) } : null;
    const view = frame.getViewerPose(local)?.views[0];
    const on = (point: ArPoint | null) => (view && point ? project(view, point) : null);
    const to = b ?? aim;
    const state: ArMeasuring = {
      phase: a === null ? "aim" : b === null ? "first" : "done",
      onSurface: aim !== null,
      a,
      b,
      lengthCm: a && to ? arLengthCm(a, to) : null,
      screen: { a: on(a), b: on(b), aim: on(aim) },
    };
    if (!shown || !same(shown, state)) {
      shown = state;
      onChange(state);
    }
  };
  session.requestAnimationFrame(onFrame);

  return {
    reset() {
      a = null;
      b = null;
    },
    async end() {
      try {
        hitSource?.cancel();
      } catch {
        // Already cancelled with its ended session.
      }
      await session.end().catch(() => undefined);
    },
  };
}
