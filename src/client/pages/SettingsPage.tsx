/**
 * /settings: language and theme; password change, two-factor authentication (enrol with a QR
 * code or the secret, backup codes shown once, disable with a current code), the active sessions
 * and analytics; and deleting the account with all its data.
 */
import { BarChart3, Globe, KeyRound, LogOut, Monitor, Palette, ShieldCheck, Trash2, UserRound } from "lucide-react";
import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { newPasswordSchema } from "../../shared/auth-schemas";
import { PasswordField, TextField, primaryButtonClass, secondaryButtonClass } from "../components/auth/fields";
import { BackupCodes } from "../components/auth/BackupCodes";
import { PasswordStrengthMeter } from "../components/auth/PasswordStrengthMeter";
import { DeleteAccountSection } from "../components/info/DeleteAccount";
import { ChoiceGroup } from "../components/info/ChoiceGroup";
import { Switch } from "../components/ui/Switch";
import { linkClass } from "../components/ui/buttons";
import { useSession } from "../hooks/useSession";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import { chooseLanguage, currentLanguage } from "../i18n";
import { useTheme, type ThemePreference } from "../theme";
import { analytics, setAnalyticsEnabled, subscribeAnalyticsEnabled } from "../lib/analytics";
import { friendlyError } from "../lib/friendlyError";
import { translateMessage } from "../lib/validationMessages";
import { trpc } from "../trpc";

function Section({
  icon,
  title,
  description,
  children,
  tone = "normal",
  testId,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
  tone?: "normal" | "danger";
  testId?: string;
}) {
  return (
    <section
      className={`rounded-xl border bg-white p-5 shadow-sm sm:p-6 dark:bg-slate-900 ${tone === "danger" ? "border-red-200 dark:border-red-900/60" : "border-slate-200 dark:border-slate-800"}`}
      data-testid={testId}
    >
      <div className="flex items-start gap-3">
        <span
          className={`flex size-9 shrink-0 items-center justify-center rounded-full ${tone === "danger" ? "bg-red-100 text-red-700 dark:bg-red-950/60 dark:text-red-300" : "bg-brand-100 text-brand-700 dark:bg-brand-700/30 dark:text-brand-100"}`}
        >
          {icon}
        </span>
        <div>
          <h2 className="text-lg font-semibold">{title}</h2>
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">{description}</p>
        </div>
      </div>
      <div className="mt-5">{children}</div>
    </section>
  );
}

function PasswordSection() {
  const { t } = useTranslation();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [error, setError] = useState<string>();
  const change = trpc.account.changePassword.useMutation();
  const utils = trpc.useUtils();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(newPassword);
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]!.message, t));
      return;
    }
    setError(undefined);
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      setCurrentPassword("");
      setNewPassword("");
      toast.success(t("settings.password.changed"), { description: t("settings.password.changedDescription") });
      await utils.account.sessions.invalidate();
    } catch (caught) {
      toast.error(t("settings.password.failed"), { description: friendlyError(caught, t) });
    }
  };

  return (
    <form onSubmit={submit} className="grid max-w-md gap-4" noValidate>
      <PasswordField
        label={t("settings.password.current")}
        autoComplete="current-password"
        value={currentPassword}
        onChange={(e) => setCurrentPassword(e.target.value)}
      />
      <div>
        <PasswordField
          label={t("settings.password.new")}
          autoComplete="new-password"
          value={newPassword}
          error={error}
          onChange={(e) => setNewPassword(e.target.value)}
        />
        {newPassword ? <PasswordStrengthMeter password={newPassword} /> : null}
      </div>
      <button type="submit" className={`${primaryButtonClass} sm:w-auto`} disabled={change.isPending}>
        {t("settings.password.submit")}
      </button>
    </form>
  );
}

