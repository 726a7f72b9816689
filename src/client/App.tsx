import { QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useState } from "react";
import { Toaster } from "sonner";
import { Route, Switch, useLocation } from "wouter";
import { TOASTS } from "../shared/constants";
import { APP_ROUTES } from "../shared/routes";
import { QUICK_ADMIN_BAR_PADDING, QuickAdminBar } from "./components/admin/QuickAdminBar";
import { AnalyticsEffects } from "./components/AnalyticsEffects";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { Footer } from "./components/Footer";
import { HelpCenter } from "./components/help/HelpCenter";
import { NavBar } from "./components/NavBar";
import { OnboardingOverlay } from "./components/onboarding/OnboardingOverlay";
import { PageLoading } from "./components/PageLoading";
import { ProtectedRoute } from "./components/ProtectedRoute";
import { SessionEffects } from "./components/SessionEffects";
import { useSession } from "./hooks/useSession";
import { NotFound, PAGES } from "./routes";
import { ThemeProvider, useTheme } from "./theme";
import { createQueryClient, createTrpcClient, trpc } from "./trpc";

function Routes() {
  const [location] = useLocation();
  return (
    // Keyed by location so that navigating away from a broken page clears the error screen.
    <ErrorBoundary key={location}>
      <Suspense fallback={<PageLoading />}>
        <Switch>
          {APP_ROUTES.map(({ path, access }) => {
            const Page = PAGES[path];
            return (
              <Route key={path} path={path}>
                {access === "protected" ? (
                  <ProtectedRoute>
                    <Page />
                  </ProtectedRoute>
                ) : (
                  <Page />
                )}
              </Route>
            );
          })}
          <Route>
            <NotFound />
          </Route>
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}

/** Toasts sit above the Quick Admin bar when it is shown. */
function ThemedToaster({ aboveBar }: { aboveBar: boolean }) {
  const { theme } = useTheme();
  const offset = aboveBar ? { bottom: 64 } : undefined;
  return (
    <Toaster
      theme={theme}
      visibleToasts={TOASTS.visible}
      duration={TOASTS.durationMs}
      offset={offset}
      mobileOffset={offset}
      richColors
      closeButton
    />
  );
}

/** The page, with room at its bottom for the Quick Admin bar of a signed-in user (spec section 2). */
function Shell() {
  const { user } = useSession();
  return (
    <>
      <div className={`flex min-h-screen flex-col ${user ? QUICK_ADMIN_BAR_PADDING : ""}`}>
        <NavBar />
        <main className="flex-1">
          <Routes />
        </main>
        <Footer />
      </div>
      <QuickAdminBar />
      <HelpCenter />
      <OnboardingOverlay />
      <ThemedToaster aboveBar={!!user} />
      <SessionEffects />
      <AnalyticsEffects />
    </>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          <Shell />
        </ThemeProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
