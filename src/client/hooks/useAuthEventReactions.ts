/**
 * How the app reacts to auth events (lib/authEvents): the session the app reads follows them, an
 * account's data does not outlive its sign-out, and other tabs hear about them. Mounted once, in
 * App. Through lib/queries, which hands the changes to React Query once it is loaded.
 */
import { useEffect, useRef } from "react";
import { connectAuthBroadcast, openAuthChannel } from "../lib/authBroadcast";
import { authEvents } from "../lib/authEvents";
import { invalidateShared, removeSharedExcept, setSharedData } from "../lib/queries";
import { visitorShown } from "../lib/signOutHome";
import { useSession } from "./useSession";

export function useAuthEventReactions(): void {
  const { user, isLoading } = useSession();
  const signedIn = useRef(false);
  signedIn.current = user !== null;
  // The account's data is dropped once every screen shows the visitor: the session reaches the
  // screens as a transition, and a screen still rendered as the account would fetch a dropped
  // query again and be refused (401).
  const dropAccountData = useRef(false);

  useEffect(
    () =>
      authEvents.subscribe((event) => {
        switch (event.type) {
          case "SIGNED_IN":
            // Everything cached so far was fetched as a visitor (or as someone else).
            invalidateShared();
            break;
          case "SIGNED_OUT":
            // The session first, so the screens switch to the visitor's view; then (below, once
            // they show it) no data of the account stays in this tab's memory.
            setSharedData("auth.session", () => ({ user: null, session: null }));
            if (signedIn.current) dropAccountData.current = true;
            else {
              removeSharedExcept("auth.session");
              visitorShown();
            }
            break;
          case "TOKEN_REFRESHED":
            setSharedData("auth.session", (old) =>
              old?.user && old.session ? { ...old, session: { ...old.session, ...event.session } } : old,
            );
            break;
          case "USER_UPDATED":
            invalidateShared("auth.session");
            break;
          default:
            // INITIAL_SESSION, PASSWORD_RECOVERY and MFA_CHALLENGE_VERIFIED change nothing cached.
            break;
        }
      }),
    [],
  );

  useEffect(() => {
    if (user !== null || !dropAccountData.current) return;
    dropAccountData.current = false;
    removeSharedExcept("auth.session");
    visitorShown();
  }, [user]);

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
