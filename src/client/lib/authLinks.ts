/**
 * Where the server's account links and redirects land, and what they carry:
 * - the sign-up mail's link (GET /auth/confirm) confirms and lands on /?emailConfirmed=1 (already, or 0);
 * - the reset mail's link is /auth?reset=true&token=…;
 * - Google sign-in starts at GET /auth/google; a failure lands on /auth?error=google_…, an account
 *   with two-factor on /auth#twoFactorChallenge=… (a fragment, so the token never reaches a log).
 */
export const AUTH_LINKS = {
  emailConfirmedParam: "emailConfirmed",
  resetParam: "reset",
  /** /auth?tab=signup opens the sign-up tab (the render flow's "Sign up" calls to action). */
  tabParam: "tab",
  signUpTab: "signup",
  /** /auth?email=… fills in the address (an invitation's page sends the invited address). */
  emailParam: "email",
  resetTokenParam: "token",
  errorParam: "error",
  twoFactorChallengeFragment: "twoFactorChallenge",
  googleSignInPath: "/auth/google",
} as const;

/** The ?error= values of a failed Google sign-in. */
export const GOOGLE_ERRORS = { notConfigured: "google_not_configured", failed: "google_failed" } as const;

/** The challenge token in a fragment like "#twoFactorChallenge=abc", or null. */
export function challengeFromHash(hash: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, "")).get(AUTH_LINKS.twoFactorChallengeFragment);
  return value ? value : null;
}

/** Where "sign up" leads: the auth page on its sign-up tab. */
export const SIGN_UP_HREF = "/auth?tab=signup";
