import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "wouter";
import { loadData } from "../lazy";
import { authEvents } from "../lib/authEvents";
import { notify } from "../lib/notify";
import { beginSignOutHome, endSignOutHome } from "../lib/signOutHome";

/**
 * Sign Out of the navigation bar: ends the session on the server, then goes home (spec §2, §8).
 * The bar is part of the first load, so the call goes through the data layer fetched on use.
 */
export function useSignOut() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [isPending, setPending] = useState(false);

  const signOut = useCallback(async () => {
    setPending(true);
    try {
      const { trpcClient } = await loadData();
      await trpcClient.auth.signOut.mutate();
    } catch (error) {
      notify(({ toast, friendlyError }) => toast.error(t("toasts.signOutFailed"), { description: friendlyError(error, t) }));
      return;
    } finally {
      setPending(false);
    }
    // The visitor's view first, then home (lib/signOutHome).
    const shown = beginSignOutHome();
    authEvents.emit({ type: "SIGNED_OUT", reason: "user" });
    await shown;
    navigate("/");
    endSignOutHome();
    notify(({ toast }) => toast.success(t("toasts.signedOut"), { description: t("toasts.signedOutDescription") }));
  }, [navigate, t]);

  return { signOut, isPending };
}
