import { lazy, Suspense, useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "wouter";
import { STORAGE_KEYS } from "../../shared/constants";
import { useSession } from "../hooks/useSession";
import { withTexts } from "../i18n";
import { signingOutHome } from "../lib/signOutHome";
import { Spinner } from "./Spinner";

// Only for an address not yet confirmed: not in the first load.
const EmailVerificationBanner = lazy(
  withTexts(() => import("./EmailVerificationBanner").then((module) => ({ default: module.EmailVerificationBanner }))),
);

/**
 * Spec section 2: a visitor is sent to /auth (the page they wanted is remembered for after
 * sign-in); a spinner shows while the session is checked; nothing else renders for a visitor.
 * The server enforces access on every call; this only keeps the screens honest. An unverified
 * address gets the e-mail verification banner above the page.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { user, isLoading } = useSession();
  const [location, navigate] = useLocation();

  useEffect(() => {
    // A sign-out on its way home (lib/signOutHome) is not a visitor asking for this page.
    if (isLoading || user || signingOutHome()) return;
    try {
      sessionStorage.setItem(STORAGE_KEYS.returnTo, location);
    } catch {
      // Without storage the user lands on the dashboard after signing in.
    }
    navigate("/auth", { replace: true });
  }, [isLoading, user, location, navigate]);

  if (isLoading) return <Spinner label={t("common.checkingSession")} />;
  if (!user) return null;
  return (
    <>
      {user.emailConfirmed ? null : (
        <Suspense fallback={null}>
          <EmailVerificationBanner email={user.email} />
        </Suspense>
      )}
      {children}
    </>
  );
}
