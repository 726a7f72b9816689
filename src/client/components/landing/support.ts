/** The studio's support mailbox (/admin → Studio, or SUPPORT_EMAIL) and mail links to it. */
import { useStudio } from "../../lib/studio";

/** The support address (written into the page by the server: known at the first render). */
export function useSupportEmail(): string {
  return useStudio().supportEmail;
}

/** mailto: the address, with a subject line when given. */
export function mailtoHref(email: string, subject?: string): string {
  return `mailto:${email}${subject ? `?subject=${encodeURIComponent(subject)}` : ""}`;
}
