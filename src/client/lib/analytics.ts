/**
 * Analytics on the device (spec sections 3 and 4): events are queued and sent in batches to
 * analytics.track. Tracking is on by default and can be switched off in Settings (the choice is
 * kept on the device). The queue is flushed when it holds more than ANALYTICS_FLUSH_THRESHOLD
 * events, when tracking is switched back on, and when the page is hidden.
 *
 * Analytics must never block or break the interface: track() never throws, a batch the server
 * refuses (or a network failure) is dropped after that one try, and nothing here awaits the UI.
 */
import { ANALYTICS_FLUSH_THRESHOLD, STORAGE_KEYS } from "../../shared/constants";
import { createSessionId, pagePath } from "./analyticsTransport";
import type { AnalyticsEvent } from "../../shared/analytics";
import { ANALYTICS_LIMITS, type AnalyticsCategory } from "../../shared/analytics-constants";
import { isUntrackedPath } from "../../shared/routes";

/** localStorage: "false" when the user switched tracking off (absent or anything else: on). */
export const ANALYTICS_ENABLED_KEY = STORAGE_KEYS.analyticsEnabled;
/** sessionStorage: the analytics user id of this browser tab's visit (spec section 3). */
export const ANALYTICS_USER_ID_KEY = STORAGE_KEYS.analyticsUserId;

export interface TrackInput {
  category: AnalyticsCategory;
  action: string;
  label?: string | undefined;
  value?: number | undefined;
  metadata?: Record<string, string | number | boolean | null> | undefined;
}

export type AnalyticsSender = (events: AnalyticsEvent[]) => Promise<unknown>;

export interface AnalyticsQueueOptions {
  sessionId: string;
  userId?: string | undefined;
  enabled?: boolean;
  send?: AnalyticsSender | undefined;
  /** Flush when more than this many events are queued. */
  threshold?: number;
  now?: () => number;
  /** Told about a dropped batch (for a log line); never throws into the caller. */
  onDrop?: (error: unknown, dropped: number) => void;
}

// Defined with the sender, which the first load needs too; the queue's callers keep importing them here.
export { createSessionId, pagePath };

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** The event as the server's schema accepts it (or null when it cannot be made valid). */
export function toEvent(
  input: TrackInput,
  base: { timestamp: number; sessionId: string; userId?: string | undefined },
): AnalyticsEvent | null {
  const action = clip(input.action.trim(), ANALYTICS_LIMITS.actionMax);
  if (!action) return null;
  const event: AnalyticsEvent = {
    category: input.category,
    action,
    timestamp: Math.max(1, Math.round(base.timestamp)),
    sessionId: clip(base.sessionId, ANALYTICS_LIMITS.sessionIdMax),
  };
  if (input.label !== undefined) event.label = clip(input.label, ANALYTICS_LIMITS.labelMax);
  if (input.value !== undefined && Number.isFinite(input.value)) event.value = input.value;
  if (input.metadata) {
    const metadata: Record<string, string | number | boolean | null> = {};
    for (const [key, value] of Object.entries(input.metadata)) {
      metadata[clip(key, 50)] =
        typeof value === "string" ? clip(value, 500) : typeof value === "number" && !Number.isFinite(value) ? null : value;
    }
    // Too large a metadata object would get the whole batch refused: leave it out instead.
    if (JSON.stringify(metadata).length <= ANALYTICS_LIMITS.metadataMaxBytes) event.metadata = metadata;
  }
  if (base.userId) event.userId = clip(base.userId, 64);
  return event;
}

export class AnalyticsQueue {
  private queue: AnalyticsEvent[] = [];
  private enabled: boolean;
  private send: AnalyticsSender | undefined;
  private sending = false;
  private readonly threshold: number;
  private readonly now: () => number;
  private readonly onDrop: ((error: unknown, dropped: number) => void) | undefined;
  readonly sessionId: string;
  readonly userId: string | undefined;

