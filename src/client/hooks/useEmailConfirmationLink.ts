/**
 * The sign-up mail's link is confirmed by the server (GET /auth/confirm), which lands on
 * "/?emailConfirmed=1" ("already" when the address was confirmed before, 0 when the link was
 * invalid or expired). This says how it went,
 * refreshes the user (the verification banner goes away) and tidies the address bar.
 */
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearch } from "wouter";
import { AUTH_LINKS } from "../lib/authLinks";
import { authEvents } from "../lib/authEvents";
import { notify } from "../lib/notify";

export function useEmailConfirmationLink(): void {
  const { t } = useTranslation();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const outcome = new URLSearchParams(search).get(AUTH_LINKS.emailConfirmedParam);

  useEffect(() => {
    if (outcome === null) return;
    const rest = new URLSearchParams(search);
    rest.delete(AUTH_LINKS.emailConfirmedParam);
    navigate(rest.size > 0 ? `${location}?${rest}` : location, { replace: true });
    // Fixed ids: one toast even when StrictMode runs the effect twice.
    if (outcome === "1") {
      authEvents.emit({ type: "USER_UPDATED" });
      notify(({ toast }) =>
        toast.success(t("toasts.emailConfirmed"), { id: "email-confirmed", description: t("toasts.emailConfirmedDescription") }),
      );
    } else if (outcome === "already") {
      // The link opened again after it worked: nothing failed.
      authEvents.emit({ type: "USER_UPDATED" });
      notify(({ toast }) =>
        toast.success(t("flows.emailConfirm.alreadyTitle"), { id: "email-confirmed", description: t("flows.emailConfirm.alreadyBody") }),
      );
    } else {
      notify(({ toast, translateServerMessage, MESSAGES }) =>
        toast.error(t("toasts.emailConfirmationFailed"), {
          id: "email-confirmed",
          description: translateServerMessage(MESSAGES.confirmationLinkInvalid, t),
        }),
      );
    }
  }, [outcome, search, location, navigate, t]);
}
