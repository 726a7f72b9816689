/**
 * The "set a new password" view, opened by the reset e-mail's link (/auth?reset=true&token=…).
 * The new password follows the sign-up rules (spec §5), with the strength meter.
 */
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { newPasswordSchema } from "../../../shared/auth-schemas";
import { serverFieldErrors } from "../../lib/formErrors";
import { friendlyError } from "../../lib/friendlyError";
import { translateMessage } from "../../lib/validationMessages";
import { trpc } from "../../trpc";
import { linkButtonClass, PasswordField, SubmitButton } from "./fields";
import { PasswordStrengthMeter } from "./PasswordStrengthMeter";

interface Props {
  token: string;
  onDone(): void;
  onRequestNewLink(): void;
}

export function ResetPasswordForm({ token, onDone, onRequestNewLink }: Props) {
  const { t } = useTranslation();
  const { mutateAsync: resetPassword, isPending } = trpc.auth.resetPassword.useMutation();
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const parsed = newPasswordSchema.safeParse(password);
    const next = {
      password: parsed.success ? undefined : translateMessage(parsed.error.issues[0]?.message ?? "", t),
      confirmation: confirmation === password ? undefined : t("auth.reset.mismatch"),
    };
    setErrors(next);
    if (!parsed.success || next.confirmation) return;
    try {
      await resetPassword({ token, password: parsed.data });
      setPassword("");
      setConfirmation("");
      toast.success(t("toasts.passwordUpdated"), { description: t("toasts.passwordUpdatedDescription") });
      onDone();
    } catch (failure) {
      const field = serverFieldErrors(failure)?.password;
      if (field) setErrors({ password: translateMessage(field, t) });
      else toast.error(t("toasts.resetFailed"), { description: friendlyError(failure, t) });
    }
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <PasswordField
        label={t("auth.reset.newPassword")}
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          setErrors((current) => ({ ...current, password: undefined }));
        }}
        error={errors.password}
        hint={password ? <PasswordStrengthMeter password={password} /> : undefined}
      />
      <PasswordField
        label={t("auth.reset.confirmPassword")}
        name="confirmPassword"
        autoComplete="new-password"
        value={confirmation}
        onChange={(event) => {
          setConfirmation(event.target.value);
          setErrors((current) => ({ ...current, confirmation: undefined }));
        }}
        error={errors.confirmation}
      />
      <SubmitButton busy={isPending} label={t("auth.reset.submit")} busyLabel={t("auth.reset.saving")} />
      <p className="text-center">
        <button type="button" onClick={onRequestNewLink} className={linkButtonClass}>
          {t("auth.reset.requestNewLink")}
        </button>
      </p>
    </form>
  );
}
