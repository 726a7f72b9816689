/**
 * Turns any error the client meets into the text a user should read (spec §8): the provider
 * messages of the "friendly mapping" table become their friendly texts, known server messages
 * are translated, and every other message is shown unchanged.
 * One function for the whole client, so every form and toast says the same thing.
 * (Validation messages are translated by lib/validationMessages, which the forms use: it needs
 * the zod schemas, which stay out of the app's first chunk this way.)
 */
import { MESSAGES, readMessage } from "../../shared/messages";

/** The translate function this module needs; react-i18next's `t` fits it. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Spec §8 "Friendly mapping of provider messages": the message contained → the text's key. */
const FRIENDLY_MAPPING: ReadonlyArray<{ message: string; key: string }> = [
  { message: MESSAGES.invalidCredentials, key: "friendlyErrors.invalidCredentials" },
  { message: MESSAGES.emailNotConfirmed, key: "friendlyErrors.emailNotConfirmed" },
  { message: MESSAGES.userAlreadyRegistered, key: "friendlyErrors.userAlreadyRegistered" },
  { message: "Password should be at least 6 characters", key: "friendlyErrors.passwordTooShort" },
  { message: "Invalid email", key: "friendlyErrors.invalidEmail" },
  { message: MESSAGES.tooManyRequests, key: "friendlyErrors.tooManyRequests" },
  { message: "Network request failed", key: "friendlyErrors.networkFailed" },
];

/**
 * What browsers (and Node's fetch) say when a request never reached the server. tRPC passes
 * these through as the error's message, so they all count as "Network request failed".
 */
const NETWORK_FAILURES = [
  "network request failed",
  "failed to fetch", // Chromium
  "networkerror when attempting to fetch resource", // Firefox
  "load failed", // Safari
  "fetch failed", // Node
  "network error",
];

/** The message of whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  if (error && typeof error === "object" && "message" in error && typeof error.message === "string") return error.message;
  return String(error);
}

export function isNetworkFailure(message: string): boolean {
  const lower = message.toLowerCase();
  return NETWORK_FAILURES.some((failure) => lower.includes(failure));
}

/** The i18n key of the friendly text for a provider message, or null when the table has none. */
export function friendlyErrorKey(message: string): string | null {
  if (isNetworkFailure(message)) return "friendlyErrors.networkFailed";
  // Contained, case-insensitive: providers add punctuation or detail ("… characters.").
  const lower = message.toLowerCase();
  return FRIENDLY_MAPPING.find((entry) => lower.includes(entry.message.toLowerCase()))?.key ?? null;
}

/**
 * Translates a server message the client knows (its English text, or a keyed message with
 * parameters: JSON {key, params}); any other message (an old row's free English text) is
 * returned unchanged.
 */
export function translateServerMessage(message: string, t: Translate): string {
  const known = readMessage(message);
  return known ? t(`serverMessages.${known.key}`, known.params) : message;
}

/** The text to show for an error: friendly mapping first, then translation, else the message itself. */
export function friendlyError(error: unknown, t: Translate): string {
  const message = errorMessage(error);
  // A keyed message's parameters (an engine's words) must not be taken for a provider message.
  if (message.startsWith("{")) return translateServerMessage(message, t);
  const key = friendlyErrorKey(message);
  return key ? t(key) : translateServerMessage(message, t);
}
