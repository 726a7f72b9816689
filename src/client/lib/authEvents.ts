/**
 * The auth events of spec §4 as a small typed stream inside this tab. The UI emits them where
 * they happen (sign-in form, sign-out, idle timer, e-mail links) and reacts to them in one place
 * (useAuthEventReactions): signed out → the cached data of the account is dropped, and so on.
 */

/** The session's times, as auth.session and auth.extendSession return them (ms epoch). */
export interface SessionTimes {
  persistent: boolean;
  expiresAt: number;
  /** null for a remember-me session, which has no idle timeout. */
  idleExpiresAt: number | null;
}

export type SignOutReason = "user" | "idle";

export type AuthEvent = (
  | { type: "INITIAL_SESSION"; signedIn: boolean }
  | { type: "SIGNED_IN" }
  | { type: "SIGNED_OUT"; reason: SignOutReason }
  | { type: "TOKEN_REFRESHED"; session: SessionTimes }
  | { type: "USER_UPDATED" }
  | { type: "PASSWORD_RECOVERY" }
  | { type: "MFA_CHALLENGE_VERIFIED" }
) & {
  /** Set on events relayed from another tab of the same browser (see authBroadcast). */
  fromOtherTab?: boolean;
};

export type AuthEventType = AuthEvent["type"];
export type AuthEventOf<T extends AuthEventType> = Extract<AuthEvent, { type: T }>;
export type AuthEventListener = (event: AuthEvent) => void;

export interface AuthEventStream {
  emit(event: AuthEvent): void;
  /** Every event; returns the unsubscribe function. */
  subscribe(listener: AuthEventListener): () => void;
  /** Events of one type; returns the unsubscribe function. */
  on<T extends AuthEventType>(type: T, listener: (event: AuthEventOf<T>) => void): () => void;
}

export function createAuthEventStream(): AuthEventStream {
  const listeners = new Set<AuthEventListener>();

  const subscribe = (listener: AuthEventListener) => {
    // Wrapped so that subscribing the same function twice gives two independent subscriptions.
    const entry: AuthEventListener = (event) => listener(event);
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
    };
  };

  return {
    emit(event) {
      // A copy: listeners may unsubscribe (or subscribe) while the event is delivered.
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          // One failing reaction must not keep the others from hearing about the event.
          console.error(`Auth event listener failed on ${event.type}`, error);
        }
      }
    },
    subscribe,
    on(type, listener) {
      return subscribe((event) => {
        if (event.type === type) listener(event as AuthEventOf<typeof type>);
      });
    },
  };
}

/** The stream of this tab. */
export const authEvents = createAuthEventStream();
