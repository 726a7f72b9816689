/**
 * /profile (signed in): the full name (editable, checked with the spec's rules and messages),
 * e-mail, credits, member since, and the user's render statistics (account.profile).
 */
import {
  CalendarDays,
  CheckCircle2,
  FolderOpen,
  HardDrive,
  ImageIcon,
  Mail,
  Settings,
  Sparkles,
  TriangleAlert,
  Wand2,
  XCircle,
} from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { fullNameSchema } from "../../shared/auth-schemas";
import { DESIGN_STYLES, type DesignStyle } from "../../shared/styles";
import { TextField } from "../components/auth/fields";
import { FigureCard } from "../components/info/common";
import { PageShell } from "../components/render/PageShell";
import { PaletteSwatch, StyleSwatch } from "../components/render/StyleSwatch";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass, linkClass } from "../components/ui/buttons";
import { authEvents } from "../lib/authEvents";
import { friendlyError } from "../lib/friendlyError";
import { translateMessage } from "../lib/validationMessages";
import { trpc } from "../trpc";
import { Pill } from "../components/ui/Pill";
import { styleLabel } from "../lib/styleNames";

const isStyle = (style: string): style is DesignStyle => (DESIGN_STYLES as readonly string[]).includes(style);

function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s@.]+/)
    .filter(Boolean);
  return (words.length > 1 ? `${words[0]![0]}${words[words.length - 1]![0]}` : (words[0] ?? "?").slice(0, 2)).toUpperCase();
}

function NameForm({ current }: { current: string }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const update = trpc.account.updateProfile.useMutation();
  const [name, setName] = useState(current);
  const [error, setError] = useState<string>();
  useEffect(() => setName(current), [current]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = fullNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]!.message, t));
      return;
    }
    setError(undefined);
    try {
      await update.mutateAsync({ fullName: parsed.data });
      setName(parsed.data);
      toast.success(t("profilePage.saved"));
      await utils.account.profile.invalidate();
      authEvents.emit({ type: "USER_UPDATED" });
    } catch (caught) {
      setError(friendlyError(caught, t));
      toast.error(t("profilePage.saveFailed"), { description: friendlyError(caught, t) });
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start" data-testid="name-form">
      <TextField
        label={t("profilePage.nameLabel")}
        autoComplete="name"
        maxLength={200}
        value={name}
        error={error}
        onChange={(event) => setName(event.target.value)}
        className="min-w-0 flex-1"
      />
      <button
        type="submit"
        className={`${buttonClass.primary} sm:mt-[1.625rem]`}
        disabled={update.isPending || name.trim() === current}
        aria-busy={update.isPending || undefined}
      >
        {update.isPending ? t("profilePage.saving") : t("profilePage.save")}
      </button>
    </form>
  );
}

