/**
 * /auth/google and its callback (state and PKCE verifier kept in 10-minute HttpOnly cookies).
 * The callback links the Google identity to the account with the same verified e-mail, or creates
 * one, and lands on /dashboard (or the two-factor step).
 */
import express, { type Router } from "express";
import { beginGoogleSignIn, finishGoogleSignIn, googleConfigured, type GoogleClaims } from "../auth/google";
import type { Env } from "../env";
import { DomainError } from "../errors";
import type { Logger } from "../logger";
import type { AccountsService } from "../services/accounts";
import { readCookie, readSessionToken, readVisitorId, setFlowCookie, setSessionCookie } from "./cookies";
import { requestBaseUrl } from "./identity";
import { requestInfo } from "./request-info";
import { requestLanguage } from "./request-language";

const STATE_COOKIE = "google_oauth_state";
const VERIFIER_COOKIE = "google_code_verifier";
const TEN_MINUTES_S = 600;

export function googleRoutes(deps: { env: Env; log: Logger; accounts: AccountsService }): Router {
  const { env, log, accounts } = deps;
  const routes = express.Router();

  routes.get("/auth/google", (req, res) => {
    if (!googleConfigured(env)) return res.redirect(303, "/auth?error=google_not_configured");
    const { url, state, codeVerifier } = beginGoogleSignIn(env, requestBaseUrl(req, env));
    setFlowCookie(req, res, env, STATE_COOKIE, state, TEN_MINUTES_S);
    setFlowCookie(req, res, env, VERIFIER_COOKIE, codeVerifier, TEN_MINUTES_S);
    res.set("Cache-Control", "no-store");
    return res.redirect(302, url.toString());
  });

  routes.get("/auth/google/callback", async (req, res) => {
    res.set("Cache-Control", "no-store");
    // The flow's cookies are single use.
    setFlowCookie(req, res, env, STATE_COOKIE, "", 0);
    setFlowCookie(req, res, env, VERIFIER_COOKIE, "", 0);
    const fail = (reason: string, error?: unknown) => {
      log.warn("Google sign-in failed", { reason, error: error instanceof Error ? error.message : error });
      return res.redirect(303, "/auth?error=google_failed");
    };
    if (!googleConfigured(env)) return res.redirect(303, "/auth?error=google_not_configured");
    const code = typeof req.query.code === "string" ? req.query.code : null;
    const state = typeof req.query.state === "string" ? req.query.state : null;
    const storedState = readCookie(req, STATE_COOKIE);
    const codeVerifier = readCookie(req, VERIFIER_COOKIE);
    if (!code || !state || !storedState || !codeVerifier || state !== storedState) return fail("state mismatch or missing code");

    let claims: GoogleClaims;
    try {
      claims = await finishGoogleSignIn(env, requestBaseUrl(req, env), code, codeVerifier);
    } catch (error) {
      return fail("code exchange", error);
    }
    if (!claims.sub || !claims.email || claims.email_verified !== true) return fail("no verified e-mail");

    try {
      const result = await accounts.signInWithGoogle({ sub: claims.sub, email: claims.email, name: claims.name });
      // The fragment never reaches a server log.
      if (result.status === "two-factor-required")
        return res.redirect(303, `/auth#twoFactorChallenge=${encodeURIComponent(result.challengeToken)}`);
      const { token, session } = await accounts.completeSignIn({
        userId: result.userId,
        rememberMe: false,
        previousToken: readSessionToken(req, env) ?? null,
        visitorId: readVisitorId(req),
        request: requestInfo(req),
        language: requestLanguage(req),
      });
      setSessionCookie(req, res, env, token, session.persistent ? session.expiresAt : undefined);
      return res.redirect(303, "/dashboard");
    } catch (error) {
      if (error instanceof DomainError && error.messageName === "accountDisabled") return fail("account disabled");
      return fail("account linking", error);
    }
  });

  return routes;
}
