/**
 * Google sign-in with Arctic (authorization code flow with state and PKCE, both kept in
 * 10-minute HttpOnly cookies). The callback links the Google identity to the account with the
 * same verified e-mail, or creates one, and lands on /dashboard (or the two-factor step).
 */
import { Google, decodeIdToken, generateCodeVerifier, generateState } from "arctic";
import { serialize } from "cookie";
import type { Request, Response, Router } from "express";
import express from "express";
import type { AppDeps } from "../deps";
import { createProfile, createTwoFactorChallenge, ensureProfile, findUserByEmail } from "../services/accounts";
import { isSecureRequest, readCookie, startBrowserSession } from "./cookies";
import { generateSecureRandomString } from "./tokens";
import { twoFactorEnabled } from "./two-factor";

const STATE_COOKIE = "google_oauth_state";
const VERIFIER_COOKIE = "google_code_verifier";
const TEN_MINUTES_S = 600;

export function googleConfigured(deps: AppDeps): boolean {
  return Boolean(deps.env.GOOGLE_CLIENT_ID && deps.env.GOOGLE_CLIENT_SECRET);
}

function baseUrl(deps: AppDeps, req: Request): string {
  return deps.env.PUBLIC_URL?.replace(/\/+$/, "") ?? `${req.protocol}://${req.get("host")}`;
}

function client(deps: AppDeps, req: Request): Google {
  return new Google(deps.env.GOOGLE_CLIENT_ID!, deps.env.GOOGLE_CLIENT_SECRET!, `${baseUrl(deps, req)}/auth/google/callback`);
}

function setFlowCookie(req: Request, res: Response, deps: AppDeps, name: string, value: string, maxAge: number): void {
  res.append(
    "Set-Cookie",
    serialize(name, value, { httpOnly: true, sameSite: "lax", path: "/", secure: isSecureRequest(req, deps.env), maxAge }),
  );
}

interface GoogleClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** The user for a verified Google identity: linked before, same e-mail, or new. */
async function userForGoogle(deps: AppDeps, claims: GoogleClaims & { email: string }): Promise<string> {
  const linked = await deps.db
    .selectFrom("user_identities")
    .select("user_id")
    .where("provider", "=", "google")
    .where("provider_user_id", "=", claims.sub)
    .executeTakeFirst();
  if (linked) return linked.user_id;

  const now = deps.clock.now();
  const existing = await findUserByEmail(deps, claims.email);
  const userId = existing?.id ?? generateSecureRandomString();
  await deps.db.transaction().execute(async (trx) => {
    if (!existing) {
      await trx
        .insertInto("users")
        .values({ id: userId, email: claims.email, email_confirmed_at: now, password_hash: null, created_at: now, updated_at: now })
        .execute();
      await createProfile(trx, { id: userId, email: claims.email }, claims.name, now);
    } else if (existing.email_confirmed_at === null) {
      // Google vouches for the address.
      await trx.updateTable("users").set({ email_confirmed_at: now, updated_at: now }).where("id", "=", userId).execute();
    }
    await trx
      .insertInto("user_identities")
      .values({ provider: "google", provider_user_id: claims.sub, user_id: userId, email: claims.email, created_at: now })
      .execute();
  });
  return userId;
}

export function googleRoutes(deps: AppDeps): Router {
  const routes = express.Router();

  routes.get("/auth/google", (req, res) => {
    if (!googleConfigured(deps)) return res.redirect(303, "/auth?error=google_not_configured");
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const url = client(deps, req).createAuthorizationURL(state, codeVerifier, ["openid", "profile", "email"]);
    setFlowCookie(req, res, deps, STATE_COOKIE, state, TEN_MINUTES_S);
    setFlowCookie(req, res, deps, VERIFIER_COOKIE, codeVerifier, TEN_MINUTES_S);
    res.set("Cache-Control", "no-store");
    return res.redirect(302, url.toString());
  });

  routes.get("/auth/google/callback", async (req, res) => {
    res.set("Cache-Control", "no-store");
    // The flow's cookies are single use.
    setFlowCookie(req, res, deps, STATE_COOKIE, "", 0);
    setFlowCookie(req, res, deps, VERIFIER_COOKIE, "", 0);
    const fail = (reason: string, error?: unknown) => {
      deps.log.warn("Google sign-in failed", { reason, error: error instanceof Error ? error.message : error });
      return res.redirect(303, "/auth?error=google_failed");
    };
    if (!googleConfigured(deps)) return res.redirect(303, "/auth?error=google_not_configured");
    const code = typeof req.query.code === "string" ? req.query.code : null;
    const state = typeof req.query.state === "string" ? req.query.state : null;
    const storedState = readCookie(req, STATE_COOKIE);
    const codeVerifier = readCookie(req, VERIFIER_COOKIE);
    if (!code || !state || !storedState || !codeVerifier || state !== storedState) return fail("state mismatch or missing code");

    let claims: GoogleClaims;
    try {
      const tokens = await client(deps, req).validateAuthorizationCode(code, codeVerifier);
      // The ID token came straight from Google's token endpoint over TLS: no signature check needed.
      claims = decodeIdToken(tokens.idToken()) as GoogleClaims;
    } catch (error) {
      return fail("code exchange", error);
    }
    if (!claims.sub || !claims.email || claims.email_verified !== true) return fail("no verified e-mail");

    try {
      const userId = await userForGoogle(deps, { ...claims, email: claims.email });
      const user = await deps.db
        .selectFrom("users")
        .select(["id", "email", "disabled_at"])
        .where("id", "=", userId)
        .executeTakeFirstOrThrow();
      if (user.disabled_at !== null) return fail("account disabled");
      await ensureProfile(deps, user).catch((error: unknown) => deps.log.error("profile creation at sign-in failed", { userId, error }));
      if (await twoFactorEnabled(deps, userId)) {
        // The fragment never reaches a server log.
        return res.redirect(303, `/auth#twoFactorChallenge=${encodeURIComponent(await createTwoFactorChallenge(deps, userId, false))}`);
      }
      await startBrowserSession(deps, req, res, userId, false);
      return res.redirect(303, "/dashboard");
    } catch (error) {
      return fail("account linking", error);
    }
  });

  return routes;
}
