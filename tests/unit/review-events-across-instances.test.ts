/**
 * Review events across instances (decision 082) over a stand-in for PostgreSQL's NOTIFY: two
 * buses share one in-memory channel that, like NOTIFY, delivers every message to every listener,
 * the sender included. An event published on one instance reaches the other's streams once (and
 * its own once); one too long for a notification ends the other's streams of the project instead
 * (the panel reloads); a dismissal ends the member's streams on both; after the listener
 * reconnects, the instance's open streams end (what was sent meanwhile is lost).
 */
import { describe, expect, it } from "vitest";
import { ReviewEventBus, type ReviewCrossInstance } from "../../src/server/review/events";
import type { ReviewEvent } from "../../src/shared/review";

class SharedChannel {
  private readonly listeners: Array<{ channel: string; handler: (payload: string) => void }> = [];
  private readonly connected: Array<(reconnected: boolean) => void> = [];
  readonly sent: string[] = [];

  instance(id: string): ReviewCrossInstance & { reconnect(): void } {
    const mine: Array<(reconnected: boolean) => void> = [];
    return {
      instance: id,
      subscribe: (channel, handler) => {
        const entry = { channel, handler };
        this.listeners.push(entry);
        return () => this.listeners.splice(this.listeners.indexOf(entry), 1);
      },
      onConnected: (handler) => {
        mine.push(handler);
        this.connected.push(handler);
        return () => {};
      },
      notify: (channel, payload) => {
        if (Buffer.byteLength(payload) >= 8000) return Promise.reject(new Error("payload string too long"));
        this.sent.push(payload);
        for (const listener of this.listeners) if (listener.channel === channel) listener.handler(payload);
        return Promise.resolve();
      },
      reconnect: () => mine.forEach((handler) => handler(true)),
    };
  }
}

const comment = (text: string): ReviewEvent =>
  ({ type: "comment", linkId: "l1", jobId: "j1", comment: { id: 1, author: "Marta", text, at: 0 } }) as ReviewEvent;

/** Takes what a stream has received so far, then whether it ended, without waiting on wall time. */
async function drain(stream: AsyncGenerator<ReviewEvent>, count: number): Promise<ReviewEvent[]> {
  const got: ReviewEvent[] = [];
  while (got.length < count) {
    const next = await stream.next();
    if (next.done) break;
    got.push(next.value);
  }
  return got;
}

describe("review events across instances", () => {
  it("reach the other instance's streams once, and the sender's own once", async () => {
    const shared = new SharedChannel();
    const a = new ReviewEventBus(shared.instance("a"));
    const b = new ReviewEventBus(shared.instance("b"));
    const onA = a.stream("p1");
    const onB = b.stream("p1");
    a.publish("p1", comment("Lovely light"));
    a.publish("p1", comment("And the sofa"));
    expect(await drain(onB, 2)).toEqual([comment("Lovely light"), comment("And the sofa")]);
    expect(await drain(onA, 2)).toEqual([comment("Lovely light"), comment("And the sofa")]);
    a.close();
    b.close();
    // Nothing more was waiting on A (its own notifications were skipped).
    expect((await onA.next()).done).toBe(true);
  });

  it("end the other instance's streams of the project when an event is too long for a notification", async () => {
    const shared = new SharedChannel();
    const a = new ReviewEventBus(shared.instance("a"));
    const b = new ReviewEventBus(shared.instance("b"));
    const onA = a.stream("p1");
    const onB = b.stream("p1");
    const other = b.stream("p2");
    const long = comment("🛋".repeat(2000));
    a.publish("p1", long);
    expect(await drain(onA, 1)).toEqual([long]);
    expect(await onB.next()).toEqual({ done: true, value: undefined });
    expect(b.listeners("p2")).toBe(1);
    expect(shared.sent.every((payload) => Buffer.byteLength(payload) < 8000)).toBe(true);
    a.close();
    b.close();
    await other.return(undefined);
  });

  it("end a dismissed member's streams on every instance, and every open stream after a reconnection", async () => {
    const shared = new SharedChannel();
    const channelB = shared.instance("b");
    const a = new ReviewEventBus(shared.instance("a"));
    const b = new ReviewEventBus(channelB);
    const rita = b.stream("p1", undefined, { teamId: "t1", userId: "rita" });
    const olga = b.stream("p1", undefined, { teamId: "t1", userId: "olga" });
    a.dismiss("t1", "rita");
    expect(await rita.next()).toEqual({ done: true, value: undefined });
    expect(b.listeners("p1")).toBe(1);
    channelB.reconnect();
    expect(await olga.next()).toEqual({ done: true, value: undefined });
    expect(b.listeners("p1")).toBe(0);
    a.close();
    b.close();
  });
});
