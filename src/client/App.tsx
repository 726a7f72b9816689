import { QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useState } from "react";
import { Toaster } from "sonner";
import { Route, Switch, useLocation } from "wouter";
import { TOASTS } from "../shared/constants";
import { APP_ROUTES } from "../shared/routes";
import { ErrorBoundary } from "./components/ErrorBoundary";
import { Footer } from "./components/Footer";
import { NavBar } from "./components/NavBar";
import { PageLoading } from "./components/PageLoading";
import { ProtectedRoute } from "./components/ProtectedRoute";
import { SessionEffects } from "./components/SessionEffects";
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

function ThemedToaster() {
  const { theme } = useTheme();
  return <Toaster theme={theme} visibleToasts={TOASTS.visible} duration={TOASTS.durationMs} richColors closeButton />;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          <div className="flex min-h-screen flex-col">
            <NavBar />
            <main className="flex-1">
              <Routes />
            </main>
            <Footer />
          </div>
          <ThemedToaster />
          <SessionEffects />
        </ThemeProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
