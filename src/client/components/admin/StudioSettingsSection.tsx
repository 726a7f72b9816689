/**
 * Admin · Studio (issue 16): the studio's brand (name, logo, accent colour checked against WCAG AA
 * in both themes, support address, terms and privacy texts), free credits, the render engines
 * (EnginePanel) and the engines per task (EngineRoutesPanel). Saved settings
 * apply at once, without a restart; a setting the environment holds shows "set by the environment"
 * and cannot be changed here. Every save is audited on the server.
 */
import { CheckCircle2, ImageUp, Trash2, XCircle } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { accentContrast, type PublicStudio } from "../../../shared/studio";
import { brandInputSchema, freeCreditsInputSchema } from "../../../shared/studio-settings";
import { formatDecimal, labelled } from "../../lib/format";
import { friendlyError } from "../../lib/friendlyError";
import { formatNumber } from "../../lib/numbers";
import { currentStudio, replaceStudio } from "../../lib/studio";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { Spinner } from "../Spinner";
import { buttonClass, labelClass } from "../ui/buttons";
import { ErrorNote, Field, Panel } from "./common";
import { EnginePanel } from "./EnginePanel";
import { EngineRoutesPanel } from "./EngineRoutesPanel";
import { PaintSettingsPanel } from "./PaintSettingsPanel";

type RouterOutput = inferRouterOutputs<AppRouter>;
type Settings = RouterOutput["admin"]["studioSettings"];

export function StudioSettingsSection() {
  const { t } = useTranslation();
  const settings = trpc.admin.studioSettings.useQuery(undefined, { staleTime: 0 });
  if (settings.isLoading) return <Spinner label={t("common.loading")} />;
  if (settings.error || !settings.data) return <ErrorNote>{friendlyError(settings.error, t)}</ErrorNote>;
  return (
    <div className="space-y-6">
      <BrandPanel settings={settings.data} />
      <FreeCreditsPanel settings={settings.data} />
      <EnginePanel settings={settings.data} />
      <EngineRoutesPanel settings={settings.data} />
      <PaintSettingsPanel />
    </div>
  );
}

