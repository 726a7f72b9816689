/**
 * "Export for listing" (California B&P Code §10140.8): the render with a disclosure burned in and
 * a QR code of a public page showing the unaltered original. The dialog takes a job id and its
 * render mode, so any finished render (the result view, the modification studio) can offer it.
 */
import * as Dialog from "@radix-ui/react-dialog";
import type { inferRouterOutputs } from "@trpc/server";
import { Copy, Download, ExternalLink, FileCheck2, Plus, ShieldOff, X } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type Language } from "../../../shared/constants";
import { defaultDisclosure, LISTING } from "../../../shared/listing";
import type { RenderMode } from "../../../shared/render";
import type { AppRouter } from "../../../server/trpc/root";
import { currentLanguage } from "../../i18n";
import { copyText } from "../../lib/format";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { buttonClass, labelClass, selectClass } from "../ui/buttons";
import { ConfirmDialog } from "../ui/Dialog";

interface ListingExportProps {
  jobId: string;
  renderMode: RenderMode;
}

/** The button among a finished render's tools, with its dialog. */
export function ListingExportButton(props: ListingExportProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)} data-testid="listing-export-open">
        <FileCheck2 className="size-4" aria-hidden="true" />
        {t("listing.button")}
      </button>
      <ListingExportDialog {...props} open={open} onOpenChange={setOpen} />
    </>
  );
}

