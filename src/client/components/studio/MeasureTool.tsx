/**
 * The studio's Measure tool (issue 30, decision 089): the user marks something of known size on the
 * photo (a rectangle on the floor: 4 corners and its width and depth; or a door: its foot and top and
 * its height), then measures by clicking two points: along the floor, or a height from the floor up.
 * Sizes are typed in centimetres (the app has no unit setting); feet and inches are shown beside them.
 * Measures belong to the photo, so every version of it shows them; the server computes each length
 * from the points and the reference, and the accuracy shown is the one our tests measured.
 */
import { Download, Ruler, Trash2, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  accuracyPercent,
  DOOR_LEAN_MAX_DEGREES,
  formatLength,
  leanDegrees,
  MEASURE,
  MEASURE_ACCURACY,
  SUPPORTED_MEASURES,
  type MeasureKind,
  type MeasureReference,
  type Point,
  type ReferenceKind,
} from "../../../shared/measures";
import { pictureFrameStyle } from "../../lib/pictureFrame";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { MeasureOverlay, measureText } from "../measure/MeasureOverlay";
import { Spinner } from "../Spinner";
import { ErrorText } from "../render/PageShell";
import { buttonClass, labelClass, selectClass } from "../ui/buttons";

type Marking = { what: "reference"; kind: ReferenceKind } | { what: "measure"; kind: MeasureKind } | null;

const POINTS: Record<ReferenceKind, number> = { floor: 4, height: 2 };

/** A size typed in centimetres, or null when it is not one. */
function centimetres(text: string): number | null {
  const value = Number(text.replace(",", "."));
  return Number.isFinite(value) && value >= MEASURE.referenceMinCm && value <= MEASURE.referenceMaxCm ? value : null;
}

function SizeField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange(value: string): void }) {
  const { i18n } = useTranslation();
  const cm = centimetres(value);
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={MEASURE.referenceMinCm}
        max={MEASURE.referenceMaxCm}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={selectClass}
        aria-describedby={`${id}-imperial`}
      />
      <p id={`${id}-imperial`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        {cm !== null ? formatLength(cm, i18n.language) : "\u00a0"}
      </p>
    </div>
  );
}

interface MeasureToolProps {
  uploadId: string;
  /** The version shown (the photo or a render or edit of it), and where it downloads as it is. */
  versionId: string;
  download: string;
  picture: string;
  alt: string;
  size: { width: number; height: number };
}

