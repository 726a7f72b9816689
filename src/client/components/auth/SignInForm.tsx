/**
 * The sign-in form and flow of spec §4: 1) the lockout of the address is checked (a failed check
 * is only logged); 2) the form is validated, showing only the first error; 3) sign-in; 4) the
 * answer updates the lockout banners, or opens the two-factor view, or signs the user in.
 * Lockout and attempts are counted by the server; this only shows them.
 */
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { emailSchema, signInSchema } from "../../../shared/auth-schemas";
import { AUTH, STORAGE_KEYS } from "../../../shared/constants";
import { MESSAGES, messageName } from "../../../shared/messages";
import { useResendConfirmation } from "../../hooks/useResendConfirmation";
import { authEvents } from "../../lib/authEvents";
import type { Lockout, SignInResult } from "../../lib/authTypes";
import { firstFieldError, serverFieldErrors } from "../../lib/formErrors";
import { friendlyError } from "../../lib/friendlyError";
import { translateMessage } from "../../lib/validationMessages";
import { lockMinutes, sameEmail, showsAttemptsBanner } from "../../lib/lockout";
import { MINUTE_MS, SECOND_MS } from "../../lib/time";
import { trpc } from "../../trpc";
import { EmailField, linkButtonClass, PasswordField, SubmitButton } from "./fields";
import { AttemptsBanner, LockedBanner } from "./LockBanners";

/** How often the lock banner's minutes are recounted, and the form unblocked once the lock ends. */
const LOCK_CLOCK_TICK_MS = 15 * SECOND_MS;

function storedRememberMe(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEYS.rememberMe) === "true";
  } catch {
    return false;
  }
}

/** The device remembers the last choice (spec §3), so the box is ticked again next time. */
function storeRememberMe(rememberMe: boolean): void {
  try {
    if (rememberMe) localStorage.setItem(STORAGE_KEYS.rememberMe, "true");
    else localStorage.removeItem(STORAGE_KEYS.rememberMe);
  } catch {
    // Without storage the box simply starts unticked.
  }
}

/** Date.now(), refreshed every `everyMs` while `active`. */
function useClock(active: boolean, everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}

interface Lock {
  email: string;
  minutes: number;
  until: number;
}

interface Props {
  initialEmail: string;
  onTwoFactor(challengeToken: string): void;
  onForgotPassword(): void;
}

