/**
 * The "set a new password" view, opened by the reset e-mail's link (/auth?reset=true&token=…).
 * The new password follows the sign-up rules (spec §5), with the strength meter. The link's state
 * is asked first (without using it up): a used, expired or unknown link says so at once, with a
 * button to request a new one, instead of failing only after the form is filled in.
 */
import { Clock, LinkIcon, MailCheck } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { newPasswordSchema } from "../../../shared/auth-schemas";
import { serverFieldErrors } from "../../lib/formErrors";
import { MESSAGES } from "../../../shared/messages";
import { errorMessage, friendlyError } from "../../lib/friendlyError";
import { translateMessage } from "../../lib/validationMessages";
import { trpc } from "../../trpc";
import { linkButtonClass, PasswordField, primaryButtonClass, SubmitButton } from "./fields";
import { PasswordStrengthMeter } from "./PasswordStrengthMeter";

interface Props {
  token: string;
  onDone(): void;
  onRequestNewLink(): void;
}

/** Longer than the server takes: no need to ask. */
const MAX_TOKEN_LENGTH = 200;

type LinkProblem = "used" | "expired" | "unknown";

const PROBLEM_ICONS = { used: MailCheck, expired: Clock, unknown: LinkIcon } as const;

function ResetLinkProblem({ problem, onRequestNewLink }: { problem: LinkProblem; onRequestNewLink(): void }) {
  const { t } = useTranslation();
  const Icon = PROBLEM_ICONS[problem];
  return (
    <div className="space-y-4" data-testid="reset-link-problem" data-state={problem}>
      <div
        role="alert"
        className="flex gap-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
      >
        <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-semibold">{t(`flows.resetLink.${problem}Title`)}</p>
          <p className="mt-0.5">{t(`flows.resetLink.${problem}Body`)}</p>
        </div>
      </div>
      <button type="button" className={primaryButtonClass} onClick={onRequestNewLink}>
        {t("auth.reset.requestNewLink")}
      </button>
    </div>
  );
}

export function ResetPasswordForm({ token, onDone, onRequestNewLink }: Props) {
  const { t } = useTranslation();
  const askable = token.length <= MAX_TOKEN_LENGTH;
  // Asked once per link; the server still checks everything when the form is sent. When the
  // question itself fails (network, rate limit), the form shows as before.
  const linkState = trpc.auth.resetLinkState.useQuery(
    { token },
    { enabled: askable, retry: false, staleTime: Infinity, refetchOnWindowFocus: false, refetchOnReconnect: false },
  );
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
      // The link went bad while the form was open (used in another tab, expired): say which way.
      if (errorMessage(failure) === MESSAGES.resetLinkInvalid && askable) {
        const { data } = await linkState.refetch();
        if (data && data.state !== "valid") return;
      }
      const field = serverFieldErrors(failure)?.password;
      if (field) setErrors({ password: translateMessage(field, t) });
      else toast.error(t("toasts.resetFailed"), { description: friendlyError(failure, t) });
    }
  }

  const problem: LinkProblem | null = !askable
    ? "unknown"
    : linkState.data && linkState.data.state !== "valid"
      ? linkState.data.state
      : null;
  if (problem) return <ResetLinkProblem problem={problem} onRequestNewLink={onRequestNewLink} />;
  if (askable && linkState.isPending) {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-6 text-sm text-slate-500 dark:text-slate-400">
        <span className="size-5 animate-spin rounded-full border-2 border-brand-500 border-t-transparent" aria-hidden="true" />
        {t("flows.resetLink.checking")}
      </p>
    );
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
