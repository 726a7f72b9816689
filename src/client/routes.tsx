import { lazy, type ComponentType } from "react";
import type { AppPath } from "../shared/routes";
import type { PlannedPageKey } from "./pages/PlannedPage";

const Landing = lazy(() => import("./pages/Landing"));
const SettingsPage = lazy(() => import("./pages/SettingsPage"));
const AuthPage = lazy(() => import("./pages/AuthPage"));
const PlannedPage = lazy(() => import("./pages/PlannedPage"));
export const NotFound = lazy(() => import("./pages/NotFound"));

function planned(page: PlannedPageKey): ComponentType {
  const Page = () => <PlannedPage page={page} />;
  Page.displayName = `PlannedPage(${page})`;
  return Page;
}

/** The page of each route of spec section 2; every page is loaded lazily. */
export const PAGES: Record<AppPath, ComponentType> = {
  "/": Landing,
  "/auth": AuthPage,
  "/upload": planned("upload"),
  "/batch-upload": planned("batchUpload"),
  "/style-select": planned("styleSelect"),
  "/render": planned("render"),
  "/pricing": planned("pricing"),
  "/features": planned("features"),
  "/gallery": planned("gallery"),
  "/ai-lab": planned("aiLab"),
  "/test": planned("test"),
  "/performance": planned("performance"),
  "/guide": planned("guide"),
  "/user-guide": planned("userGuide"),
  "/dashboard": planned("dashboard"),
  "/enhanced-dashboard": planned("enhancedDashboard"),
  "/social-hub": planned("socialHub"),
  "/admin": planned("admin"),
  "/teams": planned("teams"),
  "/profile": planned("profile"),
  "/settings": SettingsPage,
  "/community": planned("community"),
  "/marketplace": planned("marketplace"),
  "/developers": planned("developers"),
  "/modification-studio": planned("modificationStudio"),
};
