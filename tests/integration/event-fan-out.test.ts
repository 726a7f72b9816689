/**
 * The render-event fan-out (decision 043) on its own: a bus, a migrated database and the route on a
 * bare Express app, read by a raw SSE reader. Every subscriber of an owner gets the same frames in
 * the same order, a reconnect with lastEventId (input, header or query) gets exactly what it missed,
 * another owner gets nothing, the stream caps still refuse (the request goes on to tRPC), shutdown
 * ends the streams, and the frames are byte for byte what tRPC's own SSE producer writes.
 */
import type { AddressInfo } from "node:net";

import express from "express";
import superjson from "superjson";
import { tracked } from "@trpc/server";
import { sseStreamProducer } from "@trpc/server/unstable-core-do-not-import";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { createLogger } from "../../src/server/logger";
import { batchWindowMs, EVENTS_PATH, EventFanOut, eventFrame } from "../../src/server/render/live/event-fan-out";
import { recordRenderEvent, RenderEventBus } from "../../src/server/render/live/events";
import { ownerKey, userOwner } from "../../src/server/render/owner";
import type { RenderEvent } from "../../src/shared/render";
import { makeTestEnv } from "../helpers/test-env";
import { createStudioClient, roomPhoto, upload } from "../helpers/render";
import { startTestServer } from "../helpers/server";

/** A render event without its time (the test stamps it). */
type Unstamped = RenderEvent extends infer E ? (E extends RenderEvent ? Omit<E, "at"> : never) : never;

interface Frame {
  event?: string;
  id?: string;
  data: string;
}

/** An open SSE response, read frame by frame (blocks separated by a blank line). */
class SseReader {
  readonly frames: Frame[] = [];
  raw = "";
  private waiters: Array<() => void> = [];
  ended = false;

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    void this.pump();
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        this.raw += text;
        buffer += text;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2).replace(/^\n+/, "");
          if (!block.trim()) continue;
          const frame: Frame = { data: "" };
          for (const line of block.split("\n")) {
            const [field, ...rest] = line.split(": ");
            if (field === "event") frame.event = rest.join(": ");
            else if (field === "id") frame.id = rest.join(": ");
            else if (field === "data") frame.data = rest.join(": ");
          }
          this.frames.push(frame);
          this.wake();
        }
      }
    } catch {
      // aborted by the test
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves once `count` frames have arrived (or the stream ended). */
  async until(count: number): Promise<Frame[]> {
    while (this.frames.length < count && !this.ended) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.frames;
  }

  /** The render events received (data frames), decoded. */
  events(): Array<{ id: string; event: RenderEvent }> {
    return this.frames
      .filter((frame) => frame.id !== undefined)
      .map((frame) => ({ id: frame.id!, event: superjson.deserialize<RenderEvent>(JSON.parse(frame.data) as never) }));
  }

  close(): void {
    this.controller.abort();
  }
}

describe("the batch window", () => {
  it("is 15 ms for a few streams and grows with their number to 100 ms, so that writes stay under 10,000 a second", () => {
    expect([1, 150, 500, 1_000, 5_000].map(batchWindowMs)).toEqual([15, 15, 50, 100, 100]);
  });
});

/** No teams in these streams: every row is a user's or a visitor's (teams have their own tests). */
const noTeams = { membership: () => Promise.resolve(null) };

