/**
 * The Quick Admin bar of spec section 2: fixed at the bottom for an admin, with the "Quick System
 * Testing" panel toggle and the "Full Admin Dashboard" button (/admin checks the role itself). The
 * panel holds the self-tests for an admin; while the roles load it says so, and anyone else reads
 * "Access denied. Admin privileges required." (spec sections 6 and 8). An admin also reads there
 * how many payments are held for review (the roles, and so the count, are asked only when the
 * panel opens).
 *
 * Every signed-in user has the bar's shell, but a customer's costs them nothing (issue 27): for a
 * non-admin (auth.session's `admin`) it is one small "Quick System Testing" control in the footer's
 * last line (Footer.tsx), which opens the same panel there, under it; no strip at the bottom of the
 * screen, nothing beside the help button. Nothing shows for a visitor. The server refuses every
 * admin procedure to a non-admin whatever the page shows.
 */
import { AlertTriangle, ChevronDown, ChevronUp, LayoutDashboard, ShieldAlert, Wrench, X } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "wouter";
import { useRoles } from "../../hooks/useRoles";
import { useSession } from "../../hooks/useSession";
import { trpc } from "../../trpc";
import { buttonClass } from "../ui/buttons";

// The suite and its runner load when an admin opens the panel, not with every page.
const SelfTests = lazy(() => import("./SelfTests"));

export { QUICK_ADMIN_BAR_PADDING } from "./quickAdminBarPadding";

export function AccessDenied({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <p
      role="alert"
      className={`flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm font-medium text-red-800 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-200 ${className}`}
      data-testid="access-denied"
    >
      <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {t("admin.accessDenied")}
    </p>
  );
}

/** "1 payment held for review", linking to /admin; nothing when none is held. */
function HeldPaymentsNote({ onOpen }: { onOpen(): void }) {
  const { t } = useTranslation();
  const holds = trpc.admin.paymentHolds.useQuery(undefined, { staleTime: 0 });
  const count = holds.data?.length ?? 0;
  if (count === 0) return null;
  return (
    <Link
      href="/admin"
      onClick={onOpen}
      className="mb-3 flex items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 hover:bg-amber-100 dark:border-amber-800/70 dark:bg-amber-950/40 dark:text-amber-100 dark:hover:bg-amber-900/50"
      data-testid="quick-admin-holds"
    >
      <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
      {t("admin.holds.title", { count })}
    </Link>
  );
}

/**
 * What the panel shows: the roles are asked when it opens (it is rendered only then), not on every
 * page of every user. `onLeave`: a link in it goes to /admin.
 */
function PanelBody({ onLeave }: { onLeave(): void }) {
  const { t } = useTranslation();
  const { isAdmin, isLoading } = useRoles();
  if (isLoading)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        <span
          className="size-4 animate-spin rounded-full border-2 border-brand-500 border-t-transparent motion-reduce:animate-none"
          aria-hidden="true"
        />
        {t("quickAdmin.loadingAccess")}
      </p>
    );
  if (!isAdmin) return <AccessDenied />;
  return (
    <>
      <HeldPaymentsNote onOpen={onLeave} />
      <Suspense fallback={<p className="text-sm text-slate-600 dark:text-slate-300">{t("common.loading")}</p>}>
        <SelfTests />
      </Suspense>
    </>
  );
}

/** The panel under the footer's small control, for a signed-in user who is not an admin. */
export function QuickAdminFooterPanel({ id, onClose }: { id: string; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <div id={id} className="mx-auto mt-4 max-w-2xl text-left text-sm text-slate-900 dark:text-slate-100" data-testid="quick-admin-panel">
      <h2 className="mb-3 text-base font-semibold">{t("quickAdmin.panelTitle")}</h2>
      <PanelBody onLeave={onClose} />
    </div>
  );
}

export function QuickAdminBar() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [location] = useLocation();

  // Signing out closes the panel (it is gone with the bar anyway).
  useEffect(() => {
    if (!user) setOpen(false);
  }, [user]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  // A non-admin has the footer's small control instead (Footer.tsx).
  if (!user?.admin) return null;

  return (
    <div
      role="region"
      aria-label={t("quickAdmin.label")}
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 shadow-[0_-4px_16px_-8px_rgba(15,23,42,0.25)] backdrop-blur dark:border-slate-800 dark:bg-slate-950/95"
      data-testid="quick-admin-bar"
    >
      {open ? (
        <div
          id="quick-admin-panel"
          className="mx-auto max-h-[min(65vh,36rem)] max-w-6xl overflow-y-auto border-b border-slate-200 px-4 py-4 sm:px-6 dark:border-slate-800"
          data-testid="quick-admin-panel"
        >
          <div className="mb-3 flex items-center justify-between gap-3">
            <h2 className="text-base font-semibold">{t("quickAdmin.panelTitle")}</h2>
            <button type="button" className={`${buttonClass.icon} size-8`} aria-label={t("common.close")} onClick={() => setOpen(false)}>
              <X className="size-4" aria-hidden="true" />
            </button>
          </div>
          <PanelBody onLeave={() => setOpen(false)} />
        </div>
      ) : null}
      <div className="mx-auto flex h-12 max-w-6xl items-center justify-between gap-2 px-2 sm:px-6">
        <button
          type="button"
          className={`${buttonClass.ghost} min-w-0 px-2 py-1 text-xs sm:px-3 sm:py-1.5 sm:text-sm`}
          aria-expanded={open}
          aria-controls="quick-admin-panel"
          onClick={() => setOpen((current) => !current)}
        >
          <Wrench className="size-4 text-brand-600 dark:text-brand-100" aria-hidden="true" />
          {/* On a narrow phone a long translation wraps to two short lines rather than being cut. */}
          <span className="text-left leading-tight sm:whitespace-nowrap">{t("quickAdmin.toggle")}</span>
          {open ? (
            <ChevronDown className="hidden size-4 sm:block" aria-hidden="true" />
          ) : (
            <ChevronUp className="hidden size-4 sm:block" aria-hidden="true" />
          )}
        </button>
        <Link
          href="/admin"
          aria-current={location === "/admin" ? "page" : undefined}
          className={`${buttonClass.secondary} min-w-0 px-2.5 py-1 text-xs sm:px-3 sm:py-1.5 sm:text-sm`}
          onClick={() => setOpen(false)}
        >
          <LayoutDashboard className="hidden size-4 sm:block" aria-hidden="true" />
          <span className="text-center leading-tight sm:whitespace-nowrap">{t("quickAdmin.fullDashboard")}</span>
        </Link>
      </div>
    </div>
  );
}
