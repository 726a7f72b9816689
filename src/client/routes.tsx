import { lazy, type ComponentType } from "react";
import type { AppPath } from "../shared/routes";
import type { PlannedPageKey } from "./pages/PlannedPage";

const Landing = lazy(() => import("./pages/Landing"));
const SettingsPage = lazy(() => import("./pages/SettingsPage"));
const AuthPage = lazy(() => import("./pages/AuthPage"));
const PlannedPage = lazy(() => import("./pages/PlannedPage"));
const UploadPage = lazy(() => import("./pages/UploadPage"));
const BatchUploadPage = lazy(() => import("./pages/BatchUploadPage"));
const StyleSelectPage = lazy(() => import("./pages/StyleSelectPage"));
const RenderPage = lazy(() => import("./pages/RenderPage"));
const DashboardPage = lazy(() => import("./pages/DashboardPage"));
const GalleryPage = lazy(() => import("./pages/GalleryPage"));
const AdminPage = lazy(() => import("./pages/AdminPage"));
const PricingPage = lazy(() => import("./pages/PricingPage"));
const PerformancePage = lazy(() => import("./pages/PerformancePage"));
const FeaturesPage = lazy(() => import("./pages/FeaturesPage"));
const GuidePage = lazy(() => import("./pages/GuidePage"));
const AiLabPage = lazy(() => import("./pages/AiLabPage"));
const StatusPage = lazy(() => import("./pages/StatusPage"));
const ProfilePage = lazy(() => import("./pages/ProfilePage"));
const ModificationStudioPage = lazy(() => import("./pages/ModificationStudioPage"));
export const NotFound = lazy(() => import("./pages/NotFound"));

function planned(page: PlannedPageKey): ComponentType {
  const Page = () => <PlannedPage page={page} />;
  Page.displayName = `PlannedPage(${page})`;
  return Page;
}

const UserGuidePage = () => <GuidePage variant="userGuide" />;
UserGuidePage.displayName = "GuidePage(userGuide)";

/** The page of each route of spec section 2; every page is loaded lazily. */
export const PAGES: Record<AppPath, ComponentType> = {
  "/": Landing,
  "/auth": AuthPage,
  "/upload": UploadPage,
  "/batch-upload": BatchUploadPage,
  "/style-select": StyleSelectPage,
  "/render": RenderPage,
  "/pricing": PricingPage,
  "/features": FeaturesPage,
  "/gallery": GalleryPage,
  "/ai-lab": AiLabPage,
  "/test": StatusPage,
  "/performance": PerformancePage,
  "/guide": GuidePage,
  "/user-guide": UserGuidePage,
  "/dashboard": DashboardPage,
  "/enhanced-dashboard": planned("enhancedDashboard"),
  "/social-hub": planned("socialHub"),
  "/admin": AdminPage,
  "/teams": planned("teams"),
  "/profile": ProfilePage,
  "/settings": SettingsPage,
  "/community": planned("community"),
  "/marketplace": planned("marketplace"),
  "/developers": planned("developers"),
  "/modification-studio": ModificationStudioPage,
};
