import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation } from "wouter";
import { authEvents } from "../lib/authEvents";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

/** Sign Out of the navigation bar: ends the session on the server, then goes home (spec §2, §8). */
export function useSignOut() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { mutateAsync, isPending } = trpc.auth.signOut.useMutation();

  const signOut = useCallback(async () => {
    try {
      await mutateAsync();
    } catch (error) {
      toast.error(t("toasts.signOutFailed"), { description: friendlyError(error, t) });
      return;
    }
    // Home first: a protected page still on screen would otherwise send the visitor to /auth.
    navigate("/");
    authEvents.emit({ type: "SIGNED_OUT", reason: "user" });
    toast.success(t("toasts.signedOut"), { description: t("toasts.signedOutDescription") });
  }, [mutateAsync, navigate, t]);

  return { signOut, isPending };
}
