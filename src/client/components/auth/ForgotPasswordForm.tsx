/** The forgot-password view (spec §2; also /auth?reset=true): asks for the address to send a reset link to. */
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { resetRequestSchema } from "../../../shared/auth-schemas";
import { firstFieldError, serverFieldErrors } from "../../lib/formErrors";
import { friendlyError } from "../../lib/friendlyError";
import { translateMessage } from "../../lib/validationMessages";
import { trpc } from "../../trpc";
import { EmailField, linkButtonClass, SubmitButton } from "./fields";

export function ForgotPasswordForm({ initialEmail, onDone }: { initialEmail: string; onDone(): void }) {
  const { t } = useTranslation();
  const { mutateAsync: requestReset, isPending } = trpc.auth.requestPasswordReset.useMutation();
  const [resetEmail, setResetEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const parsed = resetRequestSchema.safeParse({ resetEmail });
    if (!parsed.success) {
      setError(firstFieldError(parsed.error)?.message ?? null);
      return;
    }
    setError(null);
    try {
      await requestReset(parsed.data);
      // Spec §4: success clears the address and returns to the sign-in view.
      setResetEmail("");
      toast.success(t("toasts.resetSent"), { description: t("toasts.resetSentDescription") });
      onDone();
    } catch (failure) {
      const field = serverFieldErrors(failure)?.resetEmail;
      if (field) setError(field);
      else toast.error(t("toasts.resetFailed"), { description: friendlyError(failure, t) });
    }
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <EmailField
        name="resetEmail"
        value={resetEmail}
        onChange={(event) => {
          setResetEmail(event.target.value);
          setError(null);
        }}
        error={error ? translateMessage(error, t) : undefined}
      />
      <SubmitButton busy={isPending} label={t("auth.forgot.submit")} busyLabel={t("auth.forgot.sending")} />
      <p className="text-center">
        <button type="button" onClick={onDone} className={linkButtonClass}>
          {t("auth.backToSignIn")}
        </button>
      </p>
    </form>
  );
}
