/**
 * An admin's credit adjustment, for a user (Users) or a team (Teams): a whole amount, positive or
 * negative, never below zero, with a reason for the ledger. The server checks the same again.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CREDIT_ADJUSTMENT_REASON_MAX } from "../../../shared/billing";
import { friendlyError } from "../../lib/friendlyError";
import { inputClass } from "../auth/fields";
import { labelClass } from "../ui/buttons";
import { FormDialog } from "../ui/Dialog";

export function AdjustCreditsDialog({
  open,
  onOpenChange,
  description,
  balance,
  idPrefix,
  busy,
  onAdjust,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  description: string | undefined;
  /** The balance now: an adjustment may not take it below zero. */
  balance: number;
  /** Makes the fields' ids unique on the page. */
  idPrefix: string;
  busy: boolean;
  /** Sends the adjustment; a thrown error is shown in the dialog. */
  onAdjust(amount: number, reason: string): Promise<void>;
}) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [formError, setFormError] = useState<string>();

  // Each opening starts empty.
  useEffect(() => {
    if (!open) return;
    setAmount("");
    setReason("");
    setFormError(undefined);
  }, [open]);

  const submit = async () => {
    const value = Number(amount);
    if (!Number.isInteger(value) || value === 0) return setFormError(t("admin.users.amountInvalid"));
    if (balance + value < 0) return setFormError(t("admin.users.amountTooLow", { credits: balance }));
    if (!reason.trim()) return setFormError(t("admin.users.reasonRequired"));
    try {
      await onAdjust(value, reason.trim());
    } catch (caught) {
      setFormError(friendlyError(caught, t));
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("admin.users.adjustTitle")}
      description={description}
      submitLabel={t("admin.users.adjustSubmit")}
      busy={busy}
      onSubmit={() => void submit()}
    >
      <div>
        <label htmlFor={`${idPrefix}-amount`} className={labelClass}>
          {t("admin.users.amount")}
        </label>
        <input
          id={`${idPrefix}-amount`}
          className={inputClass}
          inputMode="numeric"
          value={amount}
          onChange={(event) => setAmount(event.target.value.replace(/[^\d-]/g, ""))}
          aria-describedby={`${idPrefix}-amount-hint`}
          autoComplete="off"
        />
        <p id={`${idPrefix}-amount-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {t("admin.users.amountHint")}
        </p>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-reason`} className={labelClass}>
          {t("admin.users.reason")}
        </label>
        <input
          id={`${idPrefix}-reason`}
          className={inputClass}
          value={reason}
          maxLength={CREDIT_ADJUSTMENT_REASON_MAX}
          onChange={(event) => setReason(event.target.value)}
          autoComplete="off"
          placeholder={t("admin.users.reasonPlaceholder")}
        />
      </div>
      {formError ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {formError}
        </p>
      ) : null}
    </FormDialog>
  );
}