describe("render event fan-out", () => {
  const env = makeTestEnv({ EVENT_STREAMS_PER_OWNER: "3", EVENT_STREAMS_TOTAL: "5" });
  let db: AppDatabase;
  let bus: RenderEventBus;
  let fanOut: EventFanOut;
  let url: string;
  let close: () => Promise<void>;
  const open: SseReader[] = [];
  let fellThrough = 0;

  beforeAll(async () => {
    db = openDatabase(env.DATABASE);
    bus = new RenderEventBus();
    fanOut = new EventFanOut({ db, env, events: bus, log: createLogger("silent"), teams: noTeams });
    const app = express();
    // The owner comes from a header here; the app resolves it from the session or visitor cookie.
    app.get(
      EVENTS_PATH,
      fanOut.handler(async (req) => (typeof req.headers["x-user"] === "string" ? userOwner(req.headers["x-user"]) : null)),
    );
    // What the fan-out refuses goes on: tRPC answers it in the app.
    app.get(EVENTS_PATH, (_req, res) => {
      fellThrough++;
      res.status(418).end();
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterEach(async () => {
    for (const reader of open.splice(0)) reader.close();
    // Each closed stream gives its place back.
    while (bus.openStreams > 0) await new Promise((resolve) => setImmediate(resolve));
  });
  afterAll(async () => {
    bus.close();
    await close();
    await db.destroy();
  });

  async function subscribe(
    user: string | null,
    input: Record<string, unknown> = {},
    init: { headers?: Record<string, string>; query?: string } = {},
  ) {
    const controller = new AbortController();
    const query = `input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}${init.query ?? ""}`;
    const response = await fetch(`${url}${EVENTS_PATH}?${query}`, {
      headers: { ...(user ? { "x-user": user } : {}), ...init.headers },
      signal: controller.signal,
    });
    const reader = new SseReader(response, controller);
    open.push(reader);
    return reader;
  }

  let at = 1_700_000_000_000;
  async function publish(user: string, events: Unstamped[]): Promise<number[]> {
    const stored = [];
    for (const event of events) stored.push(await recordRenderEvent(db, ownerKey(userOwner(user)), { ...event, at: at++ } as RenderEvent));
    bus.publish(stored);
    return stored.map((row) => row.id);
  }

  it("sends every subscriber of an owner the identical sequence, and another owner nothing", async () => {
    const ana = [await subscribe("ana"), await subscribe("ana"), await subscribe("ana")];
    const bob = await subscribe("bob");
    await Promise.all([...ana, bob].map((reader) => reader.until(1)));
    expect(ana[0]!.frames[0]).toEqual({ event: "connected", data: "{}" });

    await publish("ana", [
      { type: "queued", jobId: "j1", position: 1 },
      { type: "preprocessing", jobId: "j1", startedAt: 1 },
    ]);
    const [bobOnly] = await publish("bob", [{ type: "queued", jobId: "b1", position: 2 }]);
    await publish("ana", [{ type: "positions", jobId: "j2", positions: [{ jobId: "j2", position: 1 }] }]);
    await Promise.all(ana.map((reader) => reader.until(4)));
    await bob.until(2);

    const sequences = ana.map((reader) => reader.raw);
    expect(new Set(sequences).size).toBe(1);
    expect(ana[0]!.events().map((received) => received.event.type)).toEqual(["queued", "preprocessing", "positions"]);
    expect(bob.events()).toEqual([{ id: String(bobOnly), event: expect.objectContaining({ jobId: "b1" }) }]);
    expect(fanOut.size).toBe(4);
  });

  it("replays exactly the missed events after lastEventId (input, Last-Event-ID header or query), then goes live", async () => {
    const ids = await publish("carla", [
      { type: "queued", jobId: "c1", position: 1 },
      { type: "preprocessing", jobId: "c1", startedAt: 1 },
      { type: "rendering", jobId: "c1", startedAt: 1, percent: null, attempt: 1 },
    ]);
    const byInput = await subscribe("carla", { lastEventId: String(ids[0]) });
    const byHeader = await subscribe("carla", { lastEventId: null }, { headers: { "last-event-id": String(ids[1]) } });
    const byQuery = await subscribe("carla", {}, { query: `&lastEventId=${ids[1]}` });
    await byInput.until(3);
    await byHeader.until(2);
    await byQuery.until(2);
    const [live] = await publish("carla", [{ type: "saving", jobId: "c1", startedAt: 1 }]);
    await byInput.until(4);
    await byHeader.until(3);
    await byQuery.until(3);
    expect(byInput.events().map((received) => Number(received.id))).toEqual([ids[1], ids[2], live]);
    expect(byHeader.events().map((received) => Number(received.id))).toEqual([ids[2], live]);
    expect(byQuery.events().map((received) => Number(received.id))).toEqual([ids[2], live]);
  });

  it("holds an owner to EVENT_STREAMS_PER_OWNER and all to EVENT_STREAMS_TOTAL: a refused stream goes on to tRPC", async () => {
    const before = fellThrough;
    const held = [await subscribe("dan"), await subscribe("dan"), await subscribe("dan")];
    await Promise.all(held.map((reader) => reader.until(1)));
    expect((await subscribe("dan")).response.status).toBe(418);
    expect(fellThrough).toBe(before + 1);
    const others = [await subscribe("eve"), await subscribe("eve")];
    await Promise.all(others.map((reader) => reader.until(1)));
    expect(bus.openStreams).toBe(5);
    expect((await subscribe("fay")).response.status).toBe(418);
    // Nobody, and input tRPC would refuse, go on to tRPC too (it answers with its own error frame).
    expect((await subscribe(null)).response.status).toBe(418);
    expect((await subscribe("dan", { lastEventId: "x".repeat(21) })).response.status).toBe(418);
    expect(fellThrough).toBe(before + 4);
    // A closed stream gives its place back.
    held[0]!.close();
    while (bus.openStreams > 4) await new Promise((resolve) => setImmediate(resolve));
    const again = await subscribe("dan");
    expect(again.response.status).toBe(200);
  });

  it("ends every stream with tRPC's return frame when the bus closes (shutdown)", async () => {
    const localBus = new RenderEventBus();
    const local = new EventFanOut({ db, env, events: localBus, log: createLogger("silent"), teams: noTeams });
    const app = express();
    app.get(
      EVENTS_PATH,
      local.handler(async () => userOwner("gus")),
    );
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const response = await fetch(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}${EVENTS_PATH}?input=${encodeURIComponent('{"json":{}}')}`,
      );
      const reader = new SseReader(response, new AbortController());
      await reader.until(1);
      localBus.close();
      await reader.until(2);
      expect(reader.frames.at(-1)).toEqual({ event: "return", data: "" });
      await reader.until(Infinity);
      expect(reader.ended).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("writes the frames tRPC's own SSE producer writes for the procedure", async () => {
    const event: RenderEvent = { type: "queued", jobId: "j9", at: 5, position: 3, resumed: undefined };
    async function* data() {
      yield tracked("42", event);
    }
    const stream = sseStreamProducer({ data: data(), serialize: (value: unknown) => superjson.serialize(value) });
    let text = "";
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += new TextDecoder().decode(chunk);
    const connected = "event: connected\ndata: {}\n\n\n";
    const returned = "event: return\ndata: \n\n\n";
    expect(text).toBe(connected + eventFrame({ id: 42, owner: "u:x", event }).toString() + returned);
  });
});

describe("render event fan-out in the app", () => {
  it("answers the browsers' render.events itself, not tRPC's per-subscriber stream", async () => {
    const server = await startTestServer();
    try {
      const visitor = createStudioClient(server.url);
      // A visitor's cookie makes them an owner; their (empty) event stream opens.
      await upload(server.url, visitor.jar, await roomPhoto(400, 300));
      const controller = new AbortController();
      const query = `input=${encodeURIComponent(JSON.stringify(superjson.serialize({})))}`;
      const response = await visitor.jar.fetch(`${server.url}${EVENTS_PATH}?${query}`, { signal: controller.signal });
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      expect(response.headers.get("x-event-stream")).toBe("shared");
      controller.abort();
    } finally {
      await server.stop();
    }
  });
});
