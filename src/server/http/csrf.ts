/**
 * CSRF protection (Lucia's guide): every request that can change something (not GET/HEAD/OPTIONS)
 * must come from this site: Origin must match the host, or, without Origin, Sec-Fetch-Site must be
 * same-origin. Requests carrying neither are not from a browser (the CLI, tests, curl) and cannot
 * ride on a victim's cookies, so they pass. With PUBLIC_URL set, Origin must be exactly its origin
 * (scheme, host and port): an http:// page on the same host, or another port, is another site.
 */
import type { RequestHandler } from "express";
import { MESSAGES } from "../../shared/messages";
import type { Env } from "../env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function csrfProtection(env: Env): RequestHandler {
  const publicOrigin = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : null;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const fetchSite = req.headers["sec-fetch-site"];
    let allowed: boolean;
    if (origin !== undefined) {
      let parsed: URL | null = null;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = null;
      }
      allowed = parsed !== null && (publicOrigin !== null ? parsed.origin === publicOrigin : parsed.host === req.headers.host);
    } else if (fetchSite !== undefined) {
      allowed = fetchSite === "same-origin";
    } else {
      allowed = true;
    }
    if (!allowed) {
      res.status(403).json({ error: MESSAGES.crossSiteRequest });
      return;
    }
    next();
  };
}
