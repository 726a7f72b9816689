/// <reference types="webxr" />
/**
 * The AR measure's overlay (decision 092), loaded only when a session starts: shown over the camera's
 * picture by the session's DOM overlay. A circle in the middle of the screen is where the hit test meets
 * the floor or a wall; a tap places a point there, a second tap the other end; the length is shown live
 * and, named, saved to the project (the server computes it again from the two points). Taps on the
 * overlay's own controls are kept from the session (beforexrselect), so "Save" does not also place a point.
 */
import { Check, RotateCcw, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatLength, MEASURE, type ArMeasureView } from "../../../../shared/measures";
import { friendlyError } from "../../../lib/friendlyError";
import { trpc } from "../../../trpc";
import { buttonClass } from "../../ui/buttons";
import { measureInSession, type ArController, type ArMeasuring, type ArProblem, type ScreenPoint } from "./measuring";

interface ArSessionProps {
  session: XRSession;
  projectId: string;
  /** The session cannot measure (it is ended): what to tell the user once the overlay is gone. */
  onProblem(problem: ArProblem): void;
  onSaved(measures: ArMeasureView[]): void;
}

const panel =
  "pointer-events-auto rounded-xl bg-white/90 p-3 text-slate-900 shadow-lg backdrop-blur dark:bg-slate-900/85 dark:text-slate-100";

/** Keeps a tap on this element from also being a `select` of the AR session. */
function useNoXrSelect<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    const keep = (event: Event) => event.preventDefault();
    element?.addEventListener("beforexrselect", keep);
    return () => element?.removeEventListener("beforexrselect", keep);
  }, []);
  return ref;
}

const at = (point: NonNullable<ScreenPoint>) => ({ x: `${point.x * 100}%`, y: `${point.y * 100}%` });

export default function ArSession({ session, projectId, onProblem, onSaved }: ArSessionProps) {
  const { t, i18n } = useTranslation();
  const labelId = useId();
  const add = trpc.measures.addAr.useMutation();
  const [state, setState] = useState<ArMeasuring | null>(null);
  const [label, setLabel] = useState("");
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const controller = useRef<ArController | null>(null);
  const top = useNoXrSelect<HTMLDivElement>();
  const bottom = useNoXrSelect<HTMLDivElement>();

  useEffect(() => {
    let live = true;
    void measureInSession(
      session,
      (next) => live && setState(next),
      (problem) => onProblem(problem),
    ).then(
      (started) => {
        controller.current = started;
        if (!live) void started.end();
      },
      // The session would not take a WebGL layer or a reference space: it cannot measure.
      () => {
        onProblem("refused");
        void session.end().catch(() => undefined);
      },
    );
    return () => {
      live = false;
      void controller.current?.end();
    };
    // One loop per session.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session]);

  const language = i18n.resolvedLanguage ?? "en";
  const phase = state?.phase ?? "aim";
  const instruction = !state
    ? t("measure.ar.starting")
    : phase === "done"
      ? t("measure.ar.done")
      : !state.onSurface
        ? t("measure.ar.searching")
        : phase === "first"
          ? t("measure.ar.second")
          : t("measure.ar.first");
  const again = () => {
    controller.current?.reset();
    setError(undefined);
  };
  const save = async () => {
    if (!state?.a || !state.b) return;
    try {
      const measures = await add.mutateAsync({ projectId, a: state.a, b: state.b, label: label.trim() });
      const length = formatLength(state.lengthCm ?? 0, language);
      setSaved(t("measure.ar.saved", { measure: label.trim() ? `${label.trim()} · ${length}` : length }));
      setLabel("");
      setError(undefined);
      onSaved(measures);
      controller.current?.reset();
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };
  const end = () => void (controller.current ? controller.current.end() : session.end().catch(() => undefined));
  const tooLong = label.trim().length > MEASURE.labelMax;
  const line = state?.screen.a ? (state.screen.b ?? (phase === "first" ? state.screen.aim : null)) : null;

  return (
    <div className="pointer-events-none fixed inset-0 flex flex-col justify-between p-3 text-base" data-testid="ar-session">
      <svg className="absolute inset-0 size-full" aria-hidden="true">
        {state?.screen.a && line ? (
          <line
            x1={at(state.screen.a).x}
            y1={at(state.screen.a).y}
            x2={at(line).x}
            y2={at(line).y}
            stroke="#22d3ee"
            strokeWidth="4"
            strokeLinecap="round"
          />
        ) : null}
        {[state?.screen.a, state?.screen.b].map((point, index) =>
          point ? <circle key={index} cx={at(point).x} cy={at(point).y} r="9" fill="#22d3ee" stroke="#0f172a" strokeWidth="2" /> : null,
        )}
        {/* The reticle: where a tap places a point (the middle of the screen, the hit test's ray). */}
        <circle
          cx="50%"
          cy="50%"
          r="22"
          fill="none"
          stroke={state?.onSurface ? "#22d3ee" : "#e2e8f0"}
          strokeWidth="4"
          strokeDasharray={state?.onSurface ? undefined : "6 6"}
          data-testid="ar-reticle"
          data-on-surface={state?.onSurface ? "true" : "false"}
        />
        <circle cx="50%" cy="50%" r="3" fill={state?.onSurface ? "#22d3ee" : "#e2e8f0"} />
      </svg>

      <div ref={top} className={`${panel} relative space-y-1`}>
        <p className="text-sm font-medium" role="status" data-testid="ar-instruction">
          {instruction}
        </p>
        <p className="text-3xl font-bold tabular-nums" aria-live="polite" data-testid="ar-length">
          {state?.lengthCm != null ? formatLength(state.lengthCm, language) : "—"}
        </p>
        {saved ? (
          <p className="text-sm text-emerald-700 dark:text-emerald-300" data-testid="ar-saved">
            {saved}
          </p>
        ) : null}
      </div>

      <div ref={bottom} className={`${panel} relative space-y-3`}>
        {phase === "done" ? (
          <>
            <div>
              <label htmlFor={labelId} className="mb-1 block text-sm font-medium">
                {t("measure.label")}
              </label>
              <input
                id={labelId}
                value={label}
                maxLength={MEASURE.labelMax + 20}
                placeholder={t("measure.labelPlaceholder")}
                onChange={(event) => setLabel(event.target.value)}
                aria-invalid={tooLong || undefined}
                className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
              />
            </div>
            <div className="flex gap-2">
              <button
                type="button"
                className={`${buttonClass.primary} flex-1`}
                disabled={add.isPending || tooLong}
                onClick={() => void save()}
              >
                <Check className="size-4" aria-hidden="true" />
                {t("measure.ar.save")}
              </button>
              <button type="button" className={buttonClass.secondary} onClick={again}>
                <RotateCcw className="size-4" aria-hidden="true" />
                {t("measure.ar.again")}
              </button>
            </div>
          </>
        ) : null}
        {error || tooLong ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error ?? t("serverMessages.measureLabelTooLong")}
          </p>
        ) : null}
        <button type="button" className={`${buttonClass.secondary} w-full`} onClick={end}>
          <X className="size-4" aria-hidden="true" />
          {t("measure.ar.end")}
        </button>
      </div>
    </div>
  );
}
