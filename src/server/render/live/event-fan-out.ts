/**
 * render.events as browsers receive it, served beside tRPC (decision 043): each published event is
 * encoded once into a server-sent-events frame, and that same frame is written to every open
 * stream of its owner. Through tRPC, each subscriber had its own listener, serialised each event
 * again and pushed it through a web-stream pipeline: with 1,000 subscribers on one owner that
 * starved the worker (p99 5.7 s, 20 renders 93 s).
 *
 * The route answers GET /trpc/render.events exactly as tRPC's SSE response for that procedure
 * (same input, headers and frames: "connected", tracked data frames with their id, "return" on
 * shutdown), so the client's httpSubscriptionLink is unchanged. Whatever it would refuse (no owner,
 * not the owner's job, bad input, no stream place left) falls through to the tRPC procedure, which
 * answers with tRPC's own error frame. The in-process path (RenderEventBus.stream) stays for it.
 */
import type { NextFunction, Request, Response } from "express";
import superjson from "superjson";
import { eventConcernsJob, renderEventsInputSchema, type RenderEvent } from "../../../shared/render";
import type { Infra } from "../../infra";
import { holderOf, storedEventsAfter, type RenderEventBus, type StoredRenderEvent } from "./events";
import { mayUse, ownerKey, rowKey, type OwnerOfRequest } from "../owner";

/** The procedure's URL under the tRPC endpoint (GET, one call, no batch). */
export const EVENTS_PATH = "/trpc/render.events";

/** tRPC's SSE headers (sseHeaders) and the vary header of its responses. */
const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
  Connection: "keep-alive",
  Vary: "trpc-accept, accept",
  // Says the shared fan-out answered, not tRPC's own stream (tests, and whoever debugs a proxy).
  "X-Event-Stream": "shared",
};
/** tRPC's first frame: the client options (none configured), which starts the client's subscription. */
const CONNECTED_FRAME = "event: connected\ndata: {}\n\n\n";
/** tRPC's last frame when the procedure's generator ends (here: shutdown); the client then stops. */
const RETURN_FRAME = "event: return\ndata: \n\n\n";
/**
 * A client that stops reading is cut off once this much waits for it, rather than held in memory;
 * it reconnects with its last event id and the table replays what it missed.
 */
const MAX_BUFFERED_BYTES = 1 << 20;
/**
 * At most one flush per window: events published within it go out together, one write per stream.
 * The write calls are what many streams cost (about 12 µs each here), so the window grows with the
 * number of open streams to keep them under WRITES_PER_SECOND: 15 ms up to 150 streams, 50 ms at
 * 500, 100 ms from 1,000 (where 15 ms cost a fifth more server CPU for 20 renders). The first event
 * after a quiet window goes out at once (a leading edge), so only events that follow one closely
 * wait, and never longer than the rest of the window.
 */
const MIN_BATCH_MS = 15;
const MAX_BATCH_MS = 100;
const WRITES_PER_SECOND = 10_000;

/** The batch window for this many open streams. */
export function batchWindowMs(streams: number): number {
  return Math.min(MAX_BATCH_MS, Math.max(MIN_BATCH_MS, (streams * 1000) / WRITES_PER_SECOND));
}

/** A tracked event as tRPC writes it: the superjson-serialised data, then the id. */
export function eventFrame(stored: StoredRenderEvent): Buffer {
  return Buffer.from(`data: ${JSON.stringify(superjson.serialize(stored.event))}\nid: ${stored.id}\n\n\n`);
}

interface Frame {
  id: number;
  event: RenderEvent;
  bytes: Buffer;
}

interface Subscriber {
  res: Response;
  jobId?: string;
  lastId: number;
  /** Live frames that arrived while the stored ones were read; null once the stream is live. */
  pending: Frame[] | null;
}

