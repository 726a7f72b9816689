/**
 * The e-mail verification banner of spec §2, on protected pages for an address not yet confirmed:
 * the address, "Resend Email" ("Sending..." while busy) and a dismiss control.
 */
import { MailWarning, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useResendConfirmation } from "../hooks/useResendConfirmation";

/** Dismissed for the rest of this visit (every protected page mounts its own banner). */
const dismissedFor = new Set<string>();

export function EmailVerificationBanner({ email }: { email: string }) {
  const { t } = useTranslation();
  const { resend, isPending } = useResendConfirmation();
  const [dismissed, setDismissed] = useState(() => dismissedFor.has(email));
  if (dismissed) return null;

  return (
    <div
      role="status"
      data-testid="email-verification-banner"
      className="border-b border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-3 sm:items-center sm:px-6">
        <MailWarning className="mt-0.5 size-5 shrink-0 sm:mt-0" aria-hidden="true" />
        <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm">
            {t("verifyBanner.text")} <strong className="break-words font-semibold">{email}</strong>
          </p>
          <button
            type="button"
            onClick={() => void resend(email)}
            disabled={isPending}
            aria-busy={isPending || undefined}
            className="self-start whitespace-nowrap rounded-md border border-amber-300 bg-white px-3 py-1.5 text-sm font-semibold text-amber-900 hover:bg-amber-100 disabled:opacity-60 sm:self-auto dark:border-amber-700 dark:bg-amber-900/40 dark:text-amber-100 dark:hover:bg-amber-900/70"
          >
            {isPending ? t("verifyBanner.sending") : t("verifyBanner.resend")}
          </button>
        </div>
        <button
          type="button"
          onClick={() => {
            dismissedFor.add(email);
            setDismissed(true);
          }}
          aria-label={t("verifyBanner.dismiss")}
          title={t("verifyBanner.dismiss")}
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-amber-800 hover:bg-amber-100 dark:text-amber-200 dark:hover:bg-amber-900/60"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