export function MeasureTool({ uploadId, versionId, download, picture, alt, size }: MeasureToolProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const utils = trpc.useUtils();
  const photo = trpc.measures.ofPhoto.useQuery({ uploadId }, { staleTime: 0 });
  const setReference = trpc.measures.setReference.useMutation();
  const add = trpc.measures.add.useMutation();
  const remove = trpc.measures.delete.useMutation();

  const [referenceKind, setReferenceKind] = useState<ReferenceKind>("floor");
  const [widthCm, setWidthCm] = useState("200");
  const [depthCm, setDepthCm] = useState("140");
  const [heightCm, setHeightCm] = useState("204");
  const [measureKind, setMeasureKind] = useState<MeasureKind>("floor");
  const [label, setLabel] = useState("");
  const [marking, setMarking] = useState<Marking>(null);
  const [pending, setPending] = useState<Point[]>([]);
  const [error, setError] = useState<string>();
  const [burnIn, setBurnIn] = useState(true);
  const frame = useRef<HTMLDivElement>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  // Focus goes to "Measure" once the form shows what was just saved (a fieldset enabled by the reference).
  const [refocus, setRefocus] = useState(0);
  useEffect(() => {
    if (refocus > 0) startButton.current?.focus();
  }, [refocus]);

  const data = photo.data;
  const reference = data?.reference ?? null;
  // A door that leans in the picture: the camera was not level, and the stated accuracy does not hold.
  const lean = reference?.kind === "height" ? leanDegrees(reference.foot, reference.top, size) : null;
  const kinds = reference ? SUPPORTED_MEASURES[reference.kind] : [];
  const kind: MeasureKind = kinds.includes(measureKind) ? measureKind : (kinds[0] ?? "floor");
  const busy = setReference.isPending || add.isPending || remove.isPending;

  const sizesOk =
    referenceKind === "floor" ? centimetres(widthCm) !== null && centimetres(depthCm) !== null : centimetres(heightCm) !== null;

  const saved = (next: NonNullable<typeof data>) => utils.measures.ofPhoto.setData({ uploadId }, next);

  const start = (next: Marking) => {
    setError(undefined);
    setPending([]);
    setMarking(next);
  };

  const onPoint = async (point: Point) => {
    if (!marking || busy) return;
    const points = [...pending, point];
    const needed = marking.what === "reference" ? POINTS[marking.kind] : 2;
    if (points.length < needed) {
      setPending(points);
      return;
    }
    setPending(points);
    try {
      if (marking.what === "reference") {
        const next: MeasureReference =
          marking.kind === "floor"
            ? {
                kind: "floor",
                corners: points as [Point, Point, Point, Point],
                widthCm: centimetres(widthCm)!,
                depthCm: centimetres(depthCm)!,
              }
            : { kind: "height", foot: points[0]!, top: points[1]!, heightCm: centimetres(heightCm)! };
        saved(await setReference.mutateAsync({ uploadId, reference: next }));
      } else {
        saved(await add.mutateAsync({ uploadId, kind: marking.kind, a: points[0]!, b: points[1]!, label: label.trim() }));
        setLabel("");
      }
      setMarking(null);
      setPending([]);
      setError(undefined);
      // Marked with the keyboard: the picture stops taking keys, so the keyboard goes on to the next step.
      if (frame.current?.contains(document.activeElement)) setRefocus((count) => count + 1);
    } catch (caught) {
      setPending([]);
      setError(friendlyError(caught, t));
    }
  };

  const onDelete = async (measureId: string) => {
    try {
      saved(await remove.mutateAsync({ uploadId, measureId }));
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };

  const instruction = !marking
    ? undefined
    : marking.what === "reference"
      ? marking.kind === "floor"
        ? t("measure.clickCorners", { count: pending.length + 1 })
        : pending.length === 0
          ? t("measure.clickDoorFoot")
          : t("measure.clickDoorTop")
      : marking.kind === "floor"
        ? pending.length === 0
          ? t("measure.clickFloorStart")
          : t("measure.clickFloorEnd")
        : pending.length === 0
          ? t("measure.clickHeightFoot")
          : t("measure.clickHeightTop");

  return (
    <div className="space-y-4" data-testid="measure-tool">
      <div
        className="relative mx-auto max-w-full overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800"
        style={pictureFrameStyle(size, "min(70vh, 44rem)")}
        ref={frame}
        data-testid="measure-frame"
      >
        <img src={picture} alt={alt} draggable={false} className="absolute inset-0 size-full select-none object-fill" />
        {data ? (
          <MeasureOverlay
            size={size}
            reference={reference}
            measures={data.measures}
            pending={pending}
            onPoint={marking ? (point) => void onPoint(point) : undefined}
            clickLabel={instruction}
          />
        ) : null}
      </div>
      <p className="min-h-5 text-sm font-medium text-slate-700 dark:text-slate-200" aria-live="polite" data-testid="measure-instruction">
        {instruction ?? (reference ? t("measure.readyToMeasure") : t("measure.needsReference"))}
      </p>
      <ErrorText message={error} />
      {photo.isLoading ? <Spinner label={t("common.loading")} /> : null}

      <div className="grid gap-4 md:grid-cols-2">
        <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-testid="measure-reference-form">
          <legend className="px-1 text-sm font-semibold">{t("measure.referenceTitle")}</legend>
          <p className="text-xs text-slate-600 dark:text-slate-400">{t("measure.referenceHint")}</p>
          <div className="flex flex-wrap gap-2" role="radiogroup" aria-label={t("measure.referenceTitle")}>
            {(["floor", "height"] as const).map((option) => (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={referenceKind === option}
                onClick={() => setReferenceKind(option)}
                className="rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 aria-checked:border-brand-600 aria-checked:bg-brand-50 aria-checked:text-brand-700 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-checked:border-brand-500 dark:aria-checked:bg-brand-700/20 dark:aria-checked:text-white"
                data-testid={`reference-kind-${option}`}
              >
                {t(`measure.referenceKinds.${option}`)}
              </button>
            ))}
          </div>
          {referenceKind === "floor" ? (
            <div className="grid grid-cols-2 gap-3">
              <SizeField id={`${id}-width`} label={t("measure.widthCm")} value={widthCm} onChange={setWidthCm} />
              <SizeField id={`${id}-depth`} label={t("measure.depthCm")} value={depthCm} onChange={setDepthCm} />
            </div>
          ) : (
            <>
              <SizeField id={`${id}-height`} label={t("measure.heightCm")} value={heightCm} onChange={setHeightCm} />
              <p className="text-xs text-slate-600 dark:text-slate-400">{t("measure.levelCamera")}</p>
            </>
          )}
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={!sizesOk || busy}
              onClick={() => start({ what: "reference", kind: referenceKind })}
              data-testid="measure-mark-reference"
            >
              <Ruler className="size-4" aria-hidden="true" />
              {reference ? t("measure.markAgain") : t("measure.markReference")}
            </button>
            {reference ? (
              <button
                type="button"
                className={buttonClass.ghost}
                disabled={busy}
                onClick={() =>
                  void setReference
                    .mutateAsync({ uploadId, reference: null })
                    .then(saved, (caught: unknown) => setError(friendlyError(caught, t)))
                }
              >
                {t("measure.removeReference")}
              </button>
            ) : null}
          </div>
          {reference ? (
            <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="measure-reference-summary">
              {reference.kind === "floor"
                ? t("measure.referenceFloor", {
                    width: formatLength(reference.widthCm, i18n.language),
                    depth: formatLength(reference.depthCm, i18n.language),
                  })
                : t("measure.referenceHeight", { height: formatLength(reference.heightCm, i18n.language) })}
            </p>
          ) : null}
          {lean !== null && lean > DOOR_LEAN_MAX_DEGREES ? (
            <p
              className="rounded-md border border-amber-300 bg-amber-50 px-2 py-1.5 text-xs text-amber-900 dark:border-amber-700/60 dark:bg-amber-950/40 dark:text-amber-100"
              role="status"
              data-testid="measure-lean-warning"
            >
              {t("measure.doorLeans", {
                degrees: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(lean),
                percent: MEASURE_ACCURACY.withinPercent.heightFromDoor,
              })}
            </p>
          ) : null}
        </fieldset>

        <fieldset
          className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
          disabled={!reference}
          data-testid="measure-form"
        >
          <legend className="px-1 text-sm font-semibold">{t("measure.measureTitle")}</legend>
          <div className="flex flex-wrap gap-2" role="radiogroup" aria-label={t("measure.measureTitle")}>
            {(["floor", "height"] as const).map((option) => (
              <button
                key={option}
                type="button"
                role="radio"
                aria-checked={kind === option}
                disabled={!kinds.includes(option)}
                onClick={() => setMeasureKind(option)}
                className="rounded-full border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50 aria-checked:border-brand-600 aria-checked:bg-brand-50 aria-checked:text-brand-700 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-checked:border-brand-500 dark:aria-checked:bg-brand-700/20 dark:aria-checked:text-white"
                data-testid={`measure-kind-${option}`}
              >
                {t(`measure.kinds.${option}`)}
              </button>
            ))}
          </div>
          <div>
            <label htmlFor={`${id}-label`} className={labelClass}>
              {t("measure.label")}
            </label>
            <input
              id={`${id}-label`}
              value={label}
              maxLength={MEASURE.labelMax}
              onChange={(event) => setLabel(event.target.value)}
              placeholder={t("measure.labelPlaceholder")}
              className={selectClass}
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={buttonClass.primary}
              disabled={!reference || busy || (marking?.what === "measure" && pending.length > 0)}
              onClick={() => start({ what: "measure", kind })}
              ref={startButton}
              data-testid="measure-start"
            >
              <Ruler className="size-4" aria-hidden="true" />
              {t("measure.measure")}
            </button>
            {marking ? (
              <button type="button" className={buttonClass.ghost} onClick={() => start(null)} data-testid="measure-cancel">
                <X className="size-4" aria-hidden="true" />
                {t("measure.cancel")}
              </button>
            ) : null}
          </div>
        </fieldset>
      </div>

      {data && data.measures.length > 0 ? (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700"
          data-testid="measure-list"
        >
          {data.measures.map((measure) => (
            <li key={measure.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm" data-testid="measure-item">
              <span>
                <span className="font-medium">{measureText(measure, i18n.language, t("measure.unmeasured"))}</span>
                <span className="text-slate-500 dark:text-slate-400">
                  {" · "}
                  {t(`measure.kinds.${measure.kind}`)}
                  {measure.withinPercent !== null ? ` · ±${measure.withinPercent} %` : ""}
                </span>
              </span>
              <button
                type="button"
                className={buttonClass.icon}
                aria-label={t("measure.delete", { label: measureText(measure, i18n.language, t("measure.unmeasured")) })}
                disabled={busy}
                onClick={() => void onDelete(measure.id)}
                data-testid="measure-delete"
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <label className="inline-flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={burnIn}
            disabled={!data || data.measures.length === 0}
            onChange={(event) => setBurnIn(event.target.checked)}
            className="size-4 accent-brand-600"
            data-testid="measure-burn-in"
          />
          {t("measure.burnIn")}
        </label>
        <a
          href={
            burnIn && data && data.measures.length > 0 ? `/files/measured/${encodeURIComponent(versionId)}?lang=${i18n.language}` : download
          }
          download
          className={buttonClass.secondary}
          data-testid="measure-download"
        >
          <Download className="size-4" aria-hidden="true" />
          {t("measure.download")}
        </a>
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="measure-accuracy">
        {reference
          ? t("measure.accuracyOf", {
              percent: accuracyPercent(reference.kind, kind),
              share: MEASURE_ACCURACY.share,
            })
          : t("measure.accuracy", {
              floor: MEASURE_ACCURACY.withinPercent.floorFromRug,
              heightRug: MEASURE_ACCURACY.withinPercent.heightFromRug,
              heightDoor: MEASURE_ACCURACY.withinPercent.heightFromDoor,
              share: MEASURE_ACCURACY.share,
            })}
      </p>
    </div>
  );
}
