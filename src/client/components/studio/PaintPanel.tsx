/**
 * The studio's Paint tool (issue 33): what is painted (walls, cabinets…), one to three exact colours
 * (from the operator's palette, by code, or with the system's colour picker), what it costs, and
 * which engine paints: the Preview engine's exact recolour (not AI) or an AI engine's edit that
 * names the colour. The region is the mask on the picture (smart selection, brush, eraser).
 */
import { PaintBucket, Plus, X } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { PAINT, PAINT_SURFACES, paintColourSchema, type PaintSurface } from "../../../shared/paint";
import { Callout } from "../render/Callouts";
import { ErrorText } from "../render/PageShell";
import { buttonClass, cardClass, labelClass, linkClass, selectClass } from "../ui/buttons";
import { trpc } from "../../trpc";
import { paintColourLabel, Swatch } from "./PaintColour";
import { PriceNote } from "./PriceNote";

interface PaintPanelProps {
  /** False until the mask is one the server takes (the coverage line says why). */
  maskReady: boolean;
  busy: boolean;
  credits: number | null;
  submitError: string | undefined;
  onSubmit(choice: { surface: PaintSurface; colours: string[] }): void;
}

export function PaintPanel({ maskReady, busy, credits, submitError, onSubmit }: PaintPanelProps) {
  const { t } = useTranslation();
  const offer = trpc.render.paintOffer.useQuery(undefined, { staleTime: 30_000 });
  const [surface, setSurface] = useState<PaintSurface>("walls");
  const [colours, setColours] = useState<string[]>([]);
  const [code, setCode] = useState("#");
  const [codeError, setCodeError] = useState<string>();
  const codeId = useId();

  const price = offer.data?.credits ?? null;
  const total = price === null ? null : price * colours.length;
  const full = colours.length >= PAINT.compareMax;
  const add = (hex: string) => {
    const parsed = paintColourSchema.safeParse(hex);
    if (!parsed.success) {
      setCodeError(t("serverMessages.paintColourInvalid"));
      return;
    }
    setCodeError(undefined);
    setColours((list) => (list.includes(parsed.data) || list.length >= PAINT.compareMax ? list : [...list, parsed.data]));
  };
  const tooFewCredits = total !== null && credits !== null && total > credits;
  const canSubmit = maskReady && colours.length > 0 && !busy && !tooFewCredits && !!offer.data?.engine;

  return (
    <form
      className={`${cardClass} space-y-4 p-4 sm:p-5`}
      onSubmit={(event) => {
        event.preventDefault();
        if (canSubmit) onSubmit({ surface, colours });
      }}
      aria-labelledby="paint-title"
      noValidate
      data-testid="paint-panel"
    >
      <h2 id="paint-title" className="text-lg font-semibold">
        {t("paint.title")}
      </h2>
      {offer.data?.engine === "local" ? (
        <Callout tone="amber" title={t("paint.engine.previewTitle")} testId="paint-engine-note">
          {t("paint.engine.previewBody")}
        </Callout>
      ) : offer.data?.engine ? (
        <Callout title={t("paint.engine.aiTitle")} testId="paint-engine-note">
          {t("paint.engine.aiBody")}
        </Callout>
      ) : null}
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("paint.howTo")}</p>
      <div>
        <label htmlFor="paint-surface" className={labelClass}>
          {t("paint.surfaceLabel")}
        </label>
        <select
          id="paint-surface"
          className={selectClass}
          value={surface}
          onChange={(event) => setSurface(event.target.value as PaintSurface)}
          data-testid="paint-surface"
        >
          {PAINT_SURFACES.map((name) => (
            <option key={name} value={name}>
              {t(`paint.surfaces.${name}`)}
            </option>
          ))}
        </select>
      </div>

      <fieldset className="space-y-2">
        <legend className={labelClass}>{t("paint.coloursLabel", { max: PAINT.compareMax })}</legend>
        {colours.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{t("paint.noColours")}</p>
        ) : (
          <ul className="flex flex-wrap gap-2" data-testid="paint-chosen">
            {colours.map((colour) => (
              <li
                key={colour}
                className="inline-flex items-center gap-2 rounded-full border border-slate-300 py-1 pr-1 pl-2 text-sm dark:border-slate-700"
              >
                <Swatch colour={colour} />
                <span className="font-mono">{colour.toUpperCase()}</span>
                <button
                  type="button"
                  className="inline-flex size-7 items-center justify-center rounded-full hover:bg-slate-100 dark:hover:bg-slate-800"
                  aria-label={t("paint.removeColour", { colour: colour.toUpperCase() })}
                  onClick={() => setColours((list) => list.filter((entry) => entry !== colour))}
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}
        {offer.data && offer.data.palette.length > 0 ? (
          <div>
            <p className="mb-1 text-xs font-medium text-slate-500 dark:text-slate-400">{t("paint.palette")}</p>
            <ul className="grid grid-cols-2 gap-1.5" data-testid="paint-palette">
              {offer.data.palette.map((entry) => (
                <li key={`${entry.name}${entry.hex}`}>
                  <button
                    type="button"
                    className="flex w-full items-center gap-2 rounded-lg border border-slate-200 px-2 py-1.5 text-left text-sm hover:bg-slate-50 disabled:opacity-50 aria-pressed:border-brand-600 dark:border-slate-700 dark:hover:bg-slate-800 dark:aria-pressed:border-brand-500"
                    aria-pressed={colours.includes(entry.hex)}
                    disabled={full && !colours.includes(entry.hex)}
                    onClick={() =>
                      colours.includes(entry.hex) ? setColours((list) => list.filter((hex) => hex !== entry.hex)) : add(entry.hex)
                    }
                  >
                    <Swatch colour={entry.hex} />
                    <span className="min-w-0 truncate">{entry.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div>
          <label htmlFor={codeId} className="mb-1 block text-xs font-medium text-slate-500 dark:text-slate-400">
            {t("paint.codeLabel")}
          </label>
          <div className="flex gap-2">
            <input
              type="color"
              aria-label={t("paint.picker")}
              value={/^#[0-9a-fA-F]{6}$/.test(code) ? code : "#e8e2d6"}
              onChange={(event) => setCode(event.target.value)}
              className="h-11 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-900"
            />
            <input
              id={codeId}
              value={code}
              onChange={(event) => setCode(event.target.value.trim())}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  add(code);
                }
              }}
              maxLength={7}
              spellCheck={false}
              autoComplete="off"
              placeholder="#E8E2D6"
              aria-invalid={codeError ? true : undefined}
              aria-describedby={codeError ? `${codeId}-error` : undefined}
              className={`${selectClass} font-mono`}
              data-testid="paint-code"
            />
            <button type="button" className={buttonClass.secondary} onClick={() => add(code)} disabled={full} data-testid="paint-add">
              <Plus className="size-4" aria-hidden="true" />
              {t("paint.add")}
            </button>
          </div>
          {codeError ? (
            <p id={`${codeId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300" role="alert">
              {codeError}
            </p>
          ) : null}
        </div>
      </fieldset>

      <PriceNote
        price={price === 0 ? t("paint.priceFree") : t("paint.price", { count: price ?? 1 })}
        credits={credits}
        short={tooFewCredits}
        testId="paint-price"
      />
      <ErrorText message={submitError} />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={!canSubmit} data-testid="paint-submit">
        <PaintBucket className="size-4" aria-hidden="true" />
        {busy ? t("paint.submitting") : t("paint.submit", { count: Math.max(1, colours.length) })}
      </button>
      {!maskReady ? <p className="text-xs text-slate-500 dark:text-slate-400">{t("paint.needsRegion")}</p> : null}
    </form>
  );
}

/** The colours a project's paint edits used, beside the picture: "Walls: #E8E2D6". */
export function ProjectColours({ projectId, onOpen }: { projectId: string; onOpen?(jobId: string): void }) {
  const { t } = useTranslation();
  const colours = trpc.render.paintColours.useQuery({ projectId }, { staleTime: 0 });
  if (!colours.data || colours.data.length === 0) return null;
  return (
    <section className={`${cardClass} space-y-2 p-4 sm:p-5`} aria-labelledby="project-colours-title" data-testid="project-colours">
      <h2 id="project-colours-title" className="text-lg font-semibold">
        {t("paint.projectColours")}
      </h2>
      <ul className="space-y-1.5">
        {colours.data.map((note) => (
          <li key={`${note.surface}${note.colour}`} className="flex items-center gap-2 text-sm">
            <Swatch colour={note.colour} />
            {onOpen ? (
              <button type="button" className={`${linkClass} text-left`} onClick={() => onOpen(note.jobIds[0]!)}>
                {paintColourLabel(t, note)}
              </button>
            ) : (
              <span>{paintColourLabel(t, note)}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
