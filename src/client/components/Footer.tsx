/**
 * The footer (spec section 2): Features and Pricing navigate, Help Center opens the help drawer,
 * Contact writes to the support mailbox. "All rights reserved" toggles a hidden panel with the
 * version and build of this installation, for a signed-in user only.
 *
 * For a signed-in user who is not an admin, the Quick Admin bar's shell is here: one small "Quick
 * System Testing" control in the last line, opening its panel ("Access denied. Admin privileges
 * required.") under it (issue 27: a customer's screen keeps no strip for it; an admin has the bar).
 */
import { Wrench } from "lucide-react";
import { Suspense, useId, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { useSession } from "../hooks/useSession";
import { useAfterFirstLoad } from "../lib/afterFirstLoad";
import { useStudio } from "../lib/studio";
import { openHelpDrawer } from "../lib/helpDrawer";
import { lazyWithData } from "../lazy";
import { BrandMark } from "./Brand";
import { mailtoHref, useSupportEmail } from "./landing/support";

// The panel reads tRPC's queries: it comes with the data layer, when first opened.
const BuildInfo = lazyWithData(() => import("./BuildInfo"));
// The Quick Admin panel of a non-admin: the same, when first opened.
const QuickAdminFooterPanel = lazyWithData<{ id: string; onClose(): void }>(() =>
  import("./admin/QuickAdminBar").then((module) => ({ default: module.QuickAdminFooterPanel })),
);

const linkClass = "rounded-sm text-slate-700 hover:text-slate-950 hover:underline dark:text-slate-300 dark:hover:text-white";

const thisYear = () => new Date().getFullYear();
const noSubscription = () => () => {};
/** While hydrating, the year the landing page was pre-rendered in (scripts/prerender.ts notes it on #root), then this year. */
const prerenderedYear = () => {
  const noted = typeof document === "undefined" ? undefined : document.getElementById("root")?.dataset.prerenderedYear;
  return noted ? Number(noted) : thisYear();
};

export function Footer() {
  const { t } = useTranslation();
  const { user } = useSession();
  const email = useSupportEmail();
  const studio = useStudio();
  const loaded = useAfterFirstLoad();
  const [panelOpen, setPanelOpen] = useState(false);
  const panelId = useId();
  const [adminOpen, setAdminOpen] = useState(false);
  const adminPanelId = useId();
  // After the first load, as the admin's bar: the pre-rendered page is a visitor's.
  const quickAdmin = loaded && !!user && !user.admin;
  const showAdminPanel = quickAdmin && adminOpen;
  const year = useSyncExternalStore(noSubscription, thisYear, prerenderedYear);
  const showPanel = !!user && panelOpen;

  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 sm:grid-cols-[2fr_1fr_1fr] sm:px-6">
        <div className="col-span-2 flex max-w-sm items-start gap-3 sm:col-span-1">
          <BrandMark className="size-7 shrink-0" />
          <div>
            <p className="font-semibold [overflow-wrap:anywhere]">{studio.name}</p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("footer.tagline")}</p>
          </div>
        </div>
        <nav aria-labelledby="footer-product">
          <p id="footer-product" className="text-sm font-semibold text-slate-900 dark:text-white">
            {t("home.footer.product")}
          </p>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link href="/features" className={linkClass}>
                {t("nav.features")}
              </Link>
            </li>
            <li>
              <Link href="/pricing" className={linkClass}>
                {t("nav.pricing")}
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-support">
          <p id="footer-support" className="text-sm font-semibold text-slate-900 dark:text-white">
            {t("home.footer.support")}
          </p>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <button type="button" onClick={openHelpDrawer} className={linkClass}>
                {t("home.footer.helpCenter")}
              </button>
            </li>
            <li>
              <a href={mailtoHref(email)} className={linkClass}>
                {t("home.footer.contact")}
              </a>
            </li>
            {/* After the first load: the pre-rendered landing page is drawn without them (a studio may add them later). */}
            {loaded && studio.hasTerms ? (
              <li>
                <Link href="/terms" className={linkClass}>
                  {t("legal.termsTitle")}
                </Link>
              </li>
            ) : null}
            {loaded && studio.hasPrivacy ? (
              <li>
                <Link href="/privacy" className={linkClass}>
                  {t("legal.privacyTitle")}
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
      {/* Room at the bottom on a phone, so the floating help button never covers this line. */}
      <div className="border-t border-slate-200 px-4 pb-[4.5rem] pt-5 text-center text-xs text-slate-500 sm:pb-6 dark:border-slate-800 dark:text-slate-400">
        <p>
          © {year} {studio.name}.{" "}
          {user ? (
            <button
              type="button"
              onClick={() => setPanelOpen((open) => !open)}
              aria-expanded={panelOpen}
              aria-controls={showPanel ? panelId : undefined}
              className="rounded-sm py-1.5 hover:underline"
            >
              {t("footer.rightsReserved")}
            </button>
          ) : (
            t("footer.rightsReserved")
          )}
        </p>
        {showPanel ? (
          <Suspense
            fallback={
              <p id={panelId} className="mt-4">
                {t("common.loading")}
              </p>
            }
          >
            <BuildInfo id={panelId} />
          </Suspense>
        ) : null}
        {quickAdmin ? (
          <p className="mt-1">
            <button
              type="button"
              onClick={() => setAdminOpen((open) => !open)}
              aria-expanded={adminOpen}
              aria-controls={showAdminPanel ? adminPanelId : undefined}
              className="inline-flex items-center gap-1.5 rounded-sm py-1.5 hover:underline"
              data-testid="quick-admin-control"
            >
              <Wrench className="size-3.5" aria-hidden="true" />
              {t("quickAdmin.toggle")}
            </button>
          </p>
        ) : null}
        {showAdminPanel ? (
          <Suspense
            fallback={
              <p id={adminPanelId} className="mt-4">
                {t("common.loading")}
              </p>
            }
          >
            <QuickAdminFooterPanel id={adminPanelId} onClose={() => setAdminOpen(false)} />
          </Suspense>
        ) : null}
      </div>
    </footer>
  );
}