export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const profile = trpc.account.profile.useQuery(undefined, { staleTime: 0 });
  const data = profile.data;
  const number = new Intl.NumberFormat(language);

  return (
    <PageShell
      title={t("pages.profile.title")}
      intro={t("profilePage.intro")}
      actions={
        <Link href="/settings" className={buttonClass.secondary}>
          <Settings className="size-4" aria-hidden="true" />
          {t("profilePage.openSettings")}
        </Link>
      }
    >
      {profile.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {profile.error ? (
        <p role="alert" className="text-slate-600 dark:text-slate-300">
          {friendlyError(profile.error, t)}
        </p>
      ) : null}
      {data ? (
        <>
          <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="profile-name-heading">
            <div className="flex items-start gap-4">
              <span
                className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white"
                aria-hidden="true"
              >
                {initials(data.fullName)}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-xl font-bold" data-testid="profile-full-name">
                  {data.fullName}
                </p>
                <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
                  <Mail className="size-4 shrink-0" aria-hidden="true" />
                  <span className="sr-only">{t("profilePage.email")}: </span>
                  <span className="break-all" data-testid="profile-email">
                    {data.email}
                  </span>
                  {data.emailConfirmed ? (
                    <Pill tone="emerald" icon={CheckCircle2}>
                      {t("profilePage.emailConfirmed")}
                    </Pill>
                  ) : (
                    <Pill tone="amber" icon={TriangleAlert}>
                      {t("profilePage.emailNotConfirmed")}
                    </Pill>
                  )}
                </p>
                <p className="mt-1 flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400" data-testid="profile-member-since">
                  <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
                  {t("profilePage.memberSince", {
                    date: new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(data.memberSince),
                  })}
                </p>
              </div>
            </div>
            <div className="mt-6 border-t border-slate-200 pt-5 dark:border-slate-800">
              <h2 id="profile-name-heading" className="font-semibold">
                {t("profilePage.nameTitle")}
              </h2>
              <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t("profilePage.nameDescription")}</p>
              <NameForm current={data.fullName} />
            </div>
          </section>

          <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2">
            <FigureCard
              testId="profile-credits"
              icon={<Sparkles className="text-accent-500" />}
              label={t("profilePage.credits")}
              value={number.format(data.credits)}
              hint={
                <Link href="/pricing" className={linkClass}>
                  {t("flow.buyCredits")}
                </Link>
              }
            />
            <FigureCard
              testId="profile-projects"
              icon={<FolderOpen />}
              label={t("profilePage.projects")}
              value={number.format(data.projects)}
              hint={
                <Link href="/dashboard" className={linkClass}>
                  {t("profilePage.openDashboard")}
                </Link>
              }
            />
            <div className="min-[420px]:col-span-2">
              <StorageCard />
            </div>
          </div>

          <section className="space-y-3" aria-labelledby="profile-renders-heading">
            <h2 id="profile-renders-heading" className="text-xl font-bold">
              {t("profilePage.rendersTitle")}
            </h2>
            <div className="grid grid-cols-3 gap-2 sm:gap-3">
              <FigureCard
                testId="profile-renders-total"
                icon={<ImageIcon />}
                label={t("profilePage.total")}
                value={number.format(data.renders.total)}
              />
              <FigureCard
                testId="profile-renders-succeeded"
                icon={<CheckCircle2 className="text-emerald-600" />}
                label={t("profilePage.succeeded")}
                value={number.format(data.renders.succeeded)}
              />
              <FigureCard
                testId="profile-renders-failed"
                icon={<XCircle className="text-red-600" />}
                label={t("profilePage.failed")}
                value={number.format(data.renders.failed)}
              />
            </div>
            <p className="text-xs text-slate-500 dark:text-slate-400">{t("profilePage.failedHint")}</p>
          </section>

          <section className={`${cardClass} p-5 sm:p-6`} aria-labelledby="profile-styles-heading">
            <h2 id="profile-styles-heading" className="text-lg font-semibold">
              {t("profilePage.favouritesTitle")}
            </h2>
            {data.favouriteStyles.length === 0 ? (
              <div className="mt-3 space-y-3">
                <p className="text-sm text-slate-600 dark:text-slate-400">{t("profilePage.favouritesEmpty")}</p>
                <Link href="/upload" className={buttonClass.primary}>
                  <Wand2 className="size-4" aria-hidden="true" />
                  {t("profilePage.startRender")}
                </Link>
              </div>
            ) : (
              <ol className="mt-4 space-y-3" data-testid="profile-favourite-styles">
                {data.favouriteStyles.map(({ style, count, styleName, palette }) => {
                  const top = data.favouriteStyles[0]!.count;
                  return (
                    <li key={style} className="flex items-center gap-3" data-testid="favourite-style">
                      {isStyle(style) ? (
                        <StyleSwatch style={style} className="w-16 shrink-0 overflow-hidden rounded-md sm:w-20" />
                      ) : palette ? (
                        <PaletteSwatch palette={palette} className="w-16 shrink-0 overflow-hidden rounded-md sm:w-20" />
                      ) : null}
                      <div className="min-w-0 flex-1">
                        <div className="flex items-baseline justify-between gap-2">
                          <p className="truncate font-semibold">{styleLabel(t, style, styleName)}</p>
                          <p className="shrink-0 text-sm tabular-nums text-slate-500 dark:text-slate-400">
                            {t("profilePage.styleRenders", { count })}
                          </p>
                        </div>
                        <div className="mt-1.5 h-2 rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
                          <div
                            className="h-2 rounded-full bg-brand-600 dark:bg-brand-500"
                            style={{ width: `${Math.max(6, Math.round((count / top) * 100))}%` }}
                          />
                        </div>
                      </div>
                    </li>
                  );
                })}
              </ol>
            )}
          </section>
        </>
      ) : null}
    </PageShell>
  );
}

/** "85 kB", "340 MB", "1.2 GB": binary units, as the quota is set (USER_STORAGE_QUOTA_MB). */
function formatStorage(bytes: number, language: string): string {
  const [value, unit] =
    bytes >= 1024 ** 3
      ? [bytes / 1024 ** 3, "gigabyte"]
      : bytes >= 1024 ** 2
        ? [bytes / 1024 ** 2, "megabyte"]
        : [bytes / 1024, "kilobyte"];
  return new Intl.NumberFormat(language, { style: "unit", unit, maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}

/** What the account's photos and renders take on the server, against its quota when there is one. */
function StorageCard() {
  const { t, i18n } = useTranslation();
  const storage = trpc.render.storage.useQuery();
  if (!storage.data) return null;
  const { usedBytes, quotaBytes } = storage.data;
  const used = formatStorage(usedBytes, i18n.language);
  const percent = quotaBytes ? Math.min(100, Math.round((usedBytes / quotaBytes) * 100)) : null;
  return (
    <FigureCard
      testId="profile-storage"
      icon={<HardDrive />}
      label={t("profilePage.storage")}
      value={used}
      hint={
        quotaBytes !== null && percent !== null ? (
          <>
            <span>{t("profilePage.storageOf", { quota: formatStorage(quotaBytes, i18n.language), percent })}</span>
            <span
              role="progressbar"
              aria-label={t("profilePage.storage")}
              aria-valuenow={percent}
              aria-valuemin={0}
              aria-valuemax={100}
              className="mt-2 block h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
            >
              <span
                className={`block h-full rounded-full ${percent >= 90 ? "bg-amber-500" : "bg-brand-600 dark:bg-brand-500"}`}
                style={{ width: `${percent}%` }}
              />
            </span>
          </>
        ) : (
          t("profilePage.storageNoQuota")
        )
      }
    />
  );
}
