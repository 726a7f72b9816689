/**
 * Paint colours as the product shows them (issue 33): a swatch and "Walls: #E8E2D6", in the studio,
 * the project's colour list and the client review.
 */
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { PaintSurface } from "../../../shared/paint";

/** A colour's swatch: a square of it with a border that shows on either theme. */
export function Swatch({ colour, className = "size-5" }: { colour: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block shrink-0 rounded border border-slate-900/20 dark:border-white/30 ${className}`}
      style={{ backgroundColor: colour }}
    />
  );
}

/** A paint colour as the project's list says it: "Walls: #E8E2D6". */
export function paintColourLabel(t: TFunction, paint: { colour: string; surface: PaintSurface }): string {
  return t("paint.colourLabel", { surface: t(`paint.surfaces.${paint.surface}`), colour: paint.colour.toUpperCase() });
}

/** A list of paint colours, each with its swatch. */
export function PaintColourList({ colours }: { colours: ReadonlyArray<{ colour: string; surface: PaintSurface }> }) {
  const { t } = useTranslation();
  return (
    <ul className="space-y-1.5">
      {colours.map((note) => (
        <li key={`${note.surface}${note.colour}`} className="flex items-center gap-2 text-sm">
          <Swatch colour={note.colour} />
          <span>{paintColourLabel(t, note)}</span>
        </li>
      ))}
    </ul>
  );
}
