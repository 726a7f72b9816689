/**
 * Requests per client address and action: generous enough for people, a wall for scripts. Each
 * limit is either shared by every instance on the database or kept by each instance, chosen per
 * limit (decision 078; README, "Timers and limits across instances"):
 *
 * - shared, counted in the database (rate-counts.ts): sign-in, sign-up, new accounts a day, password
 *   reset, resend confirmation. At most `limit` requests in a window that starts with an address's
 *   first request. One statement per request let through; once an address is over its limit, this
 *   instance refuses it from memory until the window ends (the count can only grow till then), so a
 *   flood costs no write per refused request.
 * - per instance, in memory: uploads, render requests and analytics batches a minute. They are a wall
 *   against one script's loop on the process serving it; what they protect is already counted in the
 *   database (credits, upload budgets, visitors' renders per address, analytics events per address a
 *   day). With n instances an address gets up to n times the rate. Counting them in the database would
 *   add a disk sync to each of the most frequent writes (SQLite commits with synchronous=FULL).
 */
import { COMMUNITY } from "../../shared/community";
import type { Clock } from "../clock";
import { rateCountKey, type RateCounts } from "./rate-counts";

export interface RateLimiter {
  /** Counts one request of the key (an address); false when it is over the limit. */
  take(key: string): Promise<boolean>;
}

/** Counted in the database: the limit holds across instances. */
export class SharedRateLimiter implements RateLimiter {
  /** Addresses over the limit, and when their window ends. */
  private readonly refusedUntil = new Map<string, number>();

  constructor(
    private readonly counts: RateCounts,
    private readonly clock: Clock,
    private readonly action: string,
    /** Requests allowed in one window. */
    private readonly limit: number,
    /** The window (a minute unless said otherwise; a day for new accounts). */
    private readonly windowMs = 60_000,
  ) {}

  async take(key: string): Promise<boolean> {
    const refused = this.refusedUntil.get(key);
    if (refused !== undefined) {
      if (this.clock.now() < refused) return false;
      this.refusedUntil.delete(key);
    }
    const { count, windowEndsAt } = await this.counts.add(rateCountKey(this.action, key), this.windowMs);
    if (count >= this.limit) {
      this.refusedUntil.set(key, windowEndsAt);
      if (this.refusedUntil.size > 10_000) {
        const now = this.clock.now();
        for (const [address, until] of this.refusedUntil) if (until <= now) this.refusedUntil.delete(address);
      }
    }
    return count <= this.limit;
  }
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** A token bucket per key in this process's memory: per instance, by choice (see above). */
export class InstanceRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    /** Burst size, and refill per period. */
    private readonly perMinute: number,
    /** The refill period. */
    private readonly periodMs = 60_000,
  ) {}

  take(key: string): Promise<boolean> {
    return Promise.resolve(this.takeNow(key));
  }

  private takeNow(key: string): boolean {
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, updatedAt: now };
    const refilled = Math.min(this.perMinute, bucket.tokens + ((now - bucket.updatedAt) / this.periodMs) * this.perMinute);
    if (refilled < 1) {
      this.buckets.set(key, { tokens: refilled, updatedAt: now });
      return false;
    }
    this.buckets.set(key, { tokens: refilled - 1, updatedAt: now });
    if (this.buckets.size > 10_000) this.forgetFullBuckets(now);
    return true;
  }

  /** Full buckets carry no information: drop them so memory stays bounded. */
  private forgetFullBuckets(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / this.periodMs) * this.perMinute >= this.perMinute) this.buckets.delete(key);
    }
  }
}

export type RateLimitedAction =
  | "signIn"
  | "signUp"
  | "newAccountsPerDay"
  | "passwordReset"
  | "resendConfirmation"
  | "upload"
  | "render"
  | "analytics"
  | "communityReaction"
  | "communityReport";

/** Uploads and render requests per minute per client address: a studio's busiest batch, not a script's loop. */
export const RENDER_RATE_LIMIT_PER_MINUTE = 120;

export type RateLimits = Record<RateLimitedAction, RateLimiter>;

export function createRateLimits(counts: RateCounts, clock: Clock, perMinute: number, newAccountsPerDay = 20): RateLimits {
  const shared = (action: RateLimitedAction, limit: number, windowMs?: number) =>
    new SharedRateLimiter(counts, clock, action, limit, windowMs);
  return {
    signIn: shared("signIn", perMinute),
    signUp: shared("signUp", perMinute),
    // Accounts made from one address a day (one address once made 20 a minute to farm free credits).
    newAccountsPerDay: shared("newAccountsPerDay", newAccountsPerDay, 86_400_000),
    passwordReset: shared("passwordReset", perMinute),
    resendConfirmation: shared("resendConfirmation", perMinute),
    upload: new InstanceRateLimiter(clock, RENDER_RATE_LIMIT_PER_MINUTE),
    render: new InstanceRateLimiter(clock, RENDER_RATE_LIMIT_PER_MINUTE),
    // Batches of up to 50 events; a tab sends a few a minute, and an office shares one address.
    analytics: new InstanceRateLimiter(clock, 300),
    // The community hub (decision 102): likes, saves and follows are a wall against a script's loop on
    // this instance; reports reach an admin's list, so they are counted across instances.
    communityReaction: new InstanceRateLimiter(clock, COMMUNITY.reactionsPerMinute),
    communityReport: shared("communityReport", COMMUNITY.reportsPerMinute),
  };
}
