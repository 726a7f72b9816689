import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Route, Switch, useLocation } from "wouter";
import { APP_ROUTES } from "../shared/routes";
import { QUICK_ADMIN_BAR_PADDING } from "./components/admin/quickAdminBarPadding";
import { AnalyticsEffects } from "./components/AnalyticsEffects";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { Footer } from "./components/Footer";
import { NavBar } from "./components/NavBar";
import { PageLoading } from "./components/PageLoading";
import { ProtectedRoute } from "./components/ProtectedRoute";
import { SessionEffects } from "./components/SessionEffects";
import { useSession } from "./hooks/useSession";
import { withAllTexts } from "./i18n";
import { useAfterFirstLoad } from "./lib/afterFirstLoad";
import { landingLoaded, NotFound, PAGES } from "./routes";
import { ThemeProvider } from "./theme";
import { createQueryClient, createTrpcClient, trpc } from "./trpc";

const AppExtras = lazy(withAllTexts(() => import("./AppExtras")));

function Routes() {
  const [location] = useLocation();
  const routes = (
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
  );
  return (
    // Keyed by location so that navigating away from a broken page clears the error screen.
    <ErrorBoundary key={location}>
      {/* The loaded landing page needs no boundary, and must not have one: React hydrates a Suspense
          boundary after the rest, when the page's queries may have answered (a hydration mismatch). */}
      {location === "/" && landingLoaded() ? routes : <Suspense fallback={<PageLoading />}>{routes}</Suspense>}
    </ErrorBoundary>
  );
}

/** The page, with room at its bottom for the Quick Admin bar of a signed-in user (spec section 2). */
function Shell() {
  const { user } = useSession();
  const loaded = useAfterFirstLoad();
  return (
    <>
      <div className={`flex min-h-screen flex-col ${user ? QUICK_ADMIN_BAR_PADDING : ""}`}>
        <NavBar />
        <main className="flex-1">
          <Routes />
        </main>
        <Footer />
      </div>
      {/* At once: a sign-in's event must find them listening. */}
      <SessionEffects />
      <AnalyticsEffects />
      {/* After the first load (also keeps the pre-rendered HTML and the hydrating render equal). */}
      {loaded ? (
        <Suspense fallback={null}>
          <AppExtras signedIn={!!user} />
        </Suspense>
      ) : null}
    </>
  );
}

/** `queryClient`: the build-time pre-render brings its own (one without garbage-collection timers). */
export function App({ queryClient: given }: { queryClient?: QueryClient } = {}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
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
