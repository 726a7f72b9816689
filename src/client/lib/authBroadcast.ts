/**
 * Relays auth events between tabs of the same browser, which share one session cookie: activity
 * in one tab extends the session for all of them (so an idle tab does not sign an active one out),
 * and signing in or out in one tab shows in the others.
 */
import type { AuthEvent, AuthEventStream, AuthEventType } from "./authEvents";

export const AUTH_CHANNEL_NAME = "roomcanvas.auth";

/** Events that concern every tab. The rest (initial session, recovery, MFA) stay in their tab. */
const SHARED_TYPES: ReadonlySet<AuthEventType> = new Set(["SIGNED_IN", "SIGNED_OUT", "TOKEN_REFRESHED", "USER_UPDATED"]);

/** The part of BroadcastChannel this needs (a fake one in tests). */
export interface AuthChannel {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  close(): void;
}

function isSharedEvent(value: unknown): value is AuthEvent {
  return (
    !!value &&
    typeof value === "object" &&
    "type" in value &&
    typeof value.type === "string" &&
    SHARED_TYPES.has(value.type as AuthEventType)
  );
}

/** Connects the stream to the channel; returns the function that disconnects (and closes) it. */
export function connectAuthBroadcast(stream: AuthEventStream, channel: AuthChannel): () => void {
  const unsubscribe = stream.subscribe((event) => {
    // Relayed events are not sent back, or two tabs would echo each other forever.
    if (event.fromOtherTab || !SHARED_TYPES.has(event.type)) return;
    const { fromOtherTab: _fromOtherTab, ...message } = event;
    channel.postMessage(message);
  });
  const onMessage = (message: MessageEvent) => {
    if (isSharedEvent(message.data)) stream.emit({ ...message.data, fromOtherTab: true });
  };
  channel.addEventListener("message", onMessage);
  return () => {
    unsubscribe();
    channel.removeEventListener("message", onMessage);
    channel.close();
  };
}

/** The browser's channel, or null where BroadcastChannel does not exist. */
export function openAuthChannel(): AuthChannel | null {
  return typeof BroadcastChannel === "function" ? new BroadcastChannel(AUTH_CHANNEL_NAME) : null;
}
