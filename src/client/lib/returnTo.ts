/**
 * Where to go after signing in (spec §4): the protected page a visitor was sent away from,
 * kept in sessionStorage by ProtectedRoute and read once.
 */
import { STORAGE_KEYS } from "../../shared/constants";

export const DEFAULT_AFTER_SIGN_IN = "/dashboard";

/** Only a path of this site: never "//host" or "https://…", which would leave the site. */
export function safeReturnPath(value: string | null): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  return value === "/auth" || value.startsWith("/auth?") ? null : value;
}

/** Reads and clears the stored path; the dashboard when there is none. */
export function takeReturnTo(): string {
  let stored: string | null = null;
  try {
    stored = sessionStorage.getItem(STORAGE_KEYS.returnTo);
    sessionStorage.removeItem(STORAGE_KEYS.returnTo);
  } catch {
    // Without storage there is nothing to return to.
  }
  return safeReturnPath(stored) ?? DEFAULT_AFTER_SIGN_IN;
}