export function ListingExportDialog({
  jobId,
  renderMode,
  open,
  onOpenChange,
}: ListingExportProps & { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation();
  const exports = trpc.listing.forJob.useQuery({ jobId }, { enabled: open, staleTime: 0 });
  const [shownId, setShownId] = useState<string | null>(null);
  const [making, setMaking] = useState(false);
  const current = exports.data ?? [];
  const shown = making ? undefined : (current.find((item) => item.id === shownId) ?? current[0]);

  const close = (next: boolean) => {
    if (!next) setMaking(false);
    onOpenChange(next);
  };

  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm" />
        <Dialog.Content
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[calc(100dvh-1.5rem)] w-[calc(100vw-1.5rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900"
          data-testid="listing-dialog"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-4 py-3 sm:px-6 sm:py-4 dark:border-slate-800">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold">{t("listing.title")}</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("listing.rule")}</Dialog.Description>
            </div>
            <Dialog.Close className={`${buttonClass.icon} shrink-0`} aria-label={t("common.close")}>
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4 sm:px-6 sm:py-5">
            {exports.isLoading ? (
              <p className="text-sm text-slate-500 dark:text-slate-400">{t("common.loading")}</p>
            ) : shown ? (
              <ExportResult
                item={shown}
                others={current.filter((item) => item.id !== shown.id)}
                onShow={setShownId}
                onAnother={() => setMaking(true)}
              />
            ) : (
              <ExportForm
                jobId={jobId}
                renderMode={renderMode}
                onCancel={current.length > 0 ? () => setMaking(false) : () => close(false)}
                onCreated={(id) => {
                  setShownId(id);
                  setMaking(false);
                }}
              />
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ExportForm({
  jobId,
  renderMode,
  onCancel,
  onCreated,
}: ListingExportProps & { onCancel(): void; onCreated(exportId: string): void }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const create = trpc.listing.create.useMutation();
  const [language, setLanguage] = useState<Language>(currentLanguage);
  // Until the user writes their own, the text follows the chosen language.
  const [written, setWritten] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const disclosure = written ?? defaultDisclosure(language, renderMode);
  const length = [...disclosure.trim()].length;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const made = await create.mutateAsync({ jobId, language, disclosure });
      await Promise.all([utils.listing.forJob.invalidate({ jobId }), utils.listing.projectCount.invalidate()]);
      toast.success(t("listing.created"));
      onCreated(made.id);
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate data-testid="listing-form">
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("listing.what")}</p>
      <div>
        <label htmlFor={`listing-language-${jobId}`} className={labelClass}>
          {t("listing.languageLabel")}
        </label>
        <select
          id={`listing-language-${jobId}`}
          className={selectClass}
          value={language}
          onChange={(event) => setLanguage(event.target.value as Language)}
        >
          {SUPPORTED_LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`listing-disclosure-${jobId}`} className={labelClass}>
          {t("listing.disclosureLabel")}
        </label>
        <input
          id={`listing-disclosure-${jobId}`}
          className={inputClass}
          value={disclosure}
          onChange={(event) => setWritten(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`listing-disclosure-${jobId}-hint${error ? ` listing-disclosure-${jobId}-error` : ""}`}
          autoComplete="off"
        />
        <p
          id={`listing-disclosure-${jobId}-hint`}
          className={`mt-1.5 text-xs ${length > LISTING.disclosureMax ? "text-red-600 dark:text-red-400" : "text-slate-500 dark:text-slate-400"}`}
        >
          {t("listing.disclosureCount", { length, max: LISTING.disclosureMax })}
        </p>
        {error ? (
          <p
            id={`listing-disclosure-${jobId}-error`}
            role="alert"
            className="mt-1.5 text-sm text-red-700 dark:text-red-300"
            data-testid="listing-error"
          >
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClass.secondary} onClick={onCancel}>
          {t("common.cancel")}
        </button>
        <button type="submit" className={buttonClass.primary} disabled={create.isPending} aria-busy={create.isPending || undefined}>
          <FileCheck2 className="size-4" aria-hidden="true" />
          {create.isPending ? t("listing.creating") : t("listing.create")}
        </button>
      </div>
    </form>
  );
}

type ExportItem = inferRouterOutputs<AppRouter>["listing"]["forJob"][number];

function ExportResult({
  item,
  others,
  onShow,
  onAnother,
}: {
  item: ExportItem;
  others: ExportItem[];
  onShow(id: string): void;
  onAnother(): void;
}) {
  const { t, i18n } = useTranslation();
  const utils = trpc.useUtils();
  const revoke = trpc.listing.revoke.useMutation();
  const [confirm, setConfirm] = useState(false);
  const date = (at: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" }).format(at);

  const copy = async () => {
    if (await copyText(item.publicUrl)) toast.success(t("listing.copied"));
    else toast.error(t("listing.copyFailed"));
  };

  const onRevoke = async () => {
    try {
      await revoke.mutateAsync({ exportId: item.id });
      setConfirm(false);
      toast.success(t("listing.revoked"));
      await Promise.all([utils.listing.forJob.invalidate({ jobId: item.jobId }), utils.listing.projectCount.invalidate()]);
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  return (
    <div className="space-y-4" data-testid="listing-result">
      <img
        src={item.pictureUrl}
        width={item.width}
        height={item.height}
        alt={t("listing.previewAlt", { disclosure: item.disclosure })}
        className="h-auto w-full rounded-lg border border-slate-200 bg-slate-100 dark:border-slate-800 dark:bg-slate-800"
        data-testid="listing-preview"
      />
      <p className="text-sm text-slate-600 dark:text-slate-300">
        <span className="font-semibold text-slate-900 dark:text-slate-100" data-testid="listing-shown-disclosure">
          {item.disclosure}
        </span>{" "}
        · {t("listing.exportedOn", { date: date(item.createdAt), language: LANGUAGE_NAMES[item.language] })}
      </p>
      <div>
        <label htmlFor={`listing-url-${item.id}`} className={labelClass}>
          {t("listing.publicLink")}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id={`listing-url-${item.id}`}
            readOnly
            value={item.publicUrl}
            onFocus={(event) => event.target.select()}
            className={`${selectClass} min-w-0 font-mono text-xs`}
            data-testid="listing-url"
          />
          <div className="flex gap-2">
            <button type="button" className={`${buttonClass.secondary} flex-1 px-3 sm:flex-none`} onClick={() => void copy()}>
              <Copy className="size-4" aria-hidden="true" />
              {t("listing.copy")}
            </button>
            <a href={item.publicUrl} target="_blank" rel="noreferrer" className={`${buttonClass.secondary} flex-1 px-3 sm:flex-none`}>
              <ExternalLink className="size-4" aria-hidden="true" />
              {t("listing.open")}
            </a>
          </div>
        </div>
        <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">{t("listing.publicHint")}</p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <a href={item.downloadUrl} download className={buttonClass.primary} data-testid="listing-download">
          <Download className="size-4" aria-hidden="true" />
          {t("listing.download")}
        </a>
        <button type="button" className={buttonClass.secondary} onClick={onAnother}>
          <Plus className="size-4" aria-hidden="true" />
          {t("listing.another")}
        </button>
        <button type="button" className={`${buttonClass.dangerOutline} sm:ml-auto`} onClick={() => setConfirm(true)}>
          <ShieldOff className="size-4" aria-hidden="true" />
          {t("listing.revoke")}
        </button>
      </div>
      {others.length > 0 ? (
        <div className="border-t border-slate-200 pt-3 dark:border-slate-800">
          <p className="mb-2 text-sm font-medium">{t("listing.others")}</p>
          <ul className="flex flex-wrap gap-2">
            {others.map((other) => (
              <li key={other.id}>
                <button type="button" className={`${buttonClass.ghost} text-left`} onClick={() => onShow(other.id)}>
                  {other.disclosure} · {LANGUAGE_NAMES[other.language]} · {date(other.createdAt)}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={t("listing.revokeTitle")}
        description={t("listing.revokeBody")}
        confirmLabel={t("listing.revoke")}
        busy={revoke.isPending}
        onConfirm={() => void onRevoke()}
      />
    </div>
  );
}
