/**
 * Render events: every change of a job is written to render_events (in the same transaction as
 * the change) and then published in memory to subscribed clients. A client that reconnects with
 * the id of the last event it saw gets the rows after it from the table, then the live ones:
 * nothing missed, nothing twice (ids only grow).
 *
 * How committed events reach the bus is the relay's business (relay.ts, decision 082): at once in
 * one process (SQLite), through NOTIFY and the table with several instances on PostgreSQL.
 */
import { EventEmitter, on } from "node:events";
import { eventConcernsJob } from "../../../shared/render";
import type { AppDatabase } from "../../db/client";
import { DomainError } from "../../errors";
import { InProcessRelay, type EventRelay } from "./relay";
import { storedEventsAfter, type StoredRenderEvent } from "./stored";

export { eventsAfterForAll, forgetEventsBefore, recordRenderEvent, storedEventsAfter, type StoredRenderEvent } from "./stored";

/** Open event streams allowed per owner and in all. */
export interface StreamLimits {
  perOwner: number;
  total: number;
}

const channel = (owner: string) => `owner:${owner}`;

/**
 * Whose places an open stream takes: the owner's, or on a team's events each member's own (so one
 * busy member does not use up the team's places).
 */
export function holderOf(owner: string, viewer: string | null | undefined): string {
  return owner.startsWith("t:") && viewer ? `${owner}|${viewer}` : owner;
}

export class RenderEventBus {
  private readonly emitter = new EventEmitter();
  private readonly closed = new AbortController();
  private readonly observers = new Set<(events: readonly StoredRenderEvent[]) => void>();
  private readonly writeObservers = new Set<(events: readonly StoredRenderEvent[]) => void>();
  /** Open streams per owner and in all, held under `limits` (one visitor once held 3,000 open). */
  private readonly openByOwner = new Map<string, number>();
  private openTotal = 0;
  /** How to end each open stream, by "<owner key>|<user who opened it>" (a member removed from a team). */
  private readonly byViewer = new Map<string, Set<() => void>>();

  constructor(private readonly relay: EventRelay = new InProcessRelay()) {
    // One listener per open subscription: hundreds are normal.
    this.emitter.setMaxListeners(0);
    relay.attach({ deliver: (events) => this.deliver(events), dismissHere: (owner, viewer) => this.dismissHere(owner, viewer) });
  }

  /** Events a writer committed (call after the commit): the relay brings them to the streams. */
  publish(events: readonly StoredRenderEvent[]): void {
    for (const observer of this.writeObservers) observer(events);
    this.relay.published(events);
  }

  /**
   * This instance's streams of an owner are to get its events (the relay reads them on PostgreSQL);
   * read the table after this resolves. Returns the way to stop.
   */
  watch(owner: string): Promise<() => void> {
    return this.relay.watch(owner);
  }

  /** Each owner has a channel of its own, so a stream only wakes for its owner's events. */
  private deliver(events: readonly StoredRenderEvent[]): void {
    for (const observer of this.observers) observer(events);
    for (const stored of events) this.emitter.emit(channel(stored.owner), stored);
  }

  /**
   * The owner's events, optionally of one job, after lastEventId: first the stored ones, then live.
   * Listens before reading the table, so an event written in between is not lost; the id check
   * drops the ones seen in both. Ends when the signal aborts or the bus closes (shutdown).
   */
  async *stream(
    db: AppDatabase,
    filter: { owner: string; viewer?: string | null; jobId?: string; lastEventId?: number },
    signal?: AbortSignal,
    limits: StreamLimits = { perOwner: Infinity, total: Infinity },
  ): AsyncGenerator<StoredRenderEvent> {
    const dismissed = new AbortController();
    const stop = AbortSignal.any([this.closed.signal, dismissed.signal, ...(signal ? [signal] : [])]);
    if (stop.aborted) return;
    const release = this.reserve(holderOf(filter.owner, filter.viewer), limits);
    if (!release) throw new DomainError("rate-limited", "tooManyRequests");
    const forget = filter.viewer ? this.onDismiss(filter.owner, filter.viewer, () => dismissed.abort()) : () => {};
    const live = on(this.emitter, channel(filter.owner), { signal: stop });
    let lastId = filter.lastEventId ?? 0;
    let unwatch = () => {};
    try {
      unwatch = await this.watch(filter.owner);
      for (const stored of await storedEventsAfter(db, filter.owner, lastId, filter.jobId)) {
        lastId = stored.id;
        yield stored;
      }
      for await (const [stored] of live as AsyncIterable<[StoredRenderEvent]>) {
        if (stored.id <= lastId) continue;
        if (filter.jobId && !eventConcernsJob(stored.event, filter.jobId)) continue;
        lastId = stored.id;
        yield stored;
      }
    } catch (error) {
      if (!stop.aborted) throw error;
    } finally {
      release();
      forget();
      unwatch();
      await live.return?.();
    }
  }

  /** Calls `end` when `viewer` is dismissed from the owner's events (dismiss); returns the way to forget it. */
  onDismiss(owner: string, viewer: string, end: () => void): () => void {
    const key = `${owner}|${viewer}`;
    let ends = this.byViewer.get(key);
    if (!ends) this.byViewer.set(key, (ends = new Set()));
    ends.add(end);
    return () => {
      ends.delete(end);
      if (ends.size === 0 && this.byViewer.get(key) === ends) this.byViewer.delete(key);
    };
  }

  /**
   * Ends every stream `viewer` holds on the owner's events (a member removed from a team: decision
   * 070), on this instance and, through the relay, on the others. How many ended here.
   */
  dismiss(owner: string, viewer: string): number {
    this.relay.dismissed(owner, viewer);
    return this.dismissHere(owner, viewer);
  }

  private dismissHere(owner: string, viewer: string): number {
    const ends = [...(this.byViewer.get(`${owner}|${viewer}`) ?? [])];
    for (const end of ends) end();
    return ends.length;
  }

  /**
   * Takes one of the owner's places for an open stream, under `limits`; null when none is left.
   * Streams served by tRPC and by the fan-out (event-fan-out.ts) count together.
   */
  reserve(owner: string, limits: StreamLimits = { perOwner: Infinity, total: Infinity }): (() => void) | null {
    const ownerOpen = this.openByOwner.get(owner) ?? 0;
    if (ownerOpen >= limits.perOwner || this.openTotal >= limits.total) return null;
    this.openByOwner.set(owner, ownerOpen + 1);
    this.openTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.openTotal--;
      const left = (this.openByOwner.get(owner) ?? 1) - 1;
      if (left > 0) this.openByOwner.set(owner, left);
      else this.openByOwner.delete(owner);
    };
  }

  /** Aborts when the bus closes (shutdown): open streams end then. */
  get closedSignal(): AbortSignal {
    return this.closed.signal;
  }

  /**
   * Sees every event as it is delivered, all owners together (the benchmark's probe); returns the
   * way to stop. With several instances, only the owners this instance watches (decision 082).
   */
  observe(observer: (events: readonly StoredRenderEvent[]) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /**
   * Sees the events this process wrote, as it publishes them (the metrics): each event is written
   * by one instance, so instances counting what they wrote count every event once between them.
   */
  observeWritten(observer: (events: readonly StoredRenderEvent[]) => void): () => void {
    this.writeObservers.add(observer);
    return () => this.writeObservers.delete(observer);
  }

  /** Ends every open stream (graceful shutdown). */
  close(): void {
    this.closed.abort();
  }

  /** Open streams, all owners together. */
  get openStreams(): number {
    return this.openTotal;
  }
}
