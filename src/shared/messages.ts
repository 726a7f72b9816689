/**
 * Messages the server sends, word for word as the spec writes them (section 8 and 7).
 * The client translates known messages through i18n (key "serverMessages.<name>") and shows
 * any other message unchanged.
 */
export const MESSAGES = {
  notAuthenticated: "User not authenticated",
  adminRequired: "Access denied. Admin privileges required.",
  missingRequiredFields: "Missing required fields",
  internalError: "Something went wrong on our side. Please try again.",
  // Provider-style messages of spec section 8; the client maps them to the friendly texts.
  invalidCredentials: "Invalid login credentials",
  emailNotConfirmed: "Email not confirmed",
  userAlreadyRegistered: "User already registered",
  tooManyRequests: "Too many requests",
  invalidVerificationCode: "Invalid verification code",
  resetLinkInvalid: "This password reset link is invalid or has expired",
  confirmationLinkInvalid: "This confirmation link is invalid or has expired",
  twoFactorChallengeExpired: "Your sign-in has expired. Please sign in again.",
  sessionExpired: "Your session has expired. Please sign in again.",
  currentPasswordWrong: "Your current password is incorrect",
  accountDisabled: "This account has been disabled",
  crossSiteRequest: "Cross-site request refused",
} as const;

export type MessageName = keyof typeof MESSAGES;

/** The name of a known server message, for looking up its translation. */
export function messageName(message: string): MessageName | undefined {
  return (Object.keys(MESSAGES) as MessageName[]).find((name) => MESSAGES[name] === message);
}
