import { LogOut, Menu, X } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "../../shared/constants";
import { useSession } from "../hooks/useSession";
import { useSignOut } from "../hooks/useSignOut";
import { chooseLanguage, currentLanguage } from "../i18n";
import { BrandMark, BrandName } from "./Brand";
import { LanguageMenu } from "./LanguageMenu";
import { SpaceSwitcher } from "./SpaceSwitcher";
import { ThemeToggle } from "./ThemeToggle";

const LINKS = [
  { href: "/guide", label: "nav.howItWorks" },
  { href: "/features", label: "nav.features" },
  { href: "/pricing", label: "nav.pricing" },
] as const;

const linkClass =
  "whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white";
const primaryButtonClass =
  "inline-flex whitespace-nowrap items-center justify-center rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700";
/** Without horizontal padding: the compact Sign Out sets its own. */
const secondaryButtonClass =
  "inline-flex whitespace-nowrap items-center justify-center gap-1.5 rounded-md border border-slate-300 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800";

/**
 * The navigation bar of spec section 2; below the lg breakpoint it collapses into a menu (signed
 * in, with Dashboard and Sign Out, the French and Spanish bar does not fit a tablet's width).
 */
export function NavBar() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { signOut, isPending: signingOut } = useSignOut();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  // Navigating closes the mobile menu.
  useEffect(() => setMenuOpen(false), [location]);

  // Signed in: Dashboard and Sign Out (spec §2); signed out: Sign In. In the bar below xl, Sign
  // Out shows its icon only (its name stays for screen readers and as a tooltip).
  const account = (compact: boolean) =>
    user ? (
      <>
        <SpaceSwitcher wide={!compact} />
        <Link href="/dashboard" className={primaryButtonClass}>
          {t("nav.dashboard")}
        </Link>
        <button
          type="button"
          onClick={() => void signOut()}
          disabled={signingOut}
          title={compact ? t("nav.signOut") : undefined}
          className={`${secondaryButtonClass} ${compact ? "px-2.5 xl:px-4" : "px-4"}`}
        >
          <LogOut className="size-4" aria-hidden="true" />
          <span className={compact ? "sr-only xl:not-sr-only" : undefined}>{t("nav.signOut")}</span>
        </button>
      </>
    ) : (
      <Link href="/auth" className={primaryButtonClass}>
        {t("nav.signIn")}
      </Link>
    );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label={t("nav.mainNavigation")} className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link href={user ? "/dashboard" : "/"} className="flex items-center gap-2">
          <BrandMark />
          <BrandName />
        </Link>

        <div className="hidden items-center gap-1 lg:flex" data-testid="desktop-nav">
          {LINKS.map((link) => (
            <Link key={link.href} href={link.href} className={linkClass}>
              {t(link.label)}
            </Link>
          ))}
          <LanguageMenu />
          <ThemeToggle />
          <div className="ml-2 flex items-center gap-2">{account(true)}</div>
        </div>

        <div className="flex items-center gap-1 lg:hidden">
          <ThemeToggle />
          <button
            type="button"
            onClick={() => setMenuOpen((open) => !open)}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
            className="inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          </button>
        </div>
      </nav>

      {menuOpen ? (
        <div id="mobile-menu" className="border-t border-slate-200 px-4 pb-4 pt-2 lg:hidden dark:border-slate-800">
          <div className="flex flex-col gap-1">
            {LINKS.map((link) => (
              <Link key={link.href} href={link.href} className={linkClass}>
                {t(link.label)}
              </Link>
            ))}
          </div>
          <div className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-800">
            <p className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{t("nav.language")}</p>
            <div className="flex flex-wrap gap-1" role="group" aria-label={t("nav.language")}>
              {SUPPORTED_LANGUAGES.map((language) => (
                <button
                  key={language}
                  type="button"
                  lang={language}
                  aria-pressed={currentLanguage() === language}
                  onClick={() => void chooseLanguage(language)}
                  className="rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 aria-pressed:bg-brand-50 aria-pressed:font-semibold aria-pressed:text-brand-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:bg-slate-800 dark:aria-pressed:text-white"
                >
                  {LANGUAGE_NAMES[language]}
                </button>
              ))}
            </div>
          </div>
          <div className="mt-3 flex flex-wrap gap-2">{account(false)}</div>
        </div>
      ) : null}
    </header>
  );
}