function BrandPanel({ settings }: { settings: Settings }) {
  const { t, i18n } = useTranslation();
  const utils = trpc.useUtils();
  const save = trpc.admin.updateStudioBrand.useMutation();
  const setLogo = trpc.admin.setStudioLogo.useMutation();
  const removeLogo = trpc.admin.removeStudioLogo.useMutation();
  const { brand } = settings;
  const [form, setForm] = useState({
    name: brand.name,
    supportEmail: brand.supportEmail,
    accentColor: brand.accentColor,
    termsText: brand.termsText,
    privacyText: brand.privacyText,
  });
  const [error, setError] = useState<string | null>(null);
  const ids = { name: useId(), email: useId(), accent: useId(), accentText: useId(), terms: useId(), privacy: useId(), logo: useId() };
  const validColour = /^#[0-9a-fA-F]{6}$/.test(form.accentColor);
  const contrast = validColour ? accentContrast(form.accentColor.toLowerCase()) : null;

  /** This tab shows the new brand at once; other visitors get it with their next page. */
  const show = (next: Settings["brand"]) =>
    replaceStudio({
      ...currentStudio(),
      name: next.name,
      supportEmail: next.supportEmail,
      accentColor: next.accentColor,
      logo: next.logo,
      hasTerms: next.termsText !== "",
      hasPrivacy: next.privacyText !== "",
    } satisfies PublicStudio);

  const submit = async () => {
    const parsed = brandInputSchema.safeParse(form);
    if (!parsed.success) return setError(friendlyError(parsed.error.issues[0]!, t));
    setError(null);
    try {
      const saved = await save.mutateAsync(parsed.data);
      show(saved);
      toast.success(t("admin.studio.brandSaved"));
      await utils.admin.studioSettings.invalidate();
    } catch (failure) {
      setError(friendlyError(failure, t));
    }
  };

  const uploadLogo = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error ?? new Error("unreadable file"));
      reader.readAsDataURL(file);
    });
    try {
      const saved = await setLogo.mutateAsync({ dataUrl });
      show(saved);
      toast.success(t("admin.studio.logoSaved"));
      await utils.admin.studioSettings.invalidate();
    } catch (failure) {
      setError(friendlyError(failure, t));
    }
  };

  const dropLogo = async () => {
    try {
      const saved = await removeLogo.mutateAsync();
      show(saved);
      toast.success(t("admin.studio.logoRemoved"));
      await utils.admin.studioSettings.invalidate();
    } catch (failure) {
      setError(friendlyError(failure, t));
    }
  };

  return (
    <Panel title={t("admin.studio.brandTitle")} description={t("admin.studio.brandDescription")} testId="admin-studio-brand">
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={ids.name} label={t("admin.studio.name")} fromEnvironment={brand.setByEnvironment.name}>
            <input
              id={ids.name}
              className={inputClass}
              value={form.name}
              disabled={brand.setByEnvironment.name}
              onChange={(event) => setForm({ ...form, name: event.target.value })}
              autoComplete="organization"
            />
          </Field>
          <Field id={ids.email} label={t("admin.studio.supportEmail")} fromEnvironment={brand.setByEnvironment.supportEmail}>
            <input
              id={ids.email}
              type="email"
              className={inputClass}
              value={form.supportEmail}
              disabled={brand.setByEnvironment.supportEmail}
              onChange={(event) => setForm({ ...form, supportEmail: event.target.value })}
              autoComplete="email"
            />
          </Field>
        </div>

        <div>
          <p className={labelClass} id={`${ids.logo}-label`}>
            {t("admin.studio.logo")}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <span className="flex size-16 items-center justify-center rounded-lg border border-slate-200 bg-white p-1 dark:border-slate-700">
              {brand.logo ? (
                <img
                  src={brand.logo.url}
                  alt={t("admin.studio.logoAlt")}
                  className="max-h-full max-w-full object-contain"
                  data-testid="admin-studio-logo"
                />
              ) : (
                <span className="text-xs text-slate-500 dark:text-slate-400">{t("admin.studio.noLogo")}</span>
              )}
            </span>
            <label htmlFor={ids.logo} className={`${buttonClass.secondary} cursor-pointer py-2`}>
              <ImageUp className="size-4" aria-hidden="true" />
              {brand.logo ? t("admin.studio.replaceLogo") : t("admin.studio.chooseLogo")}
            </label>
            <input
              id={ids.logo}
              type="file"
              accept="image/png,image/jpeg"
              className="sr-only"
              aria-describedby={`${ids.logo}-hint`}
              data-testid="admin-studio-logo-input"
              onChange={(event) => {
                void uploadLogo(event.target.files?.[0]);
                event.target.value = "";
              }}
            />
            {brand.logo ? (
              <button type="button" className={buttonClass.ghost} onClick={() => void dropLogo()} disabled={removeLogo.isPending}>
                <Trash2 className="size-4" aria-hidden="true" />
                {t("admin.studio.removeLogo")}
              </button>
            ) : null}
            {setLogo.isPending ? <Spinner label={t("admin.studio.logoUploading")} /> : null}
          </div>
          <p id={`${ids.logo}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t("admin.studio.logoHint")}
          </p>
        </div>

        <div>
          <label htmlFor={ids.accentText} className={labelClass}>
            {t("admin.studio.accent")}
          </label>
          <div className="flex flex-wrap items-center gap-3">
            <input
              id={ids.accent}
              type="color"
              aria-label={t("admin.studio.accentPicker")}
              className="h-10 w-14 cursor-pointer rounded-md border border-slate-300 bg-white p-1 dark:border-slate-600 dark:bg-slate-900"
              value={validColour ? form.accentColor.toLowerCase() : "#000000"}
              onChange={(event) => setForm({ ...form, accentColor: event.target.value })}
            />
            <input
              id={ids.accentText}
              className={`${inputClass} w-32 font-mono`}
              value={form.accentColor}
              onChange={(event) => setForm({ ...form, accentColor: event.target.value.trim() })}
              aria-invalid={contrast ? !contrast.ok : true}
              aria-describedby={`${ids.accent}-checks`}
              spellCheck={false}
              autoComplete="off"
            />
            <span className="flex gap-1" aria-hidden="true">
              <span
                className="rounded-md px-3 py-1.5 text-sm font-semibold text-white"
                style={{ background: validColour ? form.accentColor : undefined }}
              >
                Aa
              </span>
            </span>
          </div>
          <ul id={`${ids.accent}-checks`} className="mt-2 grid gap-1 text-sm sm:grid-cols-2" data-testid="admin-studio-contrast">
            {contrast ? (
              contrast.checks.map((check) => (
                <li key={`${check.theme}-${check.pair}`} className="flex items-center gap-1.5">
                  {check.ok ? (
                    <CheckCircle2 className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
                  ) : (
                    <XCircle className="size-4 shrink-0 text-red-600 dark:text-red-400" aria-hidden="true" />
                  )}
                  <span>
                    {labelled(
                      `${t(`admin.studio.contrast.${check.theme}`)} · ${t(`admin.studio.contrast.${check.pair}`)}`,
                      t("admin.studio.contrast.ratio", {
                        ratio: formatDecimal(check.ratio, 2, i18n.language),
                        needs: formatNumber(i18n.language, check.needs, 1),
                      }),
                      i18n.language,
                    )}{" "}
                    <span className="sr-only">{check.ok ? t("admin.studio.contrast.passes") : t("admin.studio.contrast.fails")}</span>
                  </span>
                </li>
              ))
            ) : (
              <li className="text-red-700 dark:text-red-300">{t("serverMessages.accentColorInvalid")}</li>
            )}
          </ul>
        </div>

        <div className="grid gap-4 lg:grid-cols-2">
          <Field id={ids.terms} label={t("admin.studio.termsText")} hint={t("admin.studio.legalHint")}>
            <textarea
              id={ids.terms}
              className={`${inputClass} min-h-32`}
              value={form.termsText}
              onChange={(event) => setForm({ ...form, termsText: event.target.value })}
            />
          </Field>
          <Field id={ids.privacy} label={t("admin.studio.privacyText")} hint={t("admin.studio.legalHint")}>
            <textarea
              id={ids.privacy}
              className={`${inputClass} min-h-32`}
              value={form.privacyText}
              onChange={(event) => setForm({ ...form, privacyText: event.target.value })}
            />
          </Field>
        </div>

        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t("admin.studio.saveBrand")}
        </button>
      </form>
    </Panel>
  );
}

function FreeCreditsPanel({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const save = trpc.admin.updateFreeCredits.useMutation();
  const { freeCredits } = settings;
  const [form, setForm] = useState({
    signUpCredits: String(freeCredits.signUpCredits),
    demoRendersPerAddressPerDay: String(freeCredits.demoRendersPerAddressPerDay),
  });
  const [error, setError] = useState<string | null>(null);
  const ids = { signUp: useId(), demo: useId() };
  const submit = async () => {
    const parsed = freeCreditsInputSchema.safeParse({
      signUpCredits: form.signUpCredits === "" ? Number.NaN : Number(form.signUpCredits),
      demoRendersPerAddressPerDay: form.demoRendersPerAddressPerDay === "" ? Number.NaN : Number(form.demoRendersPerAddressPerDay),
    });
    if (!parsed.success) return setError(friendlyError(parsed.error.issues[0]!, t));
    setError(null);
    try {
      const saved = await save.mutateAsync(parsed.data);
      replaceStudio({ ...currentStudio(), signUpCredits: saved.signUpCredits });
      toast.success(t("admin.studio.freeCreditsSaved"));
      await utils.admin.studioSettings.invalidate();
    } catch (failure) {
      setError(friendlyError(failure, t));
    }
  };
  return (
    <Panel
      title={t("admin.studio.freeCreditsTitle")}
      description={t("admin.studio.freeCreditsDescription")}
      testId="admin-studio-free-credits"
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          {(
            [
              { field: "signUpCredits", id: ids.signUp, label: "admin.studio.signUpCredits", hint: "admin.studio.signUpCreditsHint" },
              {
                field: "demoRendersPerAddressPerDay",
                id: ids.demo,
                label: "admin.studio.demoRenders",
                hint: "admin.studio.demoRendersHint",
              },
            ] as const
          ).map(({ field, id, label, hint }) => (
            <Field key={field} id={id} label={t(label)} fromEnvironment={freeCredits.setByEnvironment[field]} hint={t(hint)}>
              <input
                id={id}
                className={inputClass}
                inputMode="numeric"
                value={form[field]}
                disabled={freeCredits.setByEnvironment[field]}
                onChange={(event) => setForm({ ...form, [field]: event.target.value.replace(/[^\d]/g, "") })}
                autoComplete="off"
              />
            </Field>
          ))}
        </div>
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t("admin.studio.saveFreeCredits")}
        </button>
      </form>
    </Panel>
  );
}
