/**
 * The idle session of spec §4: activity keeps the session alive, a warning comes 5 minutes before
 * the end, and at the end the user is signed out. The deadline is the server's
 * (session.idleExpiresAt); lib/idleSession decides what is due. Remember-me sessions have no idle
 * deadline and nothing happens. Mounted once, by components/IdleSession (signed in only).
 */
import { useCallback, useEffect, useRef } from "react";
import { toast } from "sonner";
import { AUTH } from "../../shared/constants";
import i18n from "../i18n";
import { authEvents } from "../lib/authEvents";
import { friendlyError } from "../lib/friendlyError";
import { idleState, minutesLeft, nextCheckInMs, shouldExtend } from "../lib/idleSession";
import { trpc } from "../trpc";
import { useSession } from "./useSession";
import { serverNow } from "../lib/serverClock";

/** Spec §4: mouse, key, scroll, touch and click count as activity. */
const ACTIVITY_EVENTS = ["mousemove", "keydown", "scroll", "touchstart", "click"] as const;
export const IDLE_WARNING_TOAST_ID = "idle-session-warning";

export function useIdleSession(): void {
  const utils = trpc.useUtils();
  const { user, session } = useSession();
  const idleExpiresAt = user ? (session?.idleExpiresAt ?? null) : null;

  const lastExtendAt = useRef<number | null>(null);
  const extending = useRef(false);
  // Deadlines already warned about or ended, so a re-run of the effect does not repeat them.
  const warnedFor = useRef<number | null>(null);
  const expiredFor = useRef<number | null>(null);

  // Toasts use i18n.t: they fire from timers, long after any render's `t` was current.
  const extend = useCallback(
    async (manual: boolean) => {
      // Activity waits for a pending call; the warning's button always goes through.
      if (extending.current && !manual) return;
      extending.current = true;
      lastExtendAt.current = serverNow();
      try {
        const next = await utils.client.auth.extendSession.mutate();
        authEvents.emit({ type: "TOKEN_REFRESHED", session: next });
        if (manual) {
          toast.dismiss(IDLE_WARNING_TOAST_ID);
          toast.success(i18n.t("session.extended"), { description: i18n.t("session.extendedDescription") });
        }
      } catch (error) {
        if (manual) toast.error(i18n.t("session.extendFailed"), { description: friendlyError(error, i18n.t) });
        // Perhaps the session is gone on the server (ended elsewhere): ask what is true now.
        void utils.auth.session.invalidate();
      } finally {
        extending.current = false;
      }
    },
    [utils],
  );

  const expire = useCallback(async () => {
    try {
      await utils.client.auth.signOut.mutate();
    } catch {
      // The server ends an idle session on its own; the tab signs out either way.
    }
    authEvents.emit({ type: "SIGNED_OUT", reason: "idle" });
    toast.error(i18n.t("session.expired"), { description: i18n.t("session.expiredDescription") });
  }, [utils]);

  useEffect(() => {
    if (idleExpiresAt === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const check = () => {
      clearTimeout(timer);
      const state = idleState(serverNow(), idleExpiresAt);
      if (state.phase === "expired") {
        toast.dismiss(IDLE_WARNING_TOAST_ID);
        if (expiredFor.current !== idleExpiresAt) {
          expiredFor.current = idleExpiresAt;
          void expire();
        }
        return;
      }
      if (state.phase === "warning" && warnedFor.current !== idleExpiresAt) {
        warnedFor.current = idleExpiresAt;
        toast.warning(i18n.t("session.expiringSoon"), {
          id: IDLE_WARNING_TOAST_ID,
          description: i18n.t("session.expiringSoonDescription", { count: minutesLeft(state.msUntilExpiry) }),
          duration: AUTH.idleWarningToastMs,
          action: { label: i18n.t("session.extend"), onClick: () => void extend(true) },
        });
      }
      const delay = nextCheckInMs(state);
      if (delay !== null) timer = setTimeout(check, delay);
    };

    // Activity extends quietly. While the warning shows it stays up (reaching for its button is
    // activity too, and must not pull the button away); it closes on its own after 10 s.
    const onActivity = () => {
      const now = serverNow();
      // Activity after the deadline (a sleeping laptop, a throttled tab) ends the session, it does not revive it.
      if (idleState(now, idleExpiresAt).phase === "expired") return check();
      if (shouldExtend({ now, idleExpiresAt, lastExtendAt: lastExtendAt.current, pending: extending.current })) {
        void extend(false);
      }
    };
    // Timers of hidden tabs are throttled; coming back decides at once (signing out after expiry).
    const onVisibilityChange = () => {
      if (document.visibilityState === "visible") check();
    };

    check();
    const options = { capture: true, passive: true } as const;
    for (const type of ACTIVITY_EVENTS) document.addEventListener(type, onActivity, options);
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) document.removeEventListener(type, onActivity, options);
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, [idleExpiresAt, extend, expire]);

  // Signed out, or a remember-me session: a warning on screen no longer applies.
  useEffect(() => {
    if (idleExpiresAt === null) toast.dismiss(IDLE_WARNING_TOAST_ID);
  }, [idleExpiresAt]);
}
