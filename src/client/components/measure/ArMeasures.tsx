/// <reference types="webxr" />
/**
 * A project's room measures made in AR (decision 092), on the project page: listed with their lengths
 * and deletable; on a device that can start an `immersive-ar` session (feature-detected, lib/xr), a
 * "Measure with AR" button starts one, whose overlay (measure/ar, a chunk of its own, loaded once the
 * device said yes) measures between two taps and saves to the project. Other devices never see the button.
 */
import { Ruler } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { createPortal, flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { AR_MEASURE_TOLERANCE_CM, type ArMeasureView } from "../../../shared/measures";
import { friendlyError } from "../../lib/friendlyError";
import { arSessionInit, useImmersiveArSupport } from "../../lib/xr";
import { trpc } from "../../trpc";
import { buttonClass, cardClass } from "../ui/buttons";
import type { ArProblem } from "./ar/measuring";
import { ArMeasureList } from "./ArMeasureList";

const loadArSession = () => import("./ar/ArSession");
const ArSession = lazy(loadArSession);

export function ArMeasures({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const supported = useImmersiveArSupport();
  const measures = trpc.measures.ofProject.useQuery({ projectId }, { staleTime: 0 });
  const remove = trpc.measures.deleteAr.useMutation();
  const overlay = useRef<HTMLDivElement>(null);
  const [starting, setStarting] = useState(false);
  const [session, setSession] = useState<XRSession | null>(null);
  const [error, setError] = useState<string>();

  // The device can measure: its overlay's code is fetched now, so a tap shows it at once.
  useEffect(() => {
    if (supported) void loadArSession().catch(() => undefined);
  }, [supported]);

  const start = async () => {
    setError(undefined);
    // The overlay's root is shown before the session asks for it (dom-overlay), still within the tap.
    flushSync(() => setStarting(true));
    try {
      const started = await navigator.xr!.requestSession("immersive-ar", arSessionInit(overlay.current!));
      started.addEventListener("end", () => setSession(null));
      setSession(started);
    } catch {
      setError(t("measure.ar.refused"));
    } finally {
      setStarting(false);
    }
  };
  const onProblem = (problem: ArProblem) => setError(t(problem === "noHitTest" ? "measure.ar.noHitTest" : "measure.ar.refused"));
  const saved = (next: ArMeasureView[]) => utils.measures.ofProject.setData({ projectId }, next);
  const onDelete = async (measure: ArMeasureView) => {
    try {
      saved(await remove.mutateAsync({ projectId, measureId: measure.id }));
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };

  const list = measures.data ?? [];
  // Nothing to show on a device without AR and a project without AR measures.
  if (!supported && list.length === 0 && !error) return null;
  return (
    <section className={`${cardClass} space-y-3 p-4`} aria-labelledby="ar-measures-title" data-testid="ar-measures-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="ar-measures-title" className="font-semibold">
          {t("measure.ar.title")}
        </h3>
        {supported ? (
          <button type="button" className={buttonClass.primary} disabled={starting || session !== null} onClick={() => void start()}>
            <Ruler className="size-4" aria-hidden="true" />
            {t("measure.ar.start")}
          </button>
        ) : null}
      </div>
      {supported ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {t("measure.ar.hint")} {t("measure.ar.accuracy", { tolerance: AR_MEASURE_TOLERANCE_CM })}
        </p>
      ) : null}
      {list.length > 0 ? (
        <ArMeasureList measures={list} onDelete={(measure) => void onDelete(measure)} />
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">{t("measure.ar.empty")}</p>
      )}
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300" data-testid="ar-error">
          {error}
        </p>
      ) : null}
      {supported
        ? createPortal(
            <div ref={overlay} className={starting || session ? "fixed inset-0 z-[2147483000]" : "hidden"} data-testid="ar-overlay">
              {session ? (
                <Suspense fallback={null}>
                  <ArSession session={session} projectId={projectId} onProblem={onProblem} onSaved={saved} />
                </Suspense>
              ) : null}
            </div>,
            document.body,
          )
        : null}
    </section>
  );
}
