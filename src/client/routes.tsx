import { lazy, type ComponentType } from "react";
import type { AppPath } from "../shared/routes";
import { lazyWithData, type LazyPart } from "./lazy";

/**
 * The landing page needs only the texts loaded first (i18n's first part) and reads its queries
 * through lib/queries; every other page waits for the rest of its language's texts and comes with
 * the data layer (lazy.tsx). Once loaded the landing page renders without suspending: main.tsx
 * loads it before hydrating the pre-rendered page, which must not wait in a Suspense boundary
 * while the page's queries answer (the boundary would then hydrate against different data: a
 * mismatch).
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
const SettingsPage = lazyWithData(() => import("./pages/SettingsPage"));
const AuthPage = lazyWithData(() => import("./pages/AuthPage"));
const UploadPage = lazyWithData(() => import("./pages/UploadPage"));
const BatchUploadPage = lazyWithData(() => import("./pages/BatchUploadPage"));
const StyleSelectPage = lazyWithData(() => import("./pages/StyleSelectPage"));
const RenderPage = lazyWithData(() => import("./pages/RenderPage"));
const DashboardPage = lazyWithData(() => import("./pages/DashboardPage"));
const EnhancedDashboardPage = lazyWithData(() => import("./pages/EnhancedDashboardPage"));
const GalleryPage = lazyWithData(() => import("./pages/GalleryPage"));
const CommunityPage = lazyWithData(() => import("./pages/CommunityPage"));
const AdminPage = lazyWithData(() => import("./pages/AdminPage"));
const PricingPage = lazyWithData(() => import("./pages/PricingPage"));
const PerformancePage = lazyWithData(() => import("./pages/PerformancePage"));
const FeaturesPage = lazyWithData(() => import("./pages/FeaturesPage"));
const GuidePage = lazyWithData(() => import("./pages/GuidePage"));
const AiLabPage = lazyWithData(() => import("./pages/AiLabPage"));
const StatusPage = lazyWithData(() => import("./pages/StatusPage"));
const ProfilePage = lazyWithData(() => import("./pages/ProfilePage"));
const ModificationStudioPage = lazyWithData(() => import("./pages/ModificationStudioPage"));
const ClientsPage = lazyWithData(() => import("./pages/ClientsPage"));
const LegalPage = lazyWithData(() => import("./pages/LegalPage"));
const ReviewPage = lazyWithData(() => import("./pages/ReviewPage"));
const SharePage = lazyWithData(() => import("./pages/SharePage"));
const TeamsPage = lazyWithData(() => import("./pages/TeamsPage"));
const InvitePage = lazyWithData(() => import("./pages/InvitePage"));
const DevelopersPage = lazyWithData(() => import("./pages/DevelopersPage"));
const StylesPage = lazyWithData(() => import("./pages/StylesPage"));
const MarketplacePage = lazyWithData(() => import("./pages/MarketplacePage"));
const SocialHubPage = lazyWithData(() => import("./pages/SocialHubPage"));
const PortfolioPage = lazyWithData(() => import("./pages/PortfolioPage"));
const TermsPage = () => <LegalPage page="terms" />;
TermsPage.displayName = "LegalPage(terms)";
const PrivacyPage = () => <LegalPage page="privacy" />;
PrivacyPage.displayName = "LegalPage(privacy)";
export const NotFound = lazyWithData(() => import("./pages/NotFound"));

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
  "/terms": TermsPage,
  "/privacy": PrivacyPage,
  "/review/:token": ReviewPage,
  "/p/:handle": PortfolioPage,
  "/invite": InvitePage,
  "/s/:id": SharePage,
  "/dashboard": DashboardPage,
  "/enhanced-dashboard": EnhancedDashboardPage,
  "/social-hub": SocialHubPage,
  "/admin": AdminPage,
  "/teams": TeamsPage,
  "/clients": ClientsPage,
  "/profile": ProfilePage,
  "/settings": SettingsPage,
  "/community": CommunityPage,
  "/marketplace": MarketplacePage,
  "/developers": DevelopersPage,
  "/styles": StylesPage,
  "/modification-studio": ModificationStudioPage,
};

/** Each lazily loaded page's loader, to fetch it ahead of a click (lib/prefetchLinks). */
const PRELOADS: Partial<Record<AppPath, Pick<LazyPart<object>, "preload">>> = {
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
  "/user-guide": GuidePage,
  "/terms": LegalPage,
  "/privacy": LegalPage,
  "/invite": InvitePage,
  "/dashboard": DashboardPage,
  "/enhanced-dashboard": EnhancedDashboardPage,
  "/social-hub": SocialHubPage,
  "/admin": AdminPage,
  "/teams": TeamsPage,
  "/clients": ClientsPage,
  "/profile": ProfilePage,
  "/settings": SettingsPage,
  "/community": CommunityPage,
  "/marketplace": MarketplacePage,
  "/developers": DevelopersPage,
  "/styles": StylesPage,
  "/modification-studio": ModificationStudioPage,
};

/** Starts fetching the page of `path` (its code, texts and the data layer), if it is one of the app's. */
export function preloadPage(path: string): void {
  void PRELOADS[path as AppPath]?.preload().catch(() => {
    // The click that follows shows the error screen, with its Refresh.
  });
}
