/**
 * "Delete my account and all my data": a confirmation (Radix AlertDialog) asking for the e-mail
 * address, and the password when the account has one; then account.deleteAccount, the signed-out
 * state, home, and a toast.
 */
import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation } from "wouter";
import { PasswordField, TextField } from "../auth/fields";
import { ErrorText } from "../render/PageShell";
import { buttonClass } from "../ui/buttons";
import { beginSignOutHome, endSignOutHome } from "../../lib/signOutHome";
import { authEvents } from "../../lib/authEvents";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";

export function DeleteAccountSection() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const profile = trpc.account.profile.useQuery(undefined, { staleTime: 60_000 });
  const remove = trpc.account.deleteAccount.useMutation();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const hasPassword = profile.data?.hasPassword ?? true;

  const onOpenChange = (next: boolean) => {
    if (remove.isPending) return;
    setOpen(next);
    if (!next) {
      setEmail("");
      setPassword("");
      setError(undefined);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await remove.mutateAsync({ confirmEmail: email, ...(hasPassword ? { password } : {}) });
    } catch (caught) {
      setError(friendlyError(caught, t));
      return;
    }
    setOpen(false);
    // The visitor's view first, then home (lib/signOutHome).
    const shown = beginSignOutHome();
    authEvents.emit({ type: "SIGNED_OUT", reason: "user" });
    await shown;
    navigate("/");
    endSignOutHome();
    void utils.auth.session.invalidate();
    toast.success(t("settingsPage.delete.doneToast"), { description: t("settingsPage.delete.doneToastBody") });
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Trigger className={`${buttonClass.dangerOutline} w-full sm:w-auto`}>
        <Trash2 className="size-4" aria-hidden="true" />
        {t("settingsPage.delete.button")}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-sm" />
        <AlertDialog.Content
          className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-slate-200 bg-white p-5 shadow-xl focus:outline-none sm:p-6 dark:border-slate-800 dark:bg-slate-900"
          data-testid="delete-account-dialog"
        >
          <AlertDialog.Title className="flex items-center gap-2 text-lg font-semibold text-red-700 dark:text-red-300">
            <Trash2 className="size-5 shrink-0" aria-hidden="true" />
            {t("settingsPage.delete.dialogTitle")}
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">
            {t("settingsPage.delete.dialogBody", { email: profile.data?.email ?? "" })}
          </AlertDialog.Description>
          <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
            <TextField
              label={t("settingsPage.delete.emailLabel")}
              type="email"
              inputMode="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              disabled={remove.isPending}
            />
            {hasPassword ? (
              <PasswordField
                label={t("settingsPage.delete.passwordLabel")}
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                disabled={remove.isPending}
              />
            ) : null}
            <ErrorText message={error} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel className={buttonClass.secondary} disabled={remove.isPending}>
                {t("common.cancel")}
              </AlertDialog.Cancel>
              <button
                type="submit"
                className={buttonClass.danger}
                disabled={remove.isPending || email.trim() === ""}
                aria-busy={remove.isPending || undefined}
              >
                {remove.isPending ? t("settingsPage.delete.deleting") : t("settingsPage.delete.confirm")}
              </button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
