/** The sign-up form: errors per field (spec §5), the strength meter, and the toasts of spec §8. */
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { signUpSchema } from "../../../shared/auth-schemas";
import { track } from "../../lib/analytics";
import { fieldErrorsOf, serverFieldErrors, type FieldErrors } from "../../lib/formErrors";
import { friendlyError } from "../../lib/friendlyError";
import { translateMessage } from "../../lib/validationMessages";
import { trpc } from "../../trpc";
import { EmailField, PasswordField, SubmitButton, TextField } from "./fields";
import { PasswordStrengthMeter } from "./PasswordStrengthMeter";

type Field = "fullName" | "email" | "password";
const EMPTY = { fullName: "", email: "", password: "" } satisfies Record<Field, string>;

export function SignUpForm({ onSignedUp, initialEmail = "" }: { onSignedUp(email: string): void; initialEmail?: string }) {
  const { t } = useTranslation();
  const { mutateAsync: signUp, isPending } = trpc.auth.signUp.useMutation();
  const [values, setValues] = useState<Record<Field, string>>(() => ({ ...EMPTY, email: initialEmail }));
  const [errors, setErrors] = useState<FieldErrors>({});

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const errorOf = (field: Field) => {
    const message = errors[field];
    return message ? translateMessage(message, t) : undefined;
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const parsed = signUpSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    try {
      const result = await signUp(parsed.data);
      setValues(EMPTY);
      track({ category: "conversion", action: "sign_up" });
      toast.success(t("toasts.accountCreated"), { description: t("toasts.accountCreatedDescription") });
      onSignedUp(result.email);
    } catch (failure) {
      const fields = serverFieldErrors(failure);
      if (fields) setErrors(fields);
      else toast.error(t("toasts.signUpFailed"), { description: friendlyError(failure, t) });
    }
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <TextField
        label={t("auth.fullName")}
        name="fullName"
        autoComplete="name"
        placeholder={t("auth.fullNamePlaceholder")}
        value={values.fullName}
        onChange={change("fullName")}
        error={errorOf("fullName")}
      />
      <EmailField name="email" value={values.email} onChange={change("email")} error={errorOf("email")} />
      <PasswordField
        label={t("auth.password")}
        name="password"
        autoComplete="new-password"
        value={values.password}
        onChange={change("password")}
        error={errorOf("password")}
        hint={values.password ? <PasswordStrengthMeter password={values.password} /> : undefined}
      />
      <SubmitButton busy={isPending} label={t("auth.signUpButton")} busyLabel={t("auth.creatingAccount")} />
    </form>
  );
}
