/**
 * /styles (signed in; issue 32, decision 100): the styles of the space the user works in, beside the
 * twelve built-in ones. In a personal space, and for a team's Owner and Admins, each can be made,
 * changed and deleted: a name, a description in their words (what an AI engine is told), what to
 * avoid, a palette and a tone (what the Preview engine grades with), an optional reference picture.
 * A team's Member uses them and is told who may change them. Every rule is the server's too.
 */
import { ImageIcon, Palette, Pencil, Plus, Trash2, Wand2, X } from "lucide-react";
import { useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { UI_LANGUAGE_HEADER, DEFAULT_LANGUAGE } from "../../shared/constants";
import {
  CUSTOM_STYLES,
  STYLE_TONES,
  customStyleInputSchema,
  customStyleReferencePath,
  type CustomStyleView,
  type StyleTone,
} from "../../shared/custom-styles";
import { MESSAGES } from "../../shared/messages";
import { FieldError, TextField, inputClass } from "../components/auth/fields";
import { ErrorText, PageShell } from "../components/render/PageShell";
import { PaletteSwatch } from "../components/render/StyleSwatch";
import { Spinner } from "../components/Spinner";
import { ConfirmDeletion, FormDialog } from "../components/ui/Dialog";
import { buttonClass, cardClass, labelClass } from "../components/ui/buttons";
import { fieldErrorsOf, serverFieldErrors, type FieldErrors } from "../lib/formErrors";
import { friendlyError } from "../lib/friendlyError";
import { translateMessage } from "../lib/validationMessages";
import { trpc } from "../trpc";
import i18next from "i18next";

interface FormState {
  name: string;
  description: string;
  avoid: string;
  palette: string[];
  tone: StyleTone;
}

const EMPTY: FormState = { name: "", description: "", avoid: "", palette: ["#f5f0e8", "#8b6b4a", "#2f4f4f"], tone: "warm" };

const formOf = (style: CustomStyleView): FormState => ({
  name: style.name,
  description: style.description,
  avoid: style.avoid,
  palette: [...style.palette],
  tone: style.tone,
});

/** Sends the reference picture as the raw body (as uploads are); the server's refusal, in the user's language, when it refuses. */
async function sendReference(styleId: string, file: File): Promise<string | null> {
  const response = await fetch(customStyleReferencePath(styleId), {
    method: "PUT",
    credentials: "same-origin",
    headers: {
      "Content-Type": file.type || "application/octet-stream",
      [UI_LANGUAGE_HEADER]: i18next.resolvedLanguage ?? DEFAULT_LANGUAGE,
    },
    body: file,
  }).catch(() => null);
  if (response?.ok) return null;
  const body = (await response?.json().catch(() => null)) as { error?: string } | null;
  return body?.error ?? MESSAGES.customStyleReferenceInvalid;
}

/** The colours of the palette: a colour well and its #rrggbb text each, one to six. */
function PaletteEditor({ value, onChange, error }: { value: string[]; onChange(palette: string[]): void; error?: string }) {
  const { t } = useTranslation();
  const set = (index: number, colour: string) => onChange(value.map((current, at) => (at === index ? colour : current)));
  return (
    <fieldset aria-describedby={error ? "style-palette-error" : "style-palette-hint"}>
      <legend className={labelClass}>{t("customStyles.fields.palette")}</legend>
      <ul className="space-y-2" data-testid="palette-editor">
        {value.map((colour, index) => {
          const valid = /^#[0-9a-fA-F]{6}$/.test(colour);
          return (
            <li key={index} className="flex items-center gap-2">
              <input
                type="color"
                value={valid ? colour.toLowerCase() : "#000000"}
                onChange={(event) => set(index, event.target.value)}
                aria-label={t("customStyles.colourWell", { number: index + 1 })}
                className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-950"
              />
              <input
                type="text"
                value={colour}
                onChange={(event) => set(index, event.target.value)}
                aria-label={t("customStyles.colourCode", { number: index + 1 })}
                aria-invalid={valid ? undefined : true}
                maxLength={7}
                spellCheck={false}
                autoComplete="off"
                className={`${inputClass} font-mono uppercase`}
              />
              <button
                type="button"
                className={buttonClass.icon}
                onClick={() => onChange(value.filter((_, at) => at !== index))}
                disabled={value.length <= CUSTOM_STYLES.paletteMin}
                aria-label={t("customStyles.removeColour", { number: index + 1 })}
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            </li>
          );
        })}
      </ul>
      {value.length < CUSTOM_STYLES.paletteMax ? (
        <button
          type="button"
          className={`${buttonClass.ghost} mt-2`}
          onClick={() => onChange([...value, value[value.length - 1] ?? "#cccccc"])}
        >
          <Plus className="size-4" aria-hidden="true" />
          {t("customStyles.addColour")}
        </button>
      ) : null}
      {error ? null : (
        <p id="style-palette-hint" className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
          {t("customStyles.paletteHint", { max: CUSTOM_STYLES.paletteMax })}
        </p>
      )}
      <FieldError id="style-palette-error" message={error} />
    </fieldset>
  );
}

function StyleForm({
  editing,
  teamId,
  takesReference,
  onClose,
  onSaved,
}: {
  editing: { style: CustomStyleView | null } | null;
  teamId: string | null;
  takesReference: boolean;
  onClose(): void;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const create = trpc.styles.create.useMutation();
  const update = trpc.styles.update.useMutation();
  const removeReference = trpc.styles.removeReference.useMutation();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [reference, setReference] = useState<File | null>(null);
  const [dropReference, setDropReference] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [sending, setSending] = useState(false);
  /** Bumped to empty the file field after its picture was refused. */
  const [fileField, setFileField] = useState(0);
  /** The style once saved in this dialog (a new one whose picture was refused is then changed, not made twice). */
  const [savedHere, setSavedHere] = useState<CustomStyleView | null>(null);
  const [openedFor, setOpenedFor] = useState<typeof editing>(null);
  // A new dialog starts from the style it edits (or a starting palette), without stale errors.
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setSavedHere(null);
    setForm(editing?.style ? formOf(editing.style) : EMPTY);
    setReference(null);
    setDropReference(false);
    setErrors({});
    setFormError(undefined);
  }
  const existing = savedHere ?? editing?.style ?? null;
  const translated = (fieldErrors: FieldErrors): FieldErrors =>
    Object.fromEntries(Object.entries(fieldErrors).map(([field, message]) => [field, message ? translateMessage(message, t) : message]));

  const chooseReference = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    // Said at once for a file that is plainly too big; the server checks everything again.
    if (file && file.size > CUSTOM_STYLES.referenceMaxBytes) {
      setErrors({ ...errors, reference: translateMessage(MESSAGES.customStyleReferenceInvalid, t) });
      event.target.value = "";
      return;
    }
    setErrors({ ...errors, reference: undefined });
    setReference(file);
    if (file) setDropReference(false);
  };

  const submit = async () => {
    const parsed = customStyleInputSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(translated(fieldErrorsOf(parsed.error)));
      setFormError(undefined);
      return;
    }
    setErrors({});
    setFormError(undefined);
    setSending(true);
    try {
      const saved = existing
        ? await update.mutateAsync({ id: existing.id, ...parsed.data })
        : await create.mutateAsync({ teamId, ...parsed.data });
      if (reference) {
        const refused = await sendReference(saved.id, reference);
        if (refused) {
          // The style is kept; only the picture was refused: say why and let them pick another.
          setSavedHere(saved);
          setReference(null);
          setFileField(fileField + 1);
          setErrors({ reference: translateMessage(refused, t) });
          await onSaved();
          return;
        }
      } else if (dropReference && existing?.hasReference) {
        await removeReference.mutateAsync({ id: existing.id });
      }
      toast.success(t(existing ? "customStyles.saved" : "customStyles.added", { name: saved.name }));
      onClose();
      await onSaved();
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields) setErrors(translated(fields));
      else setFormError(friendlyError(error, t));
    } finally {
      setSending(false);
    }
  };

  const text = (name: "name" | "description" | "avoid") => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  return (
    <FormDialog
      open={editing !== null}
      onOpenChange={(isOpen) => (isOpen ? undefined : onClose())}
      title={existing ? t("customStyles.editTitle") : t("customStyles.addTitle")}
      description={t("customStyles.formDescription")}
      submitLabel={t("customStyles.save")}
      busy={sending}
      onSubmit={() => void submit()}
    >
      <div className="-mx-1 max-h-[60vh] space-y-4 overflow-y-auto px-1" data-testid="style-form">
        <TextField
          label={t("customStyles.fields.name")}
          autoComplete="off"
          maxLength={CUSTOM_STYLES.nameMax + 20}
          required
          error={errors.name}
          {...text("name")}
        />
        <div>
          <label htmlFor="style-description" className={labelClass}>
            {t("customStyles.fields.description")}
          </label>
          <textarea
            id="style-description"
            rows={4}
            className={inputClass}
            maxLength={CUSTOM_STYLES.descriptionMax + 50}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? "style-description-error" : "style-description-hint"}
            {...text("description")}
          />
          {errors.description ? null : (
            <p id="style-description-hint" className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
              {t("customStyles.descriptionHint", { length: form.description.trim().length, max: CUSTOM_STYLES.descriptionMax })}
            </p>
          )}
          <FieldError id="style-description-error" message={errors.description} />
        </div>
        <div>
          <label htmlFor="style-avoid" className={labelClass}>
            {t("customStyles.fields.avoid")}
          </label>
          <textarea
            id="style-avoid"
            rows={2}
            className={inputClass}
            maxLength={CUSTOM_STYLES.avoidMax + 50}
            aria-invalid={errors.avoid ? true : undefined}
            aria-describedby={errors.avoid ? "style-avoid-error" : "style-avoid-hint"}
            {...text("avoid")}
          />
          {errors.avoid ? null : (
            <p id="style-avoid-hint" className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
              {t("customStyles.avoidHint")}
            </p>
          )}
          <FieldError id="style-avoid-error" message={errors.avoid} />
        </div>
        <PaletteEditor value={form.palette} onChange={(palette) => setForm({ ...form, palette })} error={errors.palette} />
        <fieldset aria-describedby={errors.tone ? "style-tone-error" : undefined}>
          <legend className={labelClass}>{t("customStyles.fields.tone")}</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3" role="radiogroup" aria-label={t("customStyles.fields.tone")}>
            {STYLE_TONES.map((tone) => (
              <label
                key={tone}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 dark:border-slate-700 dark:has-[:checked]:border-brand-500 dark:has-[:checked]:bg-brand-700/20"
              >
                <input
                  type="radio"
                  name="style-tone"
                  value={tone}
                  checked={form.tone === tone}
                  onChange={() => setForm({ ...form, tone })}
                  className="accent-brand-600"
                />
                {t(`customStyles.tones.${tone}`)}
              </label>
            ))}
          </div>
          <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">{t("customStyles.toneHint")}</p>
          <FieldError id="style-tone-error" message={errors.tone} />
        </fieldset>
        <div>
          <label htmlFor="style-reference" className={labelClass}>
            {t("customStyles.fields.reference")}
          </label>
          {existing?.hasReference && !dropReference && !reference ? (
            <div className="mb-2 flex items-center gap-3">
              <img
                src={`${customStyleReferencePath(existing.id)}?v=${existing.updatedAt}`}
                alt={t("customStyles.referenceAlt", { name: existing.name })}
                className="h-16 w-24 rounded-md border border-slate-200 object-cover dark:border-slate-700"
              />
              <button type="button" className={buttonClass.ghost} onClick={() => setDropReference(true)}>
                <Trash2 className="size-4" aria-hidden="true" />
                {t("customStyles.removeReference")}
              </button>
            </div>
          ) : null}
          <input
            key={fileField}
            id="style-reference"
            type="file"
            accept="image/jpeg,image/png"
            onChange={chooseReference}
            aria-invalid={errors.reference ? true : undefined}
            aria-describedby={errors.reference ? "style-reference-error" : "style-reference-hint"}
            className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-200 dark:text-slate-300 dark:file:bg-slate-800 dark:file:text-slate-100"
          />
          {errors.reference ? null : (
            <p id="style-reference-hint" className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
              {t(takesReference ? "customStyles.referenceHint" : "customStyles.referenceHintIgnored")}
            </p>
          )}
          <FieldError id="style-reference-error" message={errors.reference} />
        </div>
      </div>
      <ErrorText message={formError} />
    </FormDialog>
  );
}

