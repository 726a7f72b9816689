/**
 * /pricing (public): the credit packages with their prices in the interface language, the price
 * per credit and the licence; the licensing rules (spec section 6) and the credit rules (section
 * 9). Buy starts a Stripe Checkout; a visitor is sent to sign in first; when this server has no
 * payment key, the page says so instead of offering a button that cannot work.
 */
import { BadgeCheck, Briefcase, Check, CreditCard, Gift, Home, Info, RotateCcw, ShieldCheck, Sparkles, Timer } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation, useSearch } from "wouter";
import { CREDITS, STORAGE_KEYS } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { Callout, SIGN_UP_HREF } from "../components/render/Callouts";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass } from "../components/ui/buttons";
import { useSession } from "../hooks/useSession";
import { track } from "../lib/analytics";
import { errorMessage, friendlyError } from "../lib/friendlyError";
import { formatMoney } from "../lib/format";
import { trpc } from "../trpc";
import { Pill } from "../components/ui/Pill";
import { currentStudio } from "../lib/studio";

type Licence = "personal" | "commercial";

function LicenceBadge({ licence }: { licence: Licence }) {
  const { t } = useTranslation();
  return licence === "commercial" ? (
    <Pill tone="emerald" icon={Briefcase}>
      {t("pricing.licence.commercial")}
    </Pill>
  ) : (
    <Pill tone="slate" icon={Home}>
      {t("pricing.licence.personal")}
    </Pill>
  );
}

