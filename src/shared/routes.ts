/**
 * The route table of spec section 2. The client registers a page for each path;
 * the server answers these paths with the app (200) and anything else with the
 * app's 404 page (status 404).
 */

export type RouteAccess = "public" | "protected";

export interface AppRoute {
  path: string;
  access: RouteAccess;
}

export const APP_ROUTES = [
  { path: "/", access: "public" },
  { path: "/auth", access: "public" },
  { path: "/upload", access: "public" },
  { path: "/batch-upload", access: "public" },
  { path: "/style-select", access: "public" },
  { path: "/render", access: "public" },
  { path: "/pricing", access: "public" },
  { path: "/features", access: "public" },
  { path: "/gallery", access: "public" },
  { path: "/ai-lab", access: "public" },
  { path: "/test", access: "public" },
  { path: "/performance", access: "public" },
  { path: "/guide", access: "public" },
  { path: "/user-guide", access: "public" },
  // Not in spec section 2: the studio's own terms and privacy texts (/admin → Studio, issue 16).
  { path: "/terms", access: "public" },
  { path: "/privacy", access: "public" },
  // Not in spec section 2: a client's review link (issue 28), opened without an account.
  { path: "/review/:token", access: "public" },
  // Not in spec section 2: a portfolio page of the social hub (issue 32), public.
  { path: "/p/:handle", access: "public" },
  // Not in spec section 2: an invitation into a team (issue 28), opened from its mail (?token=…).
  { path: "/invite", access: "public" },
  // Not in spec section 2: a published render's share link (issue 32, decision 106).
  { path: "/s/:id", access: "public" },
  { path: "/dashboard", access: "protected" },
  { path: "/enhanced-dashboard", access: "protected" },
  { path: "/social-hub", access: "protected" },
  { path: "/admin", access: "protected" },
  { path: "/teams", access: "protected" },
  { path: "/clients", access: "protected" },
  { path: "/profile", access: "protected" },
  { path: "/settings", access: "protected" },
  { path: "/community", access: "protected" },
  { path: "/marketplace", access: "protected" },
  { path: "/developers", access: "protected" },
  // Not in spec section 2: the styles of a user's or a team's own (issue 32).
  { path: "/styles", access: "protected" },
  { path: "/modification-studio", access: "protected" },
] as const satisfies readonly AppRoute[];

export type AppPath = (typeof APP_ROUTES)[number]["path"];

const knownPaths = new Set<string>(APP_ROUTES.filter((route) => !route.path.includes(":")).map((route) => route.path));
/** Routes with a parameter (":token"): one path segment of letters, digits, "-" or "_" in its place. */
const patterns = APP_ROUTES.filter((route) => route.path.includes(":")).map(
  (route) => new RegExp(`^${route.path.replace(/:\w+/g, "[A-Za-z0-9_-]+")}$`),
);

/** True when the path (without query or trailing slash) is one of the app's pages. */
export function isAppPath(pathname: string): boolean {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return knownPaths.has(normalized) || patterns.some((pattern) => pattern.test(normalized));
}

/**
 * Pages from which no analytics leave the device: a client's review link (issue 28) is opened by
 * someone who has no account and agreed to nothing.
 */
export function isUntrackedPath(pathname: string): boolean {
  return /^\/review\//.test(pathname);
}
