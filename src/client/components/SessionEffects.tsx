import { useAuthEventReactions } from "../hooks/useAuthEventReactions";
import { useEmailConfirmationLink } from "../hooks/useEmailConfirmationLink";
import { useIdleSession } from "../hooks/useIdleSession";

/** The app-wide account behaviour that has no screen of its own; rendered once, in App. */
export function SessionEffects() {
  useAuthEventReactions();
  useIdleSession();
  useEmailConfirmationLink();
  return null;
}
