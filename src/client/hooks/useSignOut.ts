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
    // From here no query leaves (trpc.ts): the session is about to end. The visitor's view first,
    // then home (lib/signOutHome).
    const shown = beginSignOutHome();
    try {
      const { trpcClient, queryClient } = await loadData();
      // The session's requests still on their way would be answered 401 once it ends: stop them first.
      await queryClient.cancelQueries();
      await trpcClient.auth.signOut.mutate();
    } catch (error) {
      endSignOutHome();
      notify(({ toast, friendlyError }) => toast.error(t("toasts.signOutFailed"), { description: friendlyError(error, t) }));
      return;
    } finally {
      setPending(false);
    }
    authEvents.emit({ type: "SIGNED_OUT", reason: "user" });
    await shown;
    navigate("/");
    endSignOutHome();
    notify(({ toast }) => toast.success(t("toasts.signedOut"), { description: t("toasts.signedOutDescription") }));
  }, [navigate, t]);

  return { signOut, isPending };
}
