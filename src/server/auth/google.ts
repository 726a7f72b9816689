/**
 * Google sign-in with Arctic: the authorization code flow with state and PKCE. The routes that
 * run the flow live in http/google-routes.ts; linking the identity to an account is the accounts
 * service's.
 */
import { Google, decodeIdToken, generateCodeVerifier, generateState } from "arctic";
import type { Env } from "../env";

export type GoogleEnv = Pick<Env, "GOOGLE_CLIENT_ID" | "GOOGLE_CLIENT_SECRET">;

export function googleConfigured(env: GoogleEnv): boolean {
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
}

function client(env: GoogleEnv, baseUrl: string): Google {
  return new Google(env.GOOGLE_CLIENT_ID!, env.GOOGLE_CLIENT_SECRET!, `${baseUrl}/auth/google/callback`);
}

/** Where to send the browser, with the state and code verifier to keep for the callback. */
export function beginGoogleSignIn(env: GoogleEnv, baseUrl: string): { url: URL; state: string; codeVerifier: string } {
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  return { url: client(env, baseUrl).createAuthorizationURL(state, codeVerifier, ["openid", "profile", "email"]), state, codeVerifier };
}

export interface GoogleClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** Exchanges the callback's code for the identity's claims. */
export async function finishGoogleSignIn(env: GoogleEnv, baseUrl: string, code: string, codeVerifier: string): Promise<GoogleClaims> {
  const tokens = await client(env, baseUrl).validateAuthorizationCode(code, codeVerifier);
  // The ID token came straight from Google's token endpoint over TLS: no signature check needed.
  return decodeIdToken(tokens.idToken()) as GoogleClaims;
}
