/** Modal dialogs (Radix): focus is held inside, Escape closes, focus returns to the opener. */
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { friendlyError } from "../../lib/friendlyError";
import { buttonClass } from "./buttons";

const overlayClass = "fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm";
const contentClass =
  "fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 " +
  "bg-white p-5 shadow-xl focus:outline-none sm:p-6 dark:border-slate-800 dark:bg-slate-900";

interface FormDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: string;
  submitLabel: string;
  busy?: boolean;
  onSubmit(): void;
  children: ReactNode;
}

/** A small form in a dialog (create or rename a project). */
export function FormDialog({ open, onOpenChange, title, description, submitLabel, busy, onSubmit, children }: FormDialogProps) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlayClass} />
        <Dialog.Content className={contentClass} {...(description ? {} : { "aria-describedby": undefined })}>
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold [overflow-wrap:anywhere]">{title}</Dialog.Title>
            <Dialog.Close className={buttonClass.icon} aria-label={t("common.close")}>
              <X className="size-4" aria-hidden="true" />
            </Dialog.Close>
          </div>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
              {description}
            </Dialog.Description>
          ) : null}
          <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
            {children}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close className={buttonClass.secondary} type="button">
                {t("common.cancel")}
              </Dialog.Close>
              <button type="submit" className={buttonClass.primary} disabled={busy} aria-busy={busy || undefined}>
                {submitLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm(): void;
}

/** Asks before something that cannot be undone (deleting); the safe choice has the focus. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, busy, onConfirm }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClass} />
        <AlertDialog.Content className={contentClass}>
          <AlertDialog.Title className="text-lg font-semibold [overflow-wrap:anywhere]">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
            {description}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClass.secondary}>{t("common.cancel")}</AlertDialog.Cancel>
            <button type="button" className={buttonClass.danger} disabled={busy} aria-busy={busy || undefined} onClick={onConfirm}>
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

interface ConfirmDeletionProps<T> {
  /** What is to be deleted; null: the dialog is closed. */
  item: T | null;
  onClose(): void;
  title(item: T): string;
  description(item: T): ReactNode;
  confirmLabel: string;
  /** Deletes it (and refreshes what lists it); a refusal is shown as a toast and the dialog stays. */
  remove(item: T): Promise<unknown>;
  /** What the toast says once it is gone. */
  deleted(item: T): string;
}

/** Asks before deleting one thing of a list, deletes it, and says so: the one flow of every list page. */
export function ConfirmDeletion<T>({ item, onClose, title, description, confirmLabel, remove, deleted }: ConfirmDeletionProps<T>) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // The texts stay while the dialog closes (its item is already null then).
  const [shown, setShown] = useState<T | null>(item);
  if (item !== null && item !== shown) setShown(item);
  const confirm = async () => {
    if (item === null) return;
    setBusy(true);
    try {
      await remove(item);
      toast.success(deleted(item));
      onClose();
    } catch (error) {
      toast.error(friendlyError(error, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(isOpen) => (isOpen ? undefined : onClose())}
      title={shown === null ? "" : title(shown)}
      description={shown === null ? "" : description(shown)}
      confirmLabel={confirmLabel}
      busy={busy}
      onConfirm={() => void confirm()}
    />
  );
}