function StyleCard({
  style,
  canManage,
  onEdit,
  onDelete,
}: {
  style: CustomStyleView;
  canManage: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  return (
    <li className={`${cardClass} flex flex-col overflow-hidden`} data-testid="custom-style-card">
      <PaletteSwatch palette={style.palette} />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 className="font-semibold [overflow-wrap:anywhere]">{style.name}</h3>
          <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
            {t(`customStyles.tones.${style.tone}`)}
          </span>
        </div>
        <p className="line-clamp-3 text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-300">{style.description}</p>
        {style.avoid ? (
          <p className="line-clamp-2 text-xs text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
            {t("customStyles.avoidLine", { avoid: style.avoid })}
          </p>
        ) : null}
        {style.hasReference ? (
          <p className="flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            <ImageIcon className="size-3.5" aria-hidden="true" />
            {t("customStyles.hasReference")}
          </p>
        ) : null}
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          <Link href={`/upload?style=${encodeURIComponent(style.id)}`} className={`${buttonClass.primary} py-2`}>
            <Wand2 className="size-4" aria-hidden="true" />
            {t("customStyles.use")}
            <span className="sr-only"> {style.name}</span>
          </Link>
          {canManage ? (
            <>
              <button type="button" className={`${buttonClass.secondary} py-2`} onClick={onEdit}>
                <Pencil className="size-4" aria-hidden="true" />
                {t("customStyles.edit")}
                <span className="sr-only"> {style.name}</span>
              </button>
              <button type="button" className={`${buttonClass.dangerOutline} py-2`} onClick={onDelete}>
                <Trash2 className="size-4" aria-hidden="true" />
                {t("customStyles.delete")}
                <span className="sr-only"> {style.name}</span>
              </button>
            </>
          ) : null}
        </div>
      </div>
    </li>
  );
}

export default function StylesPage() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const spaces = trpc.teams.mine.useQuery();
  const teamId = spaces.data?.current ?? null;
  const list = trpc.styles.list.useQuery({ teamId }, { enabled: spaces.isSuccess, staleTime: 0 });
  const allowance = trpc.render.allowance.useQuery(undefined, { staleTime: 60_000 });
  const remove = trpc.styles.delete.useMutation();
  const [editing, setEditing] = useState<{ style: CustomStyleView | null } | null>(null);
  const [deleting, setDeleting] = useState<CustomStyleView | null>(null);

  const teamName = teamId ? spaces.data?.teams.find((team) => team.id === teamId)?.name : undefined;
  const shelf = list.data;
  const intro = shelf
    ? shelf.teamId
      ? t(shelf.canManage ? "customStyles.introTeam" : "customStyles.introTeamMember", { team: teamName ?? "…" })
      : t("customStyles.introPersonal")
    : undefined;
  const full = (shelf?.styles.length ?? 0) >= CUSTOM_STYLES.perSpaceMax;
  const refresh = () => utils.styles.list.invalidate();

  return (
    <PageShell
      title={t("customStyles.title")}
      intro={intro}
      actions={
        shelf?.canManage ? (
          <button
            type="button"
            className={buttonClass.primary}
            onClick={() => setEditing({ style: null })}
            disabled={full}
            aria-describedby={full ? "styles-full" : undefined}
          >
            <Plus className="size-4" aria-hidden="true" />
            {t("customStyles.add")}
          </button>
        ) : null
      }
    >
      {spaces.isLoading || list.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {list.error ? <ErrorText message={friendlyError(list.error, t)} /> : null}
      {full ? (
        <p id="styles-full" className="text-sm text-amber-700 dark:text-amber-300">
          {t("serverMessages.tooManyCustomStyles")}
        </p>
      ) : null}
      {shelf ? (
        shelf.styles.length === 0 ? (
          <div className={`${cardClass} flex flex-col items-center gap-3 p-8 text-center`} data-testid="styles-empty">
            <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-700/20 dark:text-brand-100">
              <Palette className="size-6" aria-hidden="true" />
            </span>
            <p className="max-w-md text-slate-600 dark:text-slate-300">
              {t(shelf.canManage ? "customStyles.empty" : "customStyles.emptyMember")}
            </p>
          </div>
        ) : (
          <section aria-labelledby="styles-count" className="space-y-3">
            <h2 id="styles-count" className="text-sm font-medium text-slate-600 dark:text-slate-400">
              {t("customStyles.count", { count: shelf.styles.length, max: CUSTOM_STYLES.perSpaceMax })}
            </h2>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="custom-styles-list">
              {shelf.styles.map((style) => (
                <StyleCard
                  key={style.id}
                  style={style}
                  canManage={shelf.canManage}
                  onEdit={() => setEditing({ style })}
                  onDelete={() => setDeleting(style)}
                />
              ))}
            </ul>
          </section>
        )
      ) : null}
      <StyleForm
        editing={editing}
        teamId={teamId}
        takesReference={allowance.data?.engine.capabilities.referencePicture === true}
        onClose={() => setEditing(null)}
        onSaved={refresh}
      />
      <ConfirmDeletion
        item={deleting}
        onClose={() => setDeleting(null)}
        title={(style) => t("customStyles.deleteTitle", { name: style.name })}
        description={() => t("customStyles.deleteBody")}
        confirmLabel={t("customStyles.delete")}
        remove={async (style) => {
          await remove.mutateAsync({ id: style.id });
          await refresh();
        }}
        deleted={(style) => t("customStyles.deleted", { name: style.name })}
      />
    </PageShell>
  );
}
