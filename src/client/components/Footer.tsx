/**
 * The footer (spec section 2): Features and Pricing navigate, Help Center opens the help drawer,
 * Contact writes to the support mailbox. "All rights reserved" toggles a hidden panel with the
 * version and build of this installation, for a signed-in user only.
 */
import { useId, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { PRODUCT_NAME } from "../../shared/constants";
import { useSession } from "../hooks/useSession";
import { openHelpDrawer } from "../lib/helpDrawer";
import { trpc } from "../trpc";
import { BrandMark } from "./Brand";
import { mailtoHref, useSupportEmail } from "./landing/support";

const linkClass = "rounded-sm text-slate-700 hover:text-slate-950 hover:underline dark:text-slate-300 dark:hover:text-white";

/** "3 days 4 hr 5 min", in the interface language; seconds only in the first minute. */
function formatUptime(totalSeconds: number, language: string): string {
  const unit = (value: number, name: "day" | "hour" | "minute" | "second") =>
    new Intl.NumberFormat(language, { style: "unit", unit: name, unitDisplay: "short" }).format(value);
  if (totalSeconds < 60) return unit(totalSeconds, "second");
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const parts = [days ? unit(days, "day") : "", days || hours ? unit(hours, "hour") : "", unit(minutes, "minute")];
  return parts.filter(Boolean).join(" ");
}

function BuildInfo({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  // Fresh figures each time the panel opens (uptime moves on).
  const info = trpc.system.info.useQuery(undefined, { staleTime: 0 });
  const performance = trpc.system.performance.useQuery(undefined, { staleTime: 0 });
  const engine = performance.data?.engine;
  const rows: [string, string | undefined][] = [
    [t("home.footer.version"), info.data?.version],
    [t("home.footer.uptime"), info.data ? formatUptime(info.data.uptimeSeconds, i18n.language) : undefined],
    [
      t("home.footer.engine"),
      engine
        ? engine.isAi
          ? t("home.footer.engineAi", { name: engine.label })
          : t("home.footer.enginePreview", { name: t("flow.previewEngine") })
        : undefined,
    ],
    [t("home.footer.database"), info.data ? t(info.data.databaseOk ? "home.footer.databaseOk" : "home.footer.databaseDown") : undefined],
  ];
  return (
    <div
      id={id}
      className="mx-auto mt-4 max-w-md rounded-lg border border-slate-200 bg-white px-4 py-3 text-left text-sm dark:border-slate-800 dark:bg-slate-950"
      data-testid="build-info"
    >
      <p className="font-semibold">{t("home.footer.buildInfo")}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="font-mono text-slate-800 dark:text-slate-200">{value ?? t("common.loading")}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

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
  const [panelOpen, setPanelOpen] = useState(false);
  const panelId = useId();
  const year = useSyncExternalStore(noSubscription, thisYear, prerenderedYear);
  const showPanel = !!user && panelOpen;

  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 sm:grid-cols-[2fr_1fr_1fr] sm:px-6">
        <div className="col-span-2 flex max-w-sm items-start gap-3 sm:col-span-1">
          <BrandMark className="size-7 shrink-0" />
          <div>
            <p className="font-semibold">{PRODUCT_NAME}</p>
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
              <a href={email ? mailtoHref(email) : undefined} aria-disabled={email ? undefined : true} className={linkClass}>
                {t("home.footer.contact")}
              </a>
            </li>
          </ul>
        </nav>
      </div>
      {/* Room at the bottom on a phone, so the floating help button never covers this line. */}
      <div className="border-t border-slate-200 px-4 pb-[4.5rem] pt-5 text-center text-xs text-slate-500 sm:pb-6 dark:border-slate-800 dark:text-slate-400">
        <p>
          © {year} {PRODUCT_NAME}.{" "}
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
        {showPanel ? <BuildInfo id={panelId} /> : null}
      </div>
    </footer>
  );
}
