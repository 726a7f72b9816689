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
} as const;

export type MessageName = keyof typeof MESSAGES;

/** The name of a known server message, for looking up its translation. */
export function messageName(message: string): MessageName | undefined {
  return (Object.keys(MESSAGES) as MessageName[]).find((name) => MESSAGES[name] === message);
}
