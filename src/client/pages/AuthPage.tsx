/**
 * /auth (spec §2, §4): Sign in / Sign up tabs, the forgot-password view (also ?reset=true), the
 * "set a new password" view (?reset=true&token=…), the two-factor view and "Back to Home".
 * A signed-in user is sent on to the page they wanted (returnTo) or the dashboard.
 */
import { ArrowLeft } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation, useSearch } from "wouter";

import { AuthTabs } from "../components/auth/AuthTabs";
import { ForgotPasswordForm } from "../components/auth/ForgotPasswordForm";
import { GoogleSignIn } from "../components/auth/GoogleSignIn";
import { ResetPasswordForm } from "../components/auth/ResetPasswordForm";
import { SignInForm } from "../components/auth/SignInForm";
import { SignUpForm } from "../components/auth/SignUpForm";
import { TwoFactorForm } from "../components/auth/TwoFactorForm";
import { BrandMark } from "../components/Brand";
import { Spinner } from "../components/Spinner";
import { useSession } from "../hooks/useSession";
import { authEvents } from "../lib/authEvents";
import { AUTH_LINKS, challengeFromHash, GOOGLE_ERRORS } from "../lib/authLinks";
import { takeReturnTo } from "../lib/returnTo";
import { currentStudio } from "../lib/studio";

type Tab = "signIn" | "signUp";
type View =
  { name: "tabs"; tab: Tab } | { name: "forgot" } | { name: "reset"; token: string } | { name: "twoFactor"; challengeToken: string };

function viewFromSearch(search: string): View {
  const params = new URLSearchParams(search);
  if (params.get(AUTH_LINKS.resetParam) !== "true") {
    return { name: "tabs", tab: params.get(AUTH_LINKS.tabParam) === AUTH_LINKS.signUpTab ? "signUp" : "signIn" };
  }
  const token = params.get(AUTH_LINKS.resetTokenParam);
  return token ? { name: "reset", token } : { name: "forgot" };
}

/** The first view: Google sign-in of an account with two-factor comes back with its challenge in the fragment. */
function initialView(search: string): View {
  const challengeToken = challengeFromHash(window.location.hash);
  return challengeToken ? { name: "twoFactor", challengeToken } : viewFromSearch(search);
}

const HEADINGS: Record<View["name"], { title: string; subtitle: string }> = {
  tabs: { title: "auth.title", subtitle: "auth.subtitle" },
  forgot: { title: "auth.forgot.title", subtitle: "auth.forgot.subtitle" },
  reset: { title: "auth.reset.title", subtitle: "auth.reset.subtitle" },
  twoFactor: { title: "auth.twoFactor.title", subtitle: "auth.twoFactor.subtitle" },
};

export default function AuthPage() {
  const { t } = useTranslation();
  const search = useSearch();
  const [, navigate] = useLocation();
  const { user, isLoading } = useSession();

  const [view, setView] = useState<View>(() => initialView(search));
  // An invitation's page sends the invited address along (?email=…).
  const [email, setEmail] = useState(() => new URLSearchParams(search).get(AUTH_LINKS.emailParam) ?? "");
  // A new address (a link followed inside the app) opens the view it names.
  const [viewedSearch, setViewedSearch] = useState(search);
  if (search !== viewedSearch) {
    setViewedSearch(search);
    setView(viewFromSearch(search));
  }

  // Spec §4: a signed-in user goes to returnTo (then cleared) or /dashboard. Not while they set a
  // new password from a reset link: that is what they came for.
  const redirect = user !== null && view.name !== "reset";
  const redirected = useRef(false);
  useEffect(() => {
    if (!redirect || redirected.current) return;
    redirected.current = true;
    navigate(takeReturnTo(), { replace: true });
  }, [redirect, navigate]);

  // The challenge token leaves the address bar (and the history) once the view holds it.
  useEffect(() => {
    if (challengeFromHash(window.location.hash)) history.replaceState(history.state, "", window.location.pathname + window.location.search);
  }, []);

  // A failed Google sign-in comes back here as ?error=google_….
  const error = new URLSearchParams(search).get(AUTH_LINKS.errorParam);
  useEffect(() => {
    if (error !== GOOGLE_ERRORS.notConfigured && error !== GOOGLE_ERRORS.failed) return;
    const description = error === GOOGLE_ERRORS.notConfigured ? t("auth.google.notConfigured") : t("auth.google.failed");
    // A fixed id: shown once even when effects run twice (StrictMode).
    toast.error(t("toasts.googleSignInFailed"), { id: "google-sign-in-failed", description });
    navigate("/auth", { replace: true });
  }, [error, navigate, t]);

  const resetToken = view.name === "reset" ? view.token : null;
  useEffect(() => {
    if (resetToken) authEvents.emit({ type: "PASSWORD_RECOVERY" });
  }, [resetToken]);

  /** Back to the tabs; a view opened by the address leaves it, so a reload does not reopen it. */
  function showTabs(tab: Tab) {
    setView({ name: "tabs", tab });
    if (search) navigate("/auth", { replace: true });
  }

  if (isLoading || redirect) return <Spinner label={t("common.checkingSession")} />;

  const heading = HEADINGS[view.name];
  return (
    <section className="mx-auto flex w-full max-w-md flex-col px-4 py-8 sm:py-12">
      <Link
        href="/"
        className="mb-6 inline-flex items-center gap-1.5 self-start rounded-md text-sm font-medium text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        {t("common.backHome")}
      </Link>

      <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-6 flex flex-col items-center text-center">
          <BrandMark className="size-10" />
          <h1 className="mt-3 text-2xl font-bold tracking-tight">{t(heading.title, { product: currentStudio().name })}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t(heading.subtitle)}</p>
        </div>

        {view.name === "tabs" ? (
          <>
            <AuthTabs
              label={t("auth.tabsLabel")}
              tabs={[
                { id: "signIn", label: t("auth.signInTab") },
                { id: "signUp", label: t("auth.signUpTab") },
              ]}
              selected={view.tab}
              onSelect={(tab) => setView({ name: "tabs", tab })}
            >
              {view.tab === "signIn" ? (
                <SignInForm
                  initialEmail={email}
                  onTwoFactor={(challengeToken) => setView({ name: "twoFactor", challengeToken })}
                  onForgotPassword={() => setView({ name: "forgot" })}
                />
              ) : (
                <SignUpForm
                  initialEmail={email}
                  onSignedUp={(address) => {
                    // Spec §4: the form is cleared; signing in is the next step.
                    setEmail(address);
                    setView({ name: "tabs", tab: "signIn" });
                  }}
                />
              )}
            </AuthTabs>
            <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
              <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
              {t("auth.orContinueWith")}
              <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
            </div>
            <GoogleSignIn />
          </>
        ) : view.name === "forgot" ? (
          <ForgotPasswordForm initialEmail="" onDone={() => showTabs("signIn")} />
        ) : view.name === "reset" ? (
          <ResetPasswordForm
            token={view.token}
            onDone={() => showTabs("signIn")}
            onRequestNewLink={() => navigate(`/auth?${AUTH_LINKS.resetParam}=true`, { replace: true })}
          />
        ) : (
          <TwoFactorForm challengeToken={view.challengeToken} />
        )}
      </div>
    </section>
  );
}
