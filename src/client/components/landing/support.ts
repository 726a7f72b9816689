/** The studio's support mailbox (SUPPORT_EMAIL, from system.info) and mail links to it. */
import { useSharedQuery } from "../../lib/queries";

/** The support address, or undefined while it is on its way. */
export function useSupportEmail(): string | undefined {
  return useSharedQuery("system.info").data?.supportEmail;
}

/** mailto: the address, with a subject line when given. */
export function mailtoHref(email: string, subject?: string): string {
  return `mailto:${email}${subject ? `?subject=${encodeURIComponent(subject)}` : ""}`;
}
