import { describe, expect, it, vi } from "vitest";
import { connectAuthBroadcast, type AuthChannel } from "../../src/client/lib/authBroadcast";
import { createAuthEventStream, type AuthEvent } from "../../src/client/lib/authEvents";
import { expectConsoleError } from "../helpers/fail-on-console-error";

describe("auth event stream (spec section 4)", () => {
  it("delivers every event to every subscriber, in order", () => {
    const stream = createAuthEventStream();
    const first: AuthEvent[] = [];
    const second: AuthEvent[] = [];
    stream.subscribe((event) => first.push(event));
    stream.subscribe((event) => second.push(event));
    const events: AuthEvent[] = [
      { type: "INITIAL_SESSION", signedIn: false },
      { type: "SIGNED_IN" },
      { type: "TOKEN_REFRESHED", session: { persistent: false, expiresAt: 2, idleExpiresAt: 2 } },
      { type: "USER_UPDATED" },
      { type: "PASSWORD_RECOVERY" },
      { type: "MFA_CHALLENGE_VERIFIED" },
      { type: "SIGNED_OUT", reason: "idle" },
    ];
    for (const event of events) stream.emit(event);
    expect(first).toEqual(events);
    expect(second).toEqual(events);
  });

  it("filters by type with on(), typed to that event", () => {
    const stream = createAuthEventStream();
    const reasons: string[] = [];
    stream.on("SIGNED_OUT", (event) => reasons.push(event.reason));
    stream.emit({ type: "SIGNED_IN" });
    stream.emit({ type: "SIGNED_OUT", reason: "user" });
    expect(reasons).toEqual(["user"]);
  });

  it("stops delivering after unsubscribe, also when a listener unsubscribes during delivery", () => {
    const stream = createAuthEventStream();
    const seen: string[] = [];
    const stop = stream.subscribe(() => {
      seen.push("once");
      stop();
    });
    stream.subscribe(() => seen.push("always"));
    stream.emit({ type: "SIGNED_IN" });
    stream.emit({ type: "SIGNED_IN" });
    expect(seen).toEqual(["once", "always", "always"]);
  });

  it("keeps two subscriptions of the same function apart", () => {
    const stream = createAuthEventStream();
    const listener = vi.fn();
    const stopFirst = stream.subscribe(listener);
    stream.subscribe(listener);
    stopFirst();
    stream.emit({ type: "USER_UPDATED" });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("a failing listener does not keep the others from the event (and is reported)", () => {
    expectConsoleError(/Auth event listener failed on SIGNED_OUT/);
    const stream = createAuthEventStream();
    const after = vi.fn();
    stream.subscribe(() => {
      throw new Error("boom");
    });
    stream.subscribe(after);
    stream.emit({ type: "SIGNED_OUT", reason: "user" });
    expect(after).toHaveBeenCalledOnce();
  });
});

/** Two connected fake BroadcastChannels, delivering synchronously to the other end only. */
function channelPair(): [AuthChannel & { sent: unknown[]; closed: boolean }, AuthChannel & { sent: unknown[]; closed: boolean }] {
  const make = () => {
    const listeners = new Set<(event: MessageEvent) => void>();
    return {
      sent: [] as unknown[],
      closed: false,
      peer: undefined as undefined | { deliver(data: unknown): void },
      deliver(data: unknown) {
        for (const listener of listeners) listener({ data } as MessageEvent);
      },
      postMessage(message: unknown) {
        this.sent.push(message);
        // Structured clone, as the real channel does.
        this.peer?.deliver(structuredClone(message));
      },
      addEventListener: (_type: "message", listener: (event: MessageEvent) => void) => void listeners.add(listener),
      removeEventListener: (_type: "message", listener: (event: MessageEvent) => void) => void listeners.delete(listener),
      close() {
        this.closed = true;
      },
    };
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

describe("auth events across tabs", () => {
  it("relays sign-in, sign-out, extensions and user updates to the other tab, marked as from another tab", () => {
    const [channelA, channelB] = channelPair();
    const tabA = createAuthEventStream();
    const tabB = createAuthEventStream();
    connectAuthBroadcast(tabA, channelA);
    connectAuthBroadcast(tabB, channelB);
    const seenInB: AuthEvent[] = [];
    tabB.subscribe((event) => seenInB.push(event));

    const session = { persistent: false, expiresAt: 10, idleExpiresAt: 10 };
    tabA.emit({ type: "TOKEN_REFRESHED", session });
    tabA.emit({ type: "SIGNED_OUT", reason: "idle" });

    expect(seenInB).toEqual([
      { type: "TOKEN_REFRESHED", session, fromOtherTab: true },
      { type: "SIGNED_OUT", reason: "idle", fromOtherTab: true },
    ]);
    // Not echoed back: B did not send what it received.
    expect(channelB.sent).toEqual([]);
  });

  it("keeps tab-local events (initial session, recovery, MFA) in their tab", () => {
    const [channelA] = channelPair();
    const tabA = createAuthEventStream();
    connectAuthBroadcast(tabA, channelA);
    tabA.emit({ type: "INITIAL_SESSION", signedIn: true });
    tabA.emit({ type: "PASSWORD_RECOVERY" });
    tabA.emit({ type: "MFA_CHALLENGE_VERIFIED" });
    expect(channelA.sent).toEqual([]);
  });

  it("ignores messages that are not auth events", () => {
    const [channelA, channelB] = channelPair();
    const tabB = createAuthEventStream();
    connectAuthBroadcast(tabB, channelB);
    const listener = vi.fn();
    tabB.subscribe(listener);
    channelA.postMessage({ type: "SOMETHING_ELSE" });
    channelA.postMessage("SIGNED_OUT");
    channelA.postMessage(null);
    expect(listener).not.toHaveBeenCalled();
  });

  it("disconnecting stops relaying and closes the channel", () => {
    const [channelA] = channelPair();
    const tabA = createAuthEventStream();
    const disconnect = connectAuthBroadcast(tabA, channelA);
    disconnect();
    tabA.emit({ type: "SIGNED_IN" });
    expect(channelA.sent).toEqual([]);
    expect(channelA.closed).toBe(true);
  });
});