function TwoFactorSection({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const begin = trpc.twoFactor.beginEnrollment.useMutation();
  const confirm = trpc.twoFactor.confirmEnrollment.useMutation();
  const disable = trpc.twoFactor.disable.useMutation();
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string>();
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const enrollment = begin.data;
  // The password is asked again before setting up (an account made with Google may have none).
  const hasPassword = trpc.account.profile.useQuery(undefined, { staleTime: 60_000 }).data?.hasPassword ?? true;

  const onBegin = async (event: FormEvent) => {
    event.preventDefault();
    setPasswordError(undefined);
    try {
      await begin.mutateAsync({ password: hasPassword ? password : "" });
      setPassword("");
    } catch (caught) {
      setPasswordError(friendlyError(caught, t));
    }
  };

  const onConfirm = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const result = await confirm.mutateAsync({ code });
      setCode("");
      setBackupCodes(result.backupCodes);
      begin.reset();
      toast.success(t("toasts.twoFactorEnabled"), { description: t("toasts.twoFactorEnabledDescription") });
      await utils.auth.session.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const onDisable = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await disable.mutateAsync({ code });
      setCode("");
      toast.success(t("settings.twoFactor.disabled"));
      await utils.auth.session.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  if (backupCodes) {
    return (
      <div className="space-y-4" data-testid="backup-codes">
        <p className="text-sm font-medium">{t("settings.twoFactor.backupCodesIntro")}</p>
        <BackupCodes codes={backupCodes} />
        <button type="button" className={`${secondaryButtonClass} sm:w-auto`} onClick={() => setBackupCodes(null)}>
          {t("settings.twoFactor.backupCodesSaved")}
        </button>
      </div>
    );
  }

  const codeField = (
    <TextField
      label={t("settings.twoFactor.code")}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={code}
      onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
      className="max-w-[12rem]"
    />
  );

  if (enabled) {
    return (
      <form onSubmit={onDisable} className="space-y-4" noValidate>
        <p className="inline-flex items-center gap-2 rounded-full bg-emerald-100 px-3 py-1 text-sm font-medium text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-200">
          <ShieldCheck className="size-4" aria-hidden="true" />
          {t("settings.twoFactor.on")}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("settings.twoFactor.disableHint")}</p>
        {codeField}
        <button type="submit" className={`${secondaryButtonClass} sm:w-auto`} disabled={disable.isPending || code.length !== 6}>
          {t("settings.twoFactor.disable")}
        </button>
      </form>
    );
  }

  if (!enrollment) {
    return (
      <form onSubmit={onBegin} className="grid max-w-md gap-4" noValidate>
        {hasPassword ? (
          <PasswordField
            label={t("settings.twoFactor.password")}
            hint={t("settings.twoFactor.passwordHint")}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={passwordError}
          />
        ) : passwordError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {passwordError}
          </p>
        ) : null}
        <button type="submit" className={`${primaryButtonClass} sm:w-auto`} disabled={begin.isPending || (hasPassword && password === "")}>
          {t("settings.twoFactor.enable")}
        </button>
      </form>
    );
  }

  return (
    <form onSubmit={onConfirm} className="grid gap-5 sm:grid-cols-[auto_1fr]" noValidate>
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(enrollment.qrSvg)}`}
        alt={t("settings.twoFactor.qrAlt")}
        className="size-44 rounded-lg bg-white p-2"
      />
      <div className="space-y-4">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-300">
          <li>{t("settings.twoFactor.stepScan")}</li>
          <li>{t("settings.twoFactor.stepEnter")}</li>
        </ol>
        <div>
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("settings.twoFactor.secret")}</p>
          <code
            data-testid="totp-secret"
            className="mt-1 block break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm dark:bg-slate-800"
          >
            {enrollment.secret}
          </code>
        </div>
        {codeField}
        <button type="submit" className={`${primaryButtonClass} sm:w-auto`} disabled={confirm.isPending || code.length !== 6}>
          {t("settings.twoFactor.confirm")}
        </button>
      </div>
    </form>
  );
}

/** A short, readable name for a browser's user agent. */
function deviceName(userAgent: string | null, unknown: string): string {
  if (!userAgent) return unknown;
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Chrome\//.test(userAgent)
      ? "Chrome"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : null;
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return [browser, system].filter(Boolean).join(" · ") || unknown;
}

function SessionsSection() {
  const { t, i18n } = useTranslation();
  const utils = trpc.useUtils();
  const sessions = trpc.account.sessions.useQuery();
  const revoke = trpc.account.revokeSession.useMutation({ onSuccess: () => utils.account.sessions.invalidate() });
  const revokeOthers = trpc.account.signOutOtherSessions.useMutation({
    onSuccess: async ({ ended }) => {
      toast.success(t("settings.sessions.othersEnded", { count: ended }));
      await utils.account.sessions.invalidate();
    },
  });
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" });
  const others = (sessions.data ?? []).filter((session) => !session.current);

  return (
    <div className="space-y-4">
      <ul
        className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        data-testid="session-list"
      >
        {(sessions.data ?? []).map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="flex items-center gap-3">
              <Monitor className="size-5 text-slate-400" aria-hidden="true" />
              <div>
                <p className="text-sm font-medium">
                  {deviceName(session.userAgent, t("settings.sessions.unknownDevice"))}
                  {session.current ? (
                    <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
                      {t("settings.sessions.current")}
                    </span>
                  ) : null}
                </p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  {t("settings.sessions.lastActive", { when: format.format(session.lastActiveAt) })}
                  {session.ipAddress ? ` · ${session.ipAddress}` : ""}
                </p>
              </div>
            </div>
            {session.current ? null : (
              <button
                type="button"
                className="text-sm font-medium text-red-600 hover:underline dark:text-red-400"
                onClick={() => revoke.mutate({ id: session.id })}
              >
                {t("settings.sessions.signOut")}
              </button>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className={`${secondaryButtonClass} sm:w-auto`}
        disabled={others.length === 0 || revokeOthers.isPending}
        onClick={() => revokeOthers.mutate()}
      >
        <LogOut className="size-4" aria-hidden="true" />
        {t("settings.sessions.signOutOthers")}
      </button>
    </div>
  );
}

/** Analytics on this device (spec section 4): on by default; switching it back on sends what waits. */
function AnalyticsSection() {
  const { t } = useTranslation();
  const enabled = useSyncExternalStore(subscribeAnalyticsEnabled, () => analytics.isEnabled);
  const change = (next: boolean) => {
    setAnalyticsEnabled(next);
    toast.success(next ? t("settings.analytics.onToast") : t("settings.analytics.offToast"));
  };
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-4 rounded-lg bg-slate-50 px-4 py-3 dark:bg-slate-800/60">
        <span id="analytics-switch-label" className="text-sm font-medium">
          {t("settings.analytics.toggle")}
        </span>
        <Switch checked={enabled} onChange={change} labelledBy="analytics-switch-label" describedBy="analytics-switch-hint" />
      </div>
      <p id="analytics-switch-hint" className="text-sm text-slate-600 dark:text-slate-400">
        {t("settings.analytics.hint")}
      </p>
    </div>
  );
}

/** The interface language, as in the navigation bar's menu (stored on this device). */
function LanguageSection() {
  const { t } = useTranslation(); // re-renders when the language changes
  return (
    <ChoiceGroup<Language>
      name="language"
      label={t("settingsPage.languageTitle")}
      value={currentLanguage()}
      onChange={(language) => void chooseLanguage(language)}
      options={SUPPORTED_LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language], lang: language }))}
      testId="language-choice"
    />
  );
}

/** Light, dark, or the device's own setting. */
function ThemeSection() {
  const { t } = useTranslation();
  const { theme, preference, setPreference } = useTheme();
  return (
    <div className="space-y-2">
      <ChoiceGroup<ThemePreference>
        name="theme"
        label={t("settingsPage.themeTitle")}
        value={preference}
        onChange={setPreference}
        options={(["light", "dark", "system"] as const).map((value) => ({ value, label: t(`settingsPage.themes.${value}`) }))}
        testId="theme-choice"
      />
      {preference === "system" ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("settingsPage.themeSystemHint", { theme: t(`settingsPage.themes.${theme}`).toLocaleLowerCase() })}
        </p>
      ) : null}
    </div>
  );
}

export default function SettingsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6 sm:py-10">
      <header>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("pages.settings.title")}</h1>
        <p className="mt-1.5 text-slate-600 dark:text-slate-300">{t("settingsPage.intro")}</p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          <UserRound className="mr-1.5 inline size-4 align-[-0.2em]" aria-hidden="true" />
          {t("settingsPage.profileLink")}{" "}
          <Link href="/profile" className={linkClass}>
            {t("settingsPage.openProfile")}
          </Link>
        </p>
      </header>
      <Section
        icon={<Globe className="size-5" aria-hidden="true" />}
        title={t("settingsPage.languageTitle")}
        description={t("settingsPage.languageDescription")}
      >
        <LanguageSection />
      </Section>
      <Section
        icon={<Palette className="size-5" aria-hidden="true" />}
        title={t("settingsPage.themeTitle")}
        description={t("settingsPage.themeDescription")}
      >
        <ThemeSection />
      </Section>
      <Section
        icon={<KeyRound className="size-5" aria-hidden="true" />}
        title={t("settings.password.title")}
        description={t("settings.password.description")}
      >
        <PasswordSection />
      </Section>
      <Section
        icon={<ShieldCheck className="size-5" aria-hidden="true" />}
        title={t("settings.twoFactor.title")}
        description={t("settings.twoFactor.description")}
      >
        <TwoFactorSection enabled={user?.twoFactorEnabled ?? false} />
      </Section>
      <Section
        icon={<Monitor className="size-5" aria-hidden="true" />}
        title={t("settings.sessions.title")}
        description={t("settings.sessions.description")}
      >
        <SessionsSection />
      </Section>
      <Section
        icon={<BarChart3 className="size-5" aria-hidden="true" />}
        title={t("settings.analytics.title")}
        description={t("settings.analytics.description")}
      >
        <AnalyticsSection />
      </Section>
      <Section
        tone="danger"
        testId="delete-account"
        icon={<Trash2 className="size-5" aria-hidden="true" />}
        title={t("settingsPage.delete.title")}
        description={t("settingsPage.delete.description")}
      >
        <DeleteAccountSection />
      </Section>
    </div>
  );
}
