/** Measures made in AR (decision 092) as a list: the project page's (deletable) and the client review page's (read-only). */
import { Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { formatLength, type ArMeasureView } from "../../../shared/measures";
import { buttonClass } from "../ui/buttons";

export function ArMeasureList({ measures, onDelete }: { measures: readonly ArMeasureView[]; onDelete?(measure: ArMeasureView): void }) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="ar-measures">
      {measures.map((measure) => (
        <li key={measure.id} className="flex items-center justify-between gap-3 py-2" data-testid="ar-measure">
          {/* The name above its length: both whole on a phone's width. */}
          <span className="min-w-0 flex-1 sm:flex sm:items-baseline sm:justify-between sm:gap-3">
            <span className="block truncate">{measure.label || t("measure.ar.unnamed")}</span>
            <span className="block font-semibold tabular-nums">{formatLength(measure.lengthCm, i18n.resolvedLanguage ?? "en")}</span>
          </span>
          {onDelete ? (
            <button
              type="button"
              className={buttonClass.icon}
              aria-label={t("measure.delete", { label: measure.label || t("measure.ar.unnamed") })}
              onClick={() => onDelete(measure)}
            >
              <Trash2 className="size-4" aria-hidden="true" />
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
