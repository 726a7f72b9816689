/**
 * Admin · Studio · Paint (issue 33): the palette the studio's Paint tool offers (name and code, up to
 * 24) and what a paint costs on the Preview engine (free or one credit). Checked here as the server
 * checks it (paintSettingsInputSchema), so a refusal names the field before anything is sent.
 */
import { Plus, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { PAINT, paintSettingsInputSchema, type PaletteColour } from "../../../shared/paint";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { Swatch } from "../studio/PaintColour";
import { inputClass } from "../auth/fields";
import { buttonClass, selectClass } from "../ui/buttons";
import { ErrorNote, Panel } from "./common";

export function PaintSettingsPanel() {
  const { t } = useTranslation();
  const settings = trpc.admin.paintSettings.useQuery();
  const utils = trpc.useUtils();
  const save = trpc.admin.updatePaint.useMutation();
  const [palette, setPalette] = useState<PaletteColour[]>([]);
  const [previewCredits, setPreviewCredits] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!settings.data) return;
    setPalette(settings.data.palette);
    setPreviewCredits(settings.data.previewCredits);
  }, [settings.data]);

  const submit = async () => {
    const parsed = paintSettingsInputSchema.safeParse({ palette, previewCredits });
    if (!parsed.success) return setError(friendlyError(parsed.error.issues[0]!, t));
    setError(null);
    try {
      await save.mutateAsync(parsed.data);
      toast.success(t("admin.paint.saved"));
      await Promise.all([utils.admin.paintSettings.invalidate(), utils.render.paintOffer.invalidate()]);
    } catch (failure) {
      setError(friendlyError(failure, t));
    }
  };
  const change = (index: number, field: keyof PaletteColour, value: string) =>
    setPalette((list) => list.map((entry, at) => (at === index ? { ...entry, [field]: value } : entry)));

  return (
    <Panel title={t("admin.paint.title")} description={t("admin.paint.intro")} testId="admin-studio-paint">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <div className="max-w-xs">
          <label htmlFor="paint-preview-credits" className="mb-1 block text-sm font-medium">
            {t("admin.paint.previewCredits")}
          </label>
          <select
            id="paint-preview-credits"
            className={selectClass}
            value={previewCredits}
            onChange={(event) => setPreviewCredits(Number(event.target.value))}
          >
            <option value={0}>{t("admin.paint.free")}</option>
            <option value={1}>{t("admin.paint.oneCredit")}</option>
          </select>
        </div>
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-medium">{t("admin.paint.palette", { count: palette.length, max: PAINT.paletteMax })}</legend>
          {palette.length === 0 ? <p className="text-sm text-slate-500 dark:text-slate-400">{t("admin.paint.empty")}</p> : null}
          <ul className="space-y-2" data-testid="admin-paint-palette">
            {palette.map((entry, index) => (
              <li key={index} className="flex items-center gap-2">
                <Swatch colour={/^#[0-9a-fA-F]{6}$/.test(entry.hex) ? entry.hex : "transparent"} className="size-8" />
                <input
                  aria-label={t("admin.paint.name")}
                  className={`${inputClass} min-w-0 flex-1`}
                  value={entry.name}
                  maxLength={PAINT.paletteNameMax}
                  onChange={(event) => change(index, "name", event.target.value)}
                />
                <input
                  aria-label={t("admin.paint.code")}
                  className={`${inputClass} w-28 font-mono`}
                  value={entry.hex}
                  maxLength={7}
                  spellCheck={false}
                  onChange={(event) => change(index, "hex", event.target.value.trim())}
                />
                <button
                  type="button"
                  className={buttonClass.ghost}
                  aria-label={t("admin.paint.removeColour", { name: entry.name || entry.hex })}
                  onClick={() => setPalette((list) => list.filter((_, at) => at !== index))}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={palette.length >= PAINT.paletteMax}
            onClick={() => setPalette((list) => [...list, { name: "", hex: "#" }])}
          >
            <Plus className="size-4" aria-hidden="true" />
            {t("admin.paint.addColour")}
          </button>
        </fieldset>
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <button type="submit" className={buttonClass.primary} disabled={save.isPending || !settings.data} data-testid="admin-paint-save">
          {t("admin.paint.save")}
        </button>
      </form>
    </Panel>
  );
}
