/**
 * The client's analytics queue (spec sections 3, 4 and 9): flushed when more than 10 events wait
 * or when tracking is switched back on; events the server's schema accepts; a failed batch is
 * dropped after one try; nothing ever throws into the interface.
 */
import { describe, expect, it, vi } from "vitest";
import { analyticsBatchSchema, type AnalyticsEvent } from "../../src/shared/analytics";
import { ANALYTICS_FLUSH_THRESHOLD } from "../../src/shared/constants";
import { AnalyticsQueue, createSessionId, pagePath, toEvent } from "../../src/client/lib/analytics";

const flushPromises = () => new Promise((resolve) => setTimeout(resolve, 0));

function makeQueue(options: Partial<ConstructorParameters<typeof AnalyticsQueue>[0]> = {}) {
  const batches: AnalyticsEvent[][] = [];
  const send = vi.fn(async (events: AnalyticsEvent[]) => {
    batches.push(events);
  });
  const queue = new AnalyticsQueue({ sessionId: "s-1", userId: "u-1", send, now: () => 1_700_000_000_000, ...options });
  return { queue, send, batches };
}

const click = (index: number) => ({ category: "user_action" as const, action: `click_${index}` });

describe("analytics queue", () => {
  it("is on by default and keeps events until more than the threshold wait", async () => {
    const { queue, send, batches } = makeQueue();
    expect(ANALYTICS_FLUSH_THRESHOLD).toBe(10);
    expect(queue.isEnabled).toBe(true);
    for (let index = 0; index < ANALYTICS_FLUSH_THRESHOLD; index++) queue.track(click(index));
    await flushPromises();
    expect(send).not.toHaveBeenCalled();
    expect(queue.size).toBe(10);

    queue.track(click(10));
    await flushPromises();
    expect(send).toHaveBeenCalledTimes(1);
    expect(batches[0]).toHaveLength(11);
    expect(batches[0]!.map((event) => event.action)).toEqual(Array.from({ length: 11 }, (_, index) => `click_${index}`));
    expect(queue.size).toBe(0);
  });

  it("sends events the server's schema accepts, with the session and analytics user ids", async () => {
    const { queue, batches } = makeQueue();
    queue.track({ category: "performance", action: "render_time", value: 1234, metadata: { provider: "local" } });
    queue.track({ category: "navigation", action: "page_view", label: "x".repeat(500) });
    queue.track({ category: "error", action: "  boom  ", metadata: { big: "y".repeat(5000) } });
    await queue.flush();
    expect(batches).toHaveLength(1);
    expect(analyticsBatchSchema.safeParse({ events: batches[0] }).success).toBe(true);
    const [render, page, error] = batches[0]!;
    expect(render).toMatchObject({
      category: "performance",
      action: "render_time",
      value: 1234,
      sessionId: "s-1",
      userId: "u-1",
      timestamp: 1_700_000_000_000,
    });
    expect(page!.label).toHaveLength(200);
    expect(error!.action).toBe("boom");
  });

  it("drops an event without an action instead of sending something the server refuses", () => {
    expect(toEvent({ category: "user_action", action: "   " }, { timestamp: 1, sessionId: "s" })).toBeNull();
  });

  it("sends a long queue in batches of at most 50", async () => {
    const { queue, batches } = makeQueue({ threshold: 1000 });
    for (let index = 0; index < 120; index++) queue.track(click(index));
    await queue.flush();
    expect(batches.map((batch) => batch.length)).toEqual([50, 50, 20]);
  });

  it("drops a batch after one failure, tells onDrop, and never throws", async () => {
    const onDrop = vi.fn();
    const send = vi.fn().mockRejectedValueOnce(new Error("offline")).mockResolvedValue({ accepted: 1 });
    const queue = new AnalyticsQueue({ sessionId: "s", send, onDrop });
    for (let index = 0; index < 11; index++) queue.track(click(index));
    await flushPromises();
    expect(send).toHaveBeenCalledTimes(1);
    expect(onDrop).toHaveBeenCalledWith(expect.any(Error), 11);
    expect(queue.size).toBe(0);

    // The next events go out normally: the failure blocked nothing.
    queue.track(click(99));
    await expect(queue.flush()).resolves.toBeUndefined();
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]![0]).toHaveLength(1);
  });

  it("survives a sender that throws synchronously and an onDrop that throws", async () => {
    const queue = new AnalyticsQueue({
      sessionId: "s",
      send: () => {
        throw new Error("sync");
      },
      onDrop: () => {
        throw new Error("log failed");
      },
    });
    queue.track(click(1));
    await expect(queue.flush()).resolves.toBeUndefined();
    expect(queue.size).toBe(0);
  });

  it("queues nothing and sends nothing while switched off, and flushes at once when switched back on", async () => {
    const { queue, send, batches } = makeQueue();
    queue.track(click(1));
    queue.track(click(2));
    queue.setEnabled(false);
    expect(queue.isEnabled).toBe(false);
    queue.track(click(3));
    expect(queue.size).toBe(2);
    await queue.flush();
    expect(send).not.toHaveBeenCalled();

    queue.setEnabled(true);
    await flushPromises();
    expect(send).toHaveBeenCalledTimes(1);
    expect(batches[0]!.map((event) => event.action)).toEqual(["click_1", "click_2"]);
    expect(queue.size).toBe(0);

    // Switching on when already on sends nothing early.
    queue.track(click(4));
    queue.setEnabled(true);
    await flushPromises();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("starts switched off when the device says so", () => {
    const { queue } = makeQueue({ enabled: false });
    queue.track(click(1));
    expect(queue.size).toBe(0);
  });

  it("does not send without a sender, and sends once one is set if the threshold was passed", async () => {
    const queue = new AnalyticsQueue({ sessionId: "s" });
    for (let index = 0; index < 12; index++) queue.track(click(index));
    expect(queue.size).toBe(12);
    const send = vi.fn(async () => undefined);
    queue.setSender(send);
    await flushPromises();
    expect(send).toHaveBeenCalledTimes(1);
    expect(queue.size).toBe(0);
  });

  it("does not run two flushes at once; events that arrive meanwhile go in the next batch", async () => {
    let release: () => void = () => undefined;
    const send = vi.fn((_events: AnalyticsEvent[]) => new Promise<void>((resolve) => (release = resolve)));
    const queue = new AnalyticsQueue({ sessionId: "s", send, threshold: 1 });
    queue.track(click(1));
    queue.track(click(2));
    await flushPromises();
    expect(send).toHaveBeenCalledTimes(1);
    queue.track(click(3));
    queue.track(click(4));
    void queue.flush();
    expect(send).toHaveBeenCalledTimes(1);
    release();
    await flushPromises();
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[1]![0]).toHaveLength(2);
    release();
  });
});

describe("analytics ids and pages", () => {
  it("builds the session id from the time plus a random string", () => {
    const id = createSessionId(1_700_000_000_000, () => 0.5);
    expect(id).toMatch(/^[0-9a-z]+-[0-9a-z]{10}$/);
    expect(id.startsWith((1_700_000_000_000).toString(36))).toBe(true);
    expect(createSessionId()).not.toBe(createSessionId());
  });

  it("records the page without its query", () => {
    expect(pagePath("/render?share=secret")).toBe("/render");
    expect(pagePath("/")).toBe("/");
    expect(pagePath("")).toBe("/");
  });
});
