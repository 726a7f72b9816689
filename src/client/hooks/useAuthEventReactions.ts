/**
 * How the app reacts to auth events (lib/authEvents): the session in the query cache follows
 * them, an account's data does not outlive its sign-out, and other tabs hear about them.
 * Mounted once, in App.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { connectAuthBroadcast, openAuthChannel } from "../lib/authBroadcast";
import { authEvents } from "../lib/authEvents";
import { trpc } from "../trpc";
import { useSession } from "./useSession";

/** tRPC keys queries as [["auth", "session"], …]. */
function isSessionQuery(queryKey: readonly unknown[]): boolean {
  const path = queryKey[0];
  return Array.isArray(path) && path[0] === "auth" && path[1] === "session";
}

export function useAuthEventReactions(): void {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const { user, isLoading } = useSession();

  useEffect(
    () =>
      authEvents.subscribe((event) => {
        switch (event.type) {
          case "SIGNED_IN":
            // Everything cached so far was fetched as a visitor (or as someone else).
            void utils.invalidate();
            break;
          case "SIGNED_OUT":
            // The session first, so the screens switch to the visitor's view; then no data of
            // the account stays in this tab's memory.
            utils.auth.session.setData(undefined, { user: null, session: null });
            queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query.queryKey) });
            queryClient.getMutationCache().clear();
            break;
          case "TOKEN_REFRESHED":
            utils.auth.session.setData(undefined, (old) =>
              old?.user && old.session ? { ...old, session: { ...old.session, ...event.session } } : old,
            );
            break;
          case "USER_UPDATED":
            void utils.auth.session.invalidate();
            break;
          default:
            // INITIAL_SESSION, PASSWORD_RECOVERY and MFA_CHALLENGE_VERIFIED change nothing cached.
            break;
        }
      }),
    [utils, queryClient],
  );

  useEffect(() => {
    const channel = openAuthChannel();
    return channel ? connectAuthBroadcast(authEvents, channel) : undefined;
  }, []);

  // The first answer about the session is the "initial session" event.
  const announced = useRef(false);
  useEffect(() => {
    if (isLoading || announced.current) return;
    announced.current = true;
    authEvents.emit({ type: "INITIAL_SESSION", signedIn: user !== null });
  }, [isLoading, user]);
}
