/**
 * How committed render events reach this instance's bus (decision 082). The bus and its streams
 * are the same on both databases; only the transport differs:
 * - in process (SQLite, one process): what a writer publishes after its commit is delivered at once;
 * - PostgreSQL: every writer's transaction NOTIFYs "render_events" with the owner key and the new id
 *   (recordRenderEvent); each instance reads, for the owners it has streams of ("watched"), the rows
 *   after the last id it delivered, in id order, and delivers them. Ids of one owner commit in
 *   order (recordRenderEvent's per-owner lock), so "after the last id" never skips one.
 * Dismissals (a member removed from a team) travel the same way, on "render_dismiss".
 */
import type { AppDatabase } from "../../db/client";
import type { Logger } from "../../logger";
import type { CrossInstanceChannel } from "../../coordination";
import { storedEventsAfter, type StoredRenderEvent } from "./stored";

export const EVENTS_CHANNEL = "render_events";
export const DISMISS_CHANNEL = "render_dismiss";
/** After a failed read of an owner's new rows, the next try. */
const READ_RETRY_MS = 1000;

export interface RelayTarget {
  /** Hands events to this instance's streams (in id order per owner). */
  deliver(events: readonly StoredRenderEvent[]): void;
  /** Ends this instance's streams of `viewer` on the owner's events. */
  dismissHere(owner: string, viewer: string): void;
}

export interface EventRelay {
  /** Events a writer of this process committed (RenderEventBus.publish). */
  published(events: readonly StoredRenderEvent[]): void;
  /**
   * This instance has a stream of the owner's events: deliver them from now on. Resolves once
   * everything committed after it resolves is sure to be delivered (so the stream reads the table
   * after it). Returns the way to stop watching.
   */
  watch(owner: string): Promise<() => void>;
  /** A viewer dismissed on this instance: tell the others. */
  dismissed(owner: string, viewer: string): void;
  attach(target: RelayTarget): void;
}

/** One process: delivered as published. */
export class InProcessRelay implements EventRelay {
  private target: RelayTarget | undefined;
  attach(target: RelayTarget): void {
    this.target = target;
  }
  published(events: readonly StoredRenderEvent[]): void {
    this.target?.deliver(events);
  }
  watch(): Promise<() => void> {
    return Promise.resolve(() => {});
  }
  dismissed(): void {}
}

interface Watched {
  watchers: number;
  /** The last id delivered for the owner; null until the first read has run. */
  lastSeen: number | null;
  /** Reads of the owner's rows, one after another. */
  chain: Promise<void>;
  /** A read is waiting in the chain (more notifications add nothing). */
  queued: boolean;
}

/** Several instances on one PostgreSQL database. */
export class PostgresRelay implements EventRelay {
  private target: RelayTarget | undefined;
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly db: AppDatabase,
    private readonly channel: CrossInstanceChannel,
    private readonly log: Logger,
  ) {
    channel.subscribe(EVENTS_CHANNEL, (payload) => {
      const owner = ownerOf(payload);
      if (owner === null) for (const key of this.watched.keys()) this.read(key);
      else if (this.watched.has(owner)) this.read(owner);
    });
    channel.subscribe(DISMISS_CHANNEL, (payload) => {
      const message = JSON.parse(payload) as { i: string; o: string; v: string };
      if (message.i !== channel.instance) this.target?.dismissHere(message.o, message.v);
    });
    // Notifications sent while nobody listened are lost: every watched owner catches up from its last id.
    channel.onConnected(() => {
      for (const key of this.watched.keys()) this.read(key);
    });
  }

  attach(target: RelayTarget): void {
    this.target = target;
  }

  /** Delivered when their notification arrives, on this instance as on the others: one path for all. */
  published(): void {}

  async watch(owner: string): Promise<() => void> {
    let state = this.watched.get(owner);
    if (!state) {
      const fresh: Watched = { watchers: 0, lastSeen: null, queued: false, chain: Promise.resolve() };
      // Where delivery starts: the owner's newest row now. Later rows are announced (or caught up on).
      fresh.chain = this.db
        .selectFrom("render_events")
        .select((eb) => eb.fn.max("id").as("id"))
        .where("owner", "=", owner)
        .executeTakeFirst()
        .then((row) => void (fresh.lastSeen = Number(row?.id ?? 0)));
      this.watched.set(owner, (state = fresh));
    }
    state.watchers++;
    const watching = state;
    const unwatch = () => {
      if (--watching.watchers === 0 && this.watched.get(owner) === watching) this.watched.delete(owner);
    };
    try {
      await watching.chain;
    } catch (error) {
      unwatch();
      if (this.watched.get(owner) === watching) this.watched.delete(owner);
      throw error;
    }
    let done = false;
    return () => {
      if (!done) unwatch();
      done = true;
    };
  }

  dismissed(owner: string, viewer: string): void {
    void this.channel.notify(DISMISS_CHANNEL, JSON.stringify({ i: this.channel.instance, o: owner, v: viewer }));
  }

  /** Reads the owner's rows after the last delivered id, in order, after any read already running. */
  private read(owner: string): void {
    const state = this.watched.get(owner);
    if (!state || state.queued) return;
    state.queued = true;
    state.chain = state.chain
      .catch(() => {})
      .then(async () => {
        state.queued = false;
        if (state.lastSeen === null) return;
        const rows = await storedEventsAfter(this.db, owner, state.lastSeen);
        if (rows.length === 0) return;
        state.lastSeen = rows.at(-1)!.id;
        this.target?.deliver(rows);
      })
      .catch((error: unknown) => {
        state.queued = false;
        this.log.warn("could not read the render events another instance announced", { owner, error });
        // Tried again later, so the owner's streams do not wait for its next event.
        setTimeout(() => this.read(owner), READ_RETRY_MS).unref();
      });
  }

  /** Owners watched on this instance (tests). */
  get watchedOwners(): number {
    return this.watched.size;
  }
}

/** The owner key a notification names; null: unknown (every watched owner reads). */
function ownerOf(payload: string): string | null {
  try {
    const message = JSON.parse(payload) as { o?: unknown };
    return typeof message.o === "string" ? message.o : null;
  } catch {
    return null;
  }
}
