import { lazy, Suspense, useEffect } from "react";
import { Route, Switch, useLocation } from "wouter";
import { HYDRATED_EVENT } from "../shared/constants";
import { APP_ROUTES } from "../shared/routes";
import { QUICK_ADMIN_BAR_PADDING } from "./components/admin/quickAdminBarPadding";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { Footer } from "./components/Footer";
import { NavBar } from "./components/NavBar";
import { PageLoading } from "./components/PageLoading";
import { ProtectedRoute } from "./components/ProtectedRoute";
import { SessionEffects } from "./components/SessionEffects";
import { useSession } from "./hooks/useSession";
import { useAfterFirstLoad } from "./lib/afterFirstLoad";
import { useDocumentTitle } from "./lib/documentTitle";
import { notePageView } from "./lib/pageViews";
import { useScrollToTopOnNavigation } from "./lib/scrollOnNavigation";
import { hydration } from "./lib/queries";
import { landingLoaded, NotFound, PAGES } from "./routes";
import { ThemeProvider } from "./theme";

// Its own texts (the help button, the toaster) are in the first part; what it opens loads its own.
const AppExtras = lazy(() => import("./AppExtras"));
// Analytics starts after the first load; the pages seen before are noted (lib/pageViews) and sent then.
const AnalyticsEffects = lazy(() => import("./components/AnalyticsEffects").then((module) => ({ default: module.AnalyticsEffects })));

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

/** The page, with room at its bottom for the Quick Admin bar of an admin (spec section 2; a non-admin has a control in the footer). */
function Shell() {
  const { user } = useSession();
  const loaded = useAfterFirstLoad();
  const [location] = useLocation();
  useEffect(() => notePageView(location), [location]);
  useDocumentTitle(location);
  useScrollToTopOnNavigation(location);
  return (
    <>
      <div className={`flex min-h-screen flex-col ${user?.admin ? QUICK_ADMIN_BAR_PADDING : ""}`}>
        <NavBar />
        <main className="flex-1">
          <Routes />
        </main>
        <Footer />
      </div>
      {/* At once: a sign-in's event must find them listening. */}
      <SessionEffects />
      {/* After the first load (also keeps the pre-rendered HTML and the hydrating render equal). */}
      {loaded ? (
        <Suspense fallback={null}>
          <AnalyticsEffects />
          <AppExtras signedIn={!!user} admin={!!user?.admin} />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * The app. No data provider at its top: the first paint's parts read their queries through
 * lib/queries, and each lazily loaded part that uses tRPC's hooks brings the data layer with it
 * (lazy.tsx), so tRPC's client and React Query are not in the first load (issue 15).
 */
export function App() {
  // The whole page is hydrated once the root's first effect runs.
  useEffect(() => {
    hydration.active = false;
    document.dispatchEvent(new Event(HYDRATED_EVENT));
  }, []);
  return (
    <ThemeProvider>
      <Shell />
    </ThemeProvider>
  );
}
