/**
 * PostgreSQL LISTEN/NOTIFY between the instances sharing one database: live render and review
 * events (decision 082), and the render signals and settings changes (decision 083). Each instance listens
 * on ONE dedicated connection of its own (not one of the Kysely pool's, which are lent out per
 * query), for every channel a module subscribed to. A dropped connection is reopened (backoff from
 * 250 ms to 5 s); after each (re)connection the `onConnected` handlers run, so the relays catch up
 * on what was announced while nobody listened. Notifications are sent through the pool (or inside
 * the writing transaction, delivered at its commit).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import type { AppDatabase } from "../db/client";
import type { Logger } from "../logger";

/** NOTIFY refuses payloads of 8000 bytes or more; ours stay far below (owner keys and ids). */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7900;

/** A channel between the instances sharing one database (null on SQLite: one process). */
export interface CrossInstanceChannel {
  /** This instance's id (payloads carry it, so an instance can skip its own messages). */
  readonly instance: string;
  subscribe(channel: string, handler: (payload: string) => void): () => void;
  /** Runs after each (re)connection of the listening connection (first one included). */
  onConnected(handler: (reconnected: boolean) => void): () => void;
  /** Sends one notification (through the pool); failures are logged, not thrown. */
  notify(channel: string, payload: string): Promise<void>;
  /** Opens the listening connection (startApp, before any stream or job runs). */
  start(): Promise<void>;
  /** Closes it for good (at shutdown, after the streams ended). */
  close(): Promise<void>;
}

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5000;

export class PostgresNotifications implements CrossInstanceChannel {
  readonly instance = randomUUID();
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly connectedHandlers = new Set<(reconnected: boolean) => void>();
  private client: pg.Client | null = null;
  private closed = false;
  private connections = 0;
  private backoffMs = MIN_BACKOFF_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private listening = false;

  constructor(
    private readonly url: string,
    private readonly db: AppDatabase,
    private readonly log: Logger,
  ) {}

  /** Whether the listening connection is open and listening (tests, health). */
  get isListening(): boolean {
    return this.listening;
  }

  /** Opens the listening connection; resolves once it listens (or rejects: start-up fails loudly). */
  async start(): Promise<void> {
    await this.connect();
  }

  subscribe(channel: string, handler: (payload: string) => void): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      if (this.client && this.listening) {
        const client = this.client;
        client.query(`LISTEN ${quoteChannel(channel)}`).catch((error) => this.dropped(error, client));
      }
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  onConnected(handler: (reconnected: boolean) => void): () => void {
    this.connectedHandlers.add(handler);
    return () => this.connectedHandlers.delete(handler);
  }

  async notify(channel: string, payload: string): Promise<void> {
    if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES) throw new Error(`notification payload too long for ${channel}`);
    try {
      await sql`select pg_notify(${channel}, ${payload})`.execute(this.db);
    } catch (error) {
      this.log.warn("could not notify the other instances", { channel, error });
    }
  }

  /** Closes the listening connection for good (graceful shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => {});
  }

  /** Ends the listening connection as a network failure would (tests of the reconnection). */
  async simulateDrop(): Promise<void> {
    const client = this.client;
    if (!client) return;
    // The backend ends the session; the client sees its connection end and reconnects.
    await sql`select pg_terminate_backend(${(client as unknown as { processID: number }).processID})`.execute(this.db);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (message) => this.dispatch(message.channel, message.payload ?? ""));
    client.on("error", (error) => this.dropped(error, client));
    client.on("end", () => this.dropped(undefined, client));
    await client.connect();
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteChannel(channel)}`);
    this.client = client;
    this.listening = true;
    this.backoffMs = MIN_BACKOFF_MS;
    const reconnected = this.connections++ > 0;
    if (reconnected) this.log.info("listening for events of the other instances again");
    for (const handler of this.connectedHandlers) handler(reconnected);
  }

  private dropped(error?: unknown, client?: pg.Client): void {
    if (client && client !== this.client) return;
    if (this.closed || !this.listening) return;
    this.listening = false;
    this.client = null;
    client?.end().catch(() => {});
    this.log.warn("the connection listening for other instances' events dropped; reconnecting", { error });
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed) return;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
    this.retryTimer = setTimeout(() => {
      this.connect().catch((error) => {
        this.log.warn("could not reconnect the listening connection", { error });
        this.scheduleRetry();
      });
    }, wait);
    this.retryTimer.unref();
  }

  private dispatch(channel: string, payload: string): void {
    for (const handler of this.handlers.get(channel) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        this.log.warn("a notification could not be handled", { channel, error });
      }
    }
  }
}

/** Channel names are ours (lower-case words); quoted as identifiers all the same. */
function quoteChannel(channel: string): string {
  return `"${channel.replaceAll('"', '""')}"`;
}
