import { useTranslation } from "react-i18next";
import { RENDER } from "../../../shared/render";
import { inputClass } from "../auth/fields";
import { labelClass } from "../ui/buttons";

/**
 * The optional note added to the prompt, with its character count. With the Preview engine the
 * hint says honestly that the note is kept but not read.
 */
export function NoteField({
  id,
  value,
  onChange,
  rows,
  previewEngine,
  hint,
}: {
  id: string;
  value: string;
  onChange: (note: string) => void;
  rows: number;
  previewEngine: boolean;
  hint: string;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {t("styleSelect.noteLabel")}
      </label>
      <textarea
        id={id}
        rows={rows}
        maxLength={RENDER.noteMax}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={t("styleSelect.notePlaceholder")}
        aria-describedby={`${id}-hint`}
        className={`${inputClass} resize-y`}
      />
      <p id={`${id}-hint`} className="mt-1.5 flex justify-between gap-3 text-sm text-slate-500 dark:text-slate-400">
        <span>{previewEngine ? t("styleSelect.noteHintPreview") : hint}</span>
        <span className="shrink-0 tabular-nums">
          {value.length}/{RENDER.noteMax}
        </span>
      </p>
    </div>
  );
}
