import { Suspense } from "react";
import { useAuthEventReactions } from "../hooks/useAuthEventReactions";
import { useEmailConfirmationLink } from "../hooks/useEmailConfirmationLink";
import { useSession } from "../hooks/useSession";
import { lazyWithData } from "../lazy";

const IdleSession = lazyWithData(() => import("./IdleSession"));

/** The app-wide account behaviour that has no screen of its own; rendered once, in App. */
export function SessionEffects() {
  useAuthEventReactions();
  useEmailConfirmationLink();
  const { user } = useSession();
  return user ? (
    <Suspense fallback={null}>
      <IdleSession />
    </Suspense>
  ) : null;
}