export function SignInForm({ initialEmail, onTwoFactor, onForgotPassword }: Props) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const { mutateAsync: signIn } = trpc.auth.signIn.useMutation();
  const { resend, isPending: resending } = useResendConfirmation();

  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(storedRememberMe);
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const [lock, setLock] = useState<Lock | null>(null);
  const [attempts, setAttempts] = useState<{ email: string; remaining: number } | null>(null);
  const [unconfirmedEmail, setUnconfirmedEmail] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Lockout belongs to an address: typing another one lifts the block and the banners.
  const now = useClock(lock !== null, LOCK_CLOCK_TICK_MS);
  const activeLock = lock && sameEmail(lock.email, email) && lock.until > now ? lock : null;
  const lockMinutesLeft = activeLock ? Math.min(activeLock.minutes, Math.max(1, Math.ceil((activeLock.until - now) / MINUTE_MS))) : 0;
  const attemptsLeft = attempts && sameEmail(attempts.email, email) ? attempts.remaining : null;

  function lockFor(address: string, minutesRemaining: number) {
    const minutes = lockMinutes(minutesRemaining);
    setLock({ email: address, minutes, until: Date.now() + minutes * MINUTE_MS });
    setAttempts(null);
  }

  function showLocked(address: string, lockout: Pick<Lockout, "minutesRemaining" | "message">) {
    lockFor(address, lockout.minutesRemaining);
    // The server's message when it is one the client can translate; else the same facts in the UI's language.
    const description = messageName(lockout.message)
      ? translateMessage(lockout.message, t)
      : t("auth.lock.toastDescription", { count: lockMinutes(lockout.minutesRemaining) });
    toast.error(t("toasts.accountLocked"), { description });
  }

  /** Step 1: the lockout of the address. Null when the check itself failed: only logged, sign-in goes on (spec §8). */
  async function checkLockout(address: string) {
    try {
      return await utils.client.auth.validateLogin.query({ email: address });
    } catch (failure) {
      console.warn("Lockout check failed; signing in anyway", failure);
      return null;
    }
  }

  function handleResult(address: string, result: SignInResult) {
    switch (result.status) {
      case "signed-in":
        storeRememberMe(rememberMe);
        // The page redirects once the new session arrives (see AuthPage).
        authEvents.emit({ type: "SIGNED_IN" });
        return;
      case "two-factor-required":
        storeRememberMe(rememberMe);
        onTwoFactor(result.challengeToken);
        return;
      case "invalid-credentials":
        if (result.lockout.isLocked) {
          showLocked(address, result.lockout);
          return;
        }
        setAttempts({ email: address, remaining: result.lockout.attemptsRemaining });
        toast.error(t("toasts.invalidCredentials"), { description: friendlyError(MESSAGES.invalidCredentials, t) });
        return;
      case "locked":
        showLocked(address, result.lockout);
        return;
      case "email-not-confirmed":
        setUnconfirmedEmail(address);
        toast.error(t("toasts.signInFailed"), { description: friendlyError(MESSAGES.emailNotConfirmed, t) });
        return;
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || activeLock) return;
    setError(null);
    setUnconfirmedEmail(null);
    setBusy(true);
    try {
      const address = emailSchema.safeParse(email);
      if (address.success) {
        const status = await checkLockout(address.data);
        if (status?.isLocked) {
          lockFor(address.data, status.minutesRemaining);
          return;
        }
        if (status) setAttempts({ email: address.data, remaining: status.attemptsRemaining });
      }

      const parsed = signInSchema.safeParse({ email, password, rememberMe });
      if (!parsed.success) {
        setError(firstFieldError(parsed.error));
        return;
      }

      try {
        handleResult(parsed.data.email, await signIn(parsed.data));
      } catch (failure) {
        const fields = serverFieldErrors(failure);
        const [field, message] = Object.entries(fields ?? {})[0] ?? [];
        if (field && message) setError({ field, message });
        else toast.error(t("toasts.signInFailed"), { description: friendlyError(failure, t) });
      }
    } finally {
      setBusy(false);
    }
  }

  const fieldError = (field: string) =>
    error && (error.field === field || (field === "email" && error.field !== "password")) ? translateMessage(error.message, t) : undefined;

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {activeLock ? (
        <LockedBanner minutes={lockMinutesLeft} />
      ) : attemptsLeft !== null && showsAttemptsBanner(attemptsLeft) ? (
        <AttemptsBanner remaining={attemptsLeft} />
      ) : null}

      <EmailField
        name="email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          if (error?.field !== "password") setError(null);
        }}
        error={fieldError("email")}
      />
      <PasswordField
        label={t("auth.password")}
        name="password"
        autoComplete="current-password"
        value={password}
        disabled={!!activeLock}
        onChange={(event) => {
          setPassword(event.target.value);
          if (error?.field === "password") setError(null);
        }}
        error={fieldError("password")}
      />

      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <input
            type="checkbox"
            name="rememberMe"
            checked={rememberMe}
            disabled={!!activeLock}
            onChange={(event) => setRememberMe(event.target.checked)}
            className="size-4 rounded border-slate-300 accent-brand-600 dark:border-slate-600"
          />
          {t("auth.rememberMe", { days: AUTH.rememberMeDays })}
        </label>
        <button type="button" onClick={onForgotPassword} className={linkButtonClass}>
          {t("auth.forgotPassword")}
        </button>
      </div>

      {unconfirmedEmail && sameEmail(unconfirmedEmail, email) ? (
        <div
          role="alert"
          className="space-y-2 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-100"
        >
          <p>{t("friendlyErrors.emailNotConfirmed")}</p>
          <button type="button" disabled={resending} onClick={() => void resend(unconfirmedEmail)} className={linkButtonClass}>
            {resending ? t("verifyBanner.sending") : t("auth.resendConfirmation")}
          </button>
        </div>
      ) : null}

      <SubmitButton busy={busy} disabled={!!activeLock} label={t("auth.signInButton")} busyLabel={t("auth.signingIn")} />
    </form>
  );
}
