/**
 * The idle session's timers (useIdleSession), for a signed-in user only, and not in the first
 * load: the deadline is minutes away, so they arrive with the data layer (SessionEffects).
 */
import { useEffect } from "react";
import { toast } from "sonner";
import { IDLE_WARNING_TOAST_ID, useIdleSession } from "../hooks/useIdleSession";

export default function IdleSession() {
  useIdleSession();
  // Signed out (this goes away then): a warning on screen no longer applies.
  useEffect(
    () => () => {
      toast.dismiss(IDLE_WARNING_TOAST_ID);
    },
    [],
  );
  return null;
}