export class EventFanOut {
  private readonly byOwner = new Map<string, Set<Subscriber>>();
  /** Events published since the last flush, by owner. */
  private readonly waiting = new Map<string, StoredRenderEvent[]>();
  private flushTimer: NodeJS.Timeout | undefined;
  /** When the last flush ran (performance.now()): the next may run one window later. */
  private lastFlushAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: Pick<Infra, "db" | "env" | "log"> & {
      events: RenderEventBus;
      teams: { membership(userId: string, teamId: string): Promise<unknown> };
    },
    /** A fixed window instead of batchWindowMs (tests). */
    private readonly fixedBatchMs?: number,
  ) {
    deps.events.observe((events) => this.deliver(events));
    deps.events.closedSignal.addEventListener("abort", () => this.endAll(), { once: true });
  }

  /** Open fan-out streams, all owners together. */
  get size(): number {
    let count = 0;
    for (const subscribers of this.byOwner.values()) count += subscribers.size;
    return count;
  }

  /** Holds the events of owners with a stream open until the window's flush. */
  private deliver(events: readonly StoredRenderEvent[]): void {
    for (const stored of events) {
      if (!this.byOwner.has(stored.owner)) continue;
      const waiting = this.waiting.get(stored.owner);
      if (waiting) waiting.push(stored);
      else this.waiting.set(stored.owner, [stored]);
    }
    if (this.waiting.size > 0 && !this.flushTimer) {
      const windowMs = this.fixedBatchMs ?? batchWindowMs(this.size);
      // A timer even when the window is over: what the same tick publishes still goes out in this flush.
      const waitMs = Math.max(0, this.lastFlushAt + windowMs - performance.now());
      this.flushTimer = setTimeout(() => this.flush(), waitMs);
      this.flushTimer.unref();
    }
  }

  /**
   * Encodes each waiting event once, and writes each stream its share in one write: for streams of
   * all the owner's jobs (the usual case) the very same bytes. Syscalls, not encoding, were what
   * remained: one write per event per stream took about 15 ms per event at 1,000 streams.
   */
  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.lastFlushAt = performance.now();
    const batches = [...this.waiting];
    this.waiting.clear();
    for (const [owner, events] of batches) {
      const subscribers = this.byOwner.get(owner);
      if (!subscribers) continue;
      const frames: Frame[] = events.map((stored) => ({ id: stored.id, event: stored.event, bytes: eventFrame(stored) }));
      let all: Buffer | undefined;
      for (const subscriber of subscribers) {
        const jobId = subscriber.jobId;
        const mine = jobId ? frames.filter((frame) => eventConcernsJob(frame.event, jobId)) : frames;
        if (mine.length === 0) continue;
        if (subscriber.pending) {
          subscriber.pending.push(...mine);
          continue;
        }
        const fresh = mine[0]!.id > subscriber.lastId ? mine : mine.filter((frame) => frame.id > subscriber.lastId);
        if (fresh.length === 0) continue;
        const bytes =
          fresh === frames ? (all ??= Buffer.concat(frames.map((frame) => frame.bytes))) : Buffer.concat(fresh.map((frame) => frame.bytes));
        this.write(subscriber, fresh.at(-1)!.id, bytes);
      }
    }
  }

  private write(subscriber: Subscriber, lastId: number, bytes: Buffer | string): void {
    const { res } = subscriber;
    if (res.destroyed || res.writableEnded) return;
    subscriber.lastId = lastId;
    res.write(bytes);
    if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
  }

  private endAll(): void {
    // What was published before the shutdown still goes out.
    this.flush();
    for (const subscribers of this.byOwner.values()) {
      for (const { res } of subscribers) if (!res.destroyed && !res.writableEnded) res.end(RETURN_FRAME);
    }
  }

  /** GET /trpc/render.events; anything it would refuse goes on to tRPC (next). */
  handler(ownerOfRequest: OwnerOfRequest) {
    return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      try {
        if (!servesAsTrpcWould(req) || this.deps.events.closedSignal.aborted) return next();
        const input = parseInput(req);
        if (!input) return next();
        const owner = await ownerOfRequest(req, res);
        if (!owner) return next();
        let key = ownerKey(owner);
        if (input.jobId) {
          const job = await this.deps.db
            .selectFrom("render_jobs")
            .select(["user_id", "visitor_id", "team_id"])
            .where("id", "=", input.jobId)
            .executeTakeFirst();
          if (!job || !(await mayUse(this.deps, owner, job))) return next();
          // A team's render publishes on the team's key, whatever space the viewer works in.
          key = rowKey(job);
        }
        const release = this.deps.events.reserve(holderOf(key, owner.userId), {
          perOwner: this.deps.env.EVENT_STREAMS_PER_OWNER,
          total: this.deps.env.EVENT_STREAMS_TOTAL,
        });
        if (!release) return next();
        await this.serve(key, input, res, release, owner.userId);
      } catch (error) {
        next(error);
      }
    };
  }

  private async serve(
    owner: string,
    input: { jobId?: string; lastEventId: number },
    res: Response,
    release: () => void,
    viewer: string | null,
  ): Promise<void> {
    const subscriber: Subscriber = { res, jobId: input.jobId, lastId: input.lastEventId, pending: [] };
    // A member removed from the team is cut off at once; the browser reconnects into its own space.
    const forget = viewer ? this.deps.events.onDismiss(owner, viewer, () => res.destroy()) : () => {};
    // Listening before the table is read: an event published in between waits in `pending`.
    let subscribers = this.byOwner.get(owner);
    if (!subscribers) this.byOwner.set(owner, (subscribers = new Set()));
    subscribers.add(subscriber);
    // This instance's relay delivers the owner's events while a stream of them is open (decision 082).
    let unwatch: (() => void) | null = null;
    let gone = false;
    res.on("close", () => {
      gone = true;
      unwatch?.();
      release();
      forget();
      subscribers.delete(subscriber);
      if (subscribers.size === 0 && this.byOwner.get(owner) === subscribers) this.byOwner.delete(owner);
    });
    // setHeader, not res.set: Express's set would add "; charset=utf-8" to the content type, which tRPC does not send.
    res.status(200);
    for (const [name, value] of Object.entries(SSE_HEADERS)) res.setHeader(name, value);
    res.flushHeaders();
    res.write(CONNECTED_FRAME);
    try {
      const stopWatching = await this.deps.events.watch(owner);
      if (gone) stopWatching();
      else unwatch = stopWatching;
      const stored = await storedEventsAfter(this.deps.db, owner, subscriber.lastId, input.jobId);
      // The table's rows, then what was published meanwhile; ids only grow, so one seen twice is dropped.
      const missed: Array<{ id: number; bytes: Buffer }> = [];
      let last = subscriber.lastId;
      for (const frame of [...stored.map((event) => ({ id: event.id, bytes: eventFrame(event) })), ...(subscriber.pending ?? [])]) {
        if (frame.id <= last) continue;
        missed.push(frame);
        last = frame.id;
      }
      subscriber.pending = null;
      if (missed.length > 0) this.write(subscriber, missed.at(-1)!.id, Buffer.concat(missed.map((frame) => frame.bytes)));
    } catch (error) {
      this.deps.log.warn("could not replay render events", { error });
      res.destroy();
    }
    // Shut down while the table was read: endAll ran before this stream was live.
    if (this.deps.events.closedSignal.aborted && !res.writableEnded) res.end(RETURN_FRAME);
  }
}

