import { lazy, type ComponentType } from "react";
import type { AppPath } from "../shared/routes";
import { withAllTexts } from "./i18n";
import type { PlannedPageKey } from "./pages/PlannedPage";

/**
 * The landing page needs only the texts loaded first (i18n FIRST_AREAS); every other page waits
 * for all its language's areas. Once loaded it renders without suspending: main.tsx loads it before
 * hydrating the pre-rendered page, which must not wait in a Suspense boundary while the page's
 * queries answer (the boundary would then hydrate against different data: a mismatch).
 */
let LandingPage: ComponentType | null = null;
export const loadLanding = () =>
  import("./pages/Landing").then((module) => {
    LandingPage = module.default;
    return module;
  });
const LazyLanding = lazy(loadLanding);
/** True once the landing page's code is here (it then renders without suspending). */
export const landingLoaded = () => LandingPage !== null;
const Landing = () => (LandingPage ? <LandingPage /> : <LazyLanding />);
const SettingsPage = lazy(withAllTexts(() => import("./pages/SettingsPage")));
const AuthPage = lazy(withAllTexts(() => import("./pages/AuthPage")));
const PlannedPage = lazy(withAllTexts(() => import("./pages/PlannedPage")));
const UploadPage = lazy(withAllTexts(() => import("./pages/UploadPage")));
const BatchUploadPage = lazy(withAllTexts(() => import("./pages/BatchUploadPage")));
const StyleSelectPage = lazy(withAllTexts(() => import("./pages/StyleSelectPage")));
const RenderPage = lazy(withAllTexts(() => import("./pages/RenderPage")));
const DashboardPage = lazy(withAllTexts(() => import("./pages/DashboardPage")));
const GalleryPage = lazy(withAllTexts(() => import("./pages/GalleryPage")));
const AdminPage = lazy(withAllTexts(() => import("./pages/AdminPage")));
const PricingPage = lazy(withAllTexts(() => import("./pages/PricingPage")));
const PerformancePage = lazy(withAllTexts(() => import("./pages/PerformancePage")));
const FeaturesPage = lazy(withAllTexts(() => import("./pages/FeaturesPage")));
const GuidePage = lazy(withAllTexts(() => import("./pages/GuidePage")));
const AiLabPage = lazy(withAllTexts(() => import("./pages/AiLabPage")));
const StatusPage = lazy(withAllTexts(() => import("./pages/StatusPage")));
const ProfilePage = lazy(withAllTexts(() => import("./pages/ProfilePage")));
const ModificationStudioPage = lazy(withAllTexts(() => import("./pages/ModificationStudioPage")));
export const NotFound = lazy(withAllTexts(() => import("./pages/NotFound")));

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