  constructor(options: AnalyticsQueueOptions) {
    this.sessionId = options.sessionId;
    this.userId = options.userId;
    this.enabled = options.enabled ?? true;
    this.send = options.send;
    this.threshold = options.threshold ?? ANALYTICS_FLUSH_THRESHOLD;
    this.now = options.now ?? Date.now;
    this.onDrop = options.onDrop;
  }

  get size(): number {
    return this.queue.length;
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** Events waiting to be sent (a copy). */
  pending(): AnalyticsEvent[] {
    return [...this.queue];
  }

  setSender(send: AnalyticsSender | undefined): void {
    this.send = send;
    if (this.queue.length > this.threshold) void this.flush();
  }

  /** Queues an event (nothing when tracking is off); flushes when more than the threshold wait. */
  track(input: TrackInput): void {
    try {
      if (!this.enabled) return;
      const event = toEvent(input, { timestamp: this.now(), sessionId: this.sessionId, userId: this.userId });
      if (!event) return;
      this.queue.push(event);
      if (this.queue.length > this.threshold) void this.flush();
    } catch {
      // Analytics never breaks the caller.
    }
  }

  /**
   * Switched off, nothing is queued and nothing leaves the device (events queued before wait);
   * switched back on, the queue is flushed at once (spec section 4).
   */
  setEnabled(enabled: boolean): void {
    const wasEnabled = this.enabled;
    this.enabled = enabled;
    if (enabled && !wasEnabled) void this.flush();
  }

  /** Sends everything queued, in batches the server accepts; a failed batch is dropped. Never rejects. */
  async flush(): Promise<void> {
    if (this.sending || !this.send || !this.enabled) return;
    this.sending = true;
    try {
      while (this.queue.length > 0 && this.enabled && this.send) {
        const batch = this.queue.splice(0, ANALYTICS_LIMITS.batchMax);
        try {
          await this.send(batch);
        } catch (error) {
          try {
            this.onDrop?.(error, batch.length);
          } catch {
            // Even the log must not break anything.
          }
        }
      }
    } finally {
      this.sending = false;
    }
  }
}

function readStorage(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // Without storage the choice lasts for this visit.
  }
}

/** The analytics user id of this visit (sessionStorage), made on first use. */
function analyticsUserId(): string | undefined {
  if (typeof window === "undefined") return undefined;
  const existing = readStorage(() => sessionStorage, ANALYTICS_USER_ID_KEY);
  if (existing) return existing;
  const made = `u-${createSessionId()}`;
  writeStorage(() => sessionStorage, ANALYTICS_USER_ID_KEY, made);
  return made;
}

export function storedAnalyticsEnabled(): boolean {
  if (typeof window === "undefined") return true;
  return readStorage(() => localStorage, ANALYTICS_ENABLED_KEY) !== "false";
}

/** The queue of this tab. */
export const analytics = new AnalyticsQueue({
  sessionId: createSessionId(),
  userId: analyticsUserId(),
  enabled: storedAnalyticsEnabled(),
  onDrop: (error, dropped) => console.warn(`Analytics: ${dropped} event(s) could not be sent and were dropped`, error),
});

const enabledListeners = new Set<(enabled: boolean) => void>();

/** Switches tracking on or off on this device (Settings). */
export function setAnalyticsEnabled(enabled: boolean): void {
  writeStorage(() => localStorage, ANALYTICS_ENABLED_KEY, enabled ? null : "false");
  analytics.setEnabled(enabled);
  for (const listener of enabledListeners) listener(enabled);
}

export function subscribeAnalyticsEnabled(listener: (enabled: boolean) => void): () => void {
  enabledListeners.add(listener);
  return () => {
    enabledListeners.delete(listener);
  };
}

/** Shorthand for analytics.track; safe to call from anywhere. Nothing is tracked on an untracked page (a review link). */
export function track(input: TrackInput): void {
  if (typeof window !== "undefined" && isUntrackedPath(window.location.pathname)) return;
  analytics.track(input);
}
