/**
 * The two-factor view (spec §2, §5): a code from the authenticator app, or a backup code.
 * The shape of the code is checked here ("Please enter a verification code" when empty,
 * "Invalid verification code" for a wrong length); the server checks the code itself.
 */
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { twoFactorCodeSchema } from "../../../shared/auth-schemas";
import { FIELD_LIMITS } from "../../../shared/constants";
import { authEvents } from "../../lib/authEvents";
import { serverFieldErrors } from "../../lib/formErrors";
import { friendlyError } from "../../lib/friendlyError";
import { translateMessage } from "../../lib/validationMessages";
import { trpc } from "../../trpc";
import { linkButtonClass, secondaryButtonClass, SubmitButton, TextField } from "./fields";

export function TwoFactorForm({ challengeToken }: { challengeToken: string }) {
  const { t } = useTranslation();
  const { mutateAsync: verify, isPending } = trpc.auth.verifyTwoFactor.useMutation();
  const [backup, setBackup] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const parsed = twoFactorCodeSchema.safeParse({ code, backup });
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? "", t));
      return;
    }
    setError(null);
    try {
      const result = await verify({ challengeToken, code: parsed.data.code, backup: parsed.data.backup });
      toast.success(result.usedBackupCode ? t("toasts.backupCodeAccepted") : t("toasts.verificationSuccessful"), {
        description: t("toasts.verificationSuccessfulDescription"),
      });
      authEvents.emit({ type: "MFA_CHALLENGE_VERIFIED" });
      authEvents.emit({ type: "SIGNED_IN" });
    } catch (failure) {
      // Spec §8: the returned message, or "Invalid verification code".
      const field = serverFieldErrors(failure)?.code;
      setError(field ? translateMessage(field, t) : friendlyError(failure, t) || t("validation.codeInvalid"));
    }
  }

  function switchMode() {
    setBackup((current) => !current);
    setCode("");
    setError(null);
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <TextField
        key={backup ? "backup" : "totp"}
        label={backup ? t("auth.twoFactor.backupCode") : t("auth.twoFactor.authenticatorCode")}
        name="code"
        autoComplete="one-time-code"
        inputMode={backup ? "text" : "numeric"}
        autoCapitalize={backup ? "characters" : "off"}
        spellCheck={false}
        maxLength={backup ? FIELD_LIMITS.backupCodeLength : FIELD_LIMITS.totpCodeLength}
        placeholder={backup ? "XXXXXXXX" : "000000"}
        className="[&_input]:text-center [&_input]:font-mono [&_input]:text-lg [&_input]:tracking-[0.3em]"
        autoFocus
        value={code}
        onChange={(event) => {
          setCode(backup ? event.target.value.toUpperCase() : event.target.value.replace(/\D/g, ""));
          setError(null);
        }}
        error={error ?? undefined}
        hint={
          backup
            ? t("auth.twoFactor.backupHint", { length: FIELD_LIMITS.backupCodeLength })
            : t("auth.twoFactor.authenticatorHint", { length: FIELD_LIMITS.totpCodeLength })
        }
      />
      <SubmitButton busy={isPending} label={t("auth.twoFactor.verify")} busyLabel={t("auth.twoFactor.verifying")} />
      <p className="text-center">
        <button type="button" onClick={switchMode} className={linkButtonClass}>
          {backup ? t("auth.twoFactor.useAuthenticator") : t("auth.twoFactor.useBackup")}
        </button>
      </p>
      {/* Spec §2: Cancel reloads the page, dropping the pending sign-in. */}
      <button type="button" onClick={() => window.location.reload()} className={secondaryButtonClass}>
        {t("auth.twoFactor.cancel")}
      </button>
    </form>
  );
}