/**
 * Whether this is the request tRPC answers with a stream: one GET call (not a batch, not HEAD), no
 * body type, no JSON-lines streaming asked for (tRPC refuses those: 405, 400). Anything else goes
 * on to tRPC's adapter, which answers it in its own words.
 */
function servesAsTrpcWould(req: Request): boolean {
  if (req.method !== "GET" || req.query.batch !== undefined) return false;
  if (req.headers["content-type"] !== undefined) return false;
  const accepts = `${req.headers.accept ?? ""} ${String(req.headers["trpc-accept"] ?? "")}`;
  return !accepts.includes("application/jsonl");
}

/**
 * The procedure's input as tRPC reads it: `input` (superjson), with a Last-Event-ID header, or a
 * lastEventId / Last-Event-Id query parameter, taking the place of input.lastEventId. Null when
 * tRPC would refuse it.
 */
function parseInput(req: Request): { jobId?: string; lastEventId: number } | null {
  // tRPC reads the query with URLSearchParams: a repeated parameter counts by its first value.
  const params = new URL(req.originalUrl, "http://localhost").searchParams;
  let raw: unknown = undefined;
  try {
    const input = params.get("input");
    if (input !== null) raw = superjson.deserialize(JSON.parse(input) as never);
  } catch {
    return null;
  }
  const header = req.headers["last-event-id"];
  const query = params.get("lastEventId") ?? params.get("Last-Event-Id") ?? undefined;
  const lastEventId = typeof header === "string" ? header : query;
  if (lastEventId) {
    if (raw !== null && typeof raw === "object") raw = { ...raw, lastEventId };
    else raw ??= { lastEventId };
  }
  const parsed = renderEventsInputSchema.safeParse(raw);
  if (!parsed.success) return null;
  const id = Number(parsed.data.lastEventId ?? 0);
  return { jobId: parsed.data.jobId, lastEventId: Number.isSafeInteger(id) ? id : 0 };
}
