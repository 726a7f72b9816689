import { useTranslation } from "react-i18next";
import { RENDER } from "../../../shared/render";
import { useEngine } from "../../hooks/useEngine";
import { inputClass } from "../auth/fields";
import { labelClass } from "../ui/buttons";

/**
 * The optional note added to the prompt, with its character count. With the Preview engine (or
 * before the engine is known) the hint says honestly that the note is kept but not read.
 */
export function NoteField({
  id,
  value,
  onChange,
  rows,
  hint,
}: {
  id: string;
  value: string;
  onChange: (note: string) => void;
  rows: number;
  /** What an AI engine does with the note. */
  hint: string;
}) {
  const { t } = useTranslation();
  const { isAi } = useEngine();
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
        <span>{isAi ? hint : t("styleSelect.noteHintPreview")}</span>
        <span className="shrink-0 tabular-nums">
          {value.length}/{RENDER.noteMax}
        </span>
      </p>
    </div>
  );
}