export default function PricingPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const { user } = useSession();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const packages = trpc.billing.packages.useQuery();
  const purchase = trpc.billing.purchaseCredits.useMutation();
  const [buying, setBuying] = useState<string | null>(null);

  // Back from Stripe Checkout without paying.
  useEffect(() => {
    if (new URLSearchParams(search).get("purchase") !== "canceled") return;
    toast.info(t("pricing.canceledToast"), { description: t("pricing.canceledToastBody") });
    navigate(location, { replace: true });
  }, [search, location, navigate, t]);

  const signInFirst = () => {
    try {
      sessionStorage.setItem(STORAGE_KEYS.returnTo, "/pricing");
    } catch {
      // The user then lands on the dashboard after signing in.
    }
    navigate("/auth");
  };

  const buy = async (id: string) => {
    if (!user) return signInFirst();
    setBuying(id);
    track({ category: "conversion", action: "purchase_started", label: id });
    try {
      const { url } = await purchase.mutateAsync({ creditPackage: id });
      window.location.assign(url);
    } catch (caught) {
      setBuying(null);
      const message = errorMessage(caught);
      track({ category: "payment", action: "checkout_failed", label: message });
      if (message === MESSAGES.notAuthenticated) return signInFirst();
      if (message === MESSAGES.stripeNotConfigured) {
        toast.error(t("pricing.notConfiguredTitle"), { description: t("pricing.notConfiguredBody") });
        await packages.refetch();
        return;
      }
      toast.error(t("pricing.checkoutFailed"), { description: friendlyError(caught, t) });
    }
  };

  const data = packages.data;
  const refundDays = data?.refundWindowDays ?? CREDITS.refundWindowDays;

  return (
    <PageShell title={t("pages.pricing.title")} intro={t("pricing.intro")} wide>
      {packages.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {packages.error ? (
        <p role="alert" className="text-slate-600 dark:text-slate-300">
          {friendlyError(packages.error, t)}
        </p>
      ) : null}

      {data && !data.purchasesEnabled ? (
        <Callout
          tone="amber"
          icon={<Info className="size-5" aria-hidden="true" />}
          title={t("pricing.notConfiguredTitle")}
          testId="purchases-disabled"
        >
          {t("pricing.notConfiguredBody")}
        </Callout>
      ) : null}

      {data ? (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="packages">
          <li className={`${cardClass} flex flex-col p-5`} data-testid="package-free">
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-lg font-bold">{t("pricing.free.name")}</h2>
              <LicenceBadge licence="personal" />
            </div>
            <p className="mt-3 text-3xl font-bold tabular-nums">{formatMoney(0, data.packages[0]?.currency ?? "usd", language, 0)}</p>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {t("pricing.free.credits", { count: currentStudio().signUpCredits })}
            </p>
            <ul className="mt-4 flex-1 space-y-2 text-sm">
              <li className="flex gap-2">
                <Gift className="mt-0.5 size-4 shrink-0 text-accent-500" aria-hidden="true" />
                {t("pricing.free.demo")}
              </li>
              <li className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                {t("pricing.free.projects")}
              </li>
            </ul>
            {user ? (
              <Link href="/upload" className={`${buttonClass.secondary} mt-5`}>
                {t("pricing.free.startRender")}
              </Link>
            ) : (
              <Link href={SIGN_UP_HREF} className={`${buttonClass.secondary} mt-5`}>
                {t("pricing.free.signUp")}
              </Link>
            )}
          </li>
          {data.packages.map((pack) => {
            // The admin's name for it, else the shipped package's translated name.
            const packageName = (named: { id: string; name?: string | null }) =>
              named.name ?? t(`pricing.packages.${named.id}`, { defaultValue: named.id });
            // Only what sales say (the server counts them); nothing is "most popular" by decree.
            const featured = pack.id === data.popularId;
            return (
              <li
                key={pack.id}
                className={`${cardClass} relative flex flex-col p-5 ${featured ? "ring-2 ring-brand-600 dark:ring-brand-500" : ""}`}
                data-testid={`package-${pack.id}`}
              >
                {featured ? (
                  <span className="absolute -top-3 left-5 rounded-full bg-brand-600 px-2.5 py-0.5 text-xs font-semibold text-white">
                    {t("pricing.popular")}
                  </span>
                ) : null}
                <div className="flex items-center justify-between gap-2">
                  <h2 className="min-w-0 break-words text-lg font-bold">{packageName(pack)}</h2>
                  <LicenceBadge licence={pack.licence} />
                </div>
                <p className="mt-3 text-3xl font-bold tabular-nums" data-testid="package-price">
                  {formatMoney(pack.priceCents, pack.currency, language)}
                </p>
                <p className="text-sm text-slate-600 dark:text-slate-300">
                  {t("pricing.credits", { count: pack.credits, formatted: new Intl.NumberFormat(language).format(pack.credits) })}
                </p>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="package-per-credit">
                  {t("pricing.perCredit", { price: formatMoney(pack.priceCents / pack.credits, pack.currency, language, 2) })}
                </p>
                <ul className="mt-4 flex-1 space-y-2 text-sm">
                  <li className="flex gap-2">
                    <Sparkles className="mt-0.5 size-4 shrink-0 text-accent-500" aria-hidden="true" />
                    {t("pricing.rendersIncluded", { count: pack.credits / CREDITS.perRender })}
                  </li>
                  <li className="flex gap-2">
                    <BadgeCheck className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                    {pack.licence === "commercial" ? t("pricing.commercialUse") : t("pricing.personalUse")}
                  </li>
                </ul>
                {data.purchasesEnabled ? (
                  <button
                    type="button"
                    className={`${featured ? buttonClass.primary : buttonClass.secondary} mt-5`}
                    disabled={buying !== null}
                    aria-busy={buying === pack.id || undefined}
                    onClick={() => void buy(pack.id)}
                  >
                    <CreditCard className="size-4" aria-hidden="true" />
                    {buying === pack.id
                      ? t("pricing.redirecting")
                      : user
                        ? t("pricing.buy", { name: packageName(pack) })
                        : t("pricing.signInToBuy")}
                  </button>
                ) : (
                  <p className="mt-5 rounded-md bg-slate-100 px-3 py-2 text-center text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                    {t("pricing.notAvailable")}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <section className={`${cardClass} p-5`} aria-labelledby="licensing-heading" data-testid="licensing">
          <h2 id="licensing-heading" className="flex items-center gap-2 text-lg font-semibold">
            <ShieldCheck className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
            {t("pricing.licensingTitle")}
          </h2>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-200">{t("pricing.licensingRule")}</p>
          <ul className="mt-3 space-y-2 text-sm text-slate-600 dark:text-slate-300">
            <li className="flex gap-2">
              <Home className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {t("pricing.licensingPersonal")}
            </li>
            <li className="flex gap-2">
              <Briefcase className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {t("pricing.licensingCommercial")}
            </li>
          </ul>
        </section>
        <section className={`${cardClass} p-5`} aria-labelledby="credits-heading" data-testid="credit-rules">
          <h2 id="credits-heading" className="flex items-center gap-2 text-lg font-semibold">
            <Sparkles className="size-5 text-accent-500" aria-hidden="true" />
            {t("pricing.rulesTitle")}
          </h2>
          <ul className="mt-3 space-y-2 text-sm text-slate-600 dark:text-slate-300">
            <li className="flex gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
              {t("pricing.rulePerRender", { count: CREDITS.perRender })}
            </li>
            <li className="flex gap-2">
              <Timer className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
              {t("pricing.ruleNeverExpire")}
            </li>
            <li className="flex gap-2">
              <ShieldCheck className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
              {t("pricing.ruleFailedFree")}
            </li>
            <li className="flex gap-2">
              <RotateCcw className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
              {t("pricing.ruleRefund", { count: refundDays })}
            </li>
          </ul>
        </section>
      </div>
    </PageShell>
  );
}
