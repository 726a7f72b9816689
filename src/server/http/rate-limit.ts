/**
 * Token buckets per client address and action (sign-in, sign-up, reset, resend): generous enough
 * for people, a wall for scripts. In memory: one process serves the app.
 */
import type { Clock } from "../clock";

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    /** Burst size, and refill per period. */
    private readonly perMinute: number,
    /** The refill period (a minute unless said otherwise; a day for new accounts). */
    private readonly periodMs = 60_000,
  ) {}

  /** Takes one token for the key; false when the bucket is empty. */
  take(key: string): boolean {
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
  "signIn" | "signUp" | "newAccountsPerDay" | "passwordReset" | "resendConfirmation" | "upload" | "render" | "analytics";

/** Uploads and render requests per minute per client address: a studio's busiest batch, not a script's loop. */
export const RENDER_RATE_LIMIT_PER_MINUTE = 120;

export type RateLimits = Record<RateLimitedAction, RateLimiter>;

export function createRateLimits(clock: Clock, perMinute: number, newAccountsPerDay = 20): RateLimits {
  return {
    signIn: new RateLimiter(clock, perMinute),
    signUp: new RateLimiter(clock, perMinute),
    // Accounts made from one address a day (one address once made 20 a minute to farm free credits).
    newAccountsPerDay: new RateLimiter(clock, newAccountsPerDay, 86_400_000),
    passwordReset: new RateLimiter(clock, perMinute),
    resendConfirmation: new RateLimiter(clock, perMinute),
    upload: new RateLimiter(clock, RENDER_RATE_LIMIT_PER_MINUTE),
    render: new RateLimiter(clock, RENDER_RATE_LIMIT_PER_MINUTE),
    // Batches of up to 50 events; a tab sends a few a minute, and an office shares one address.
    analytics: new RateLimiter(clock, 300),
  };
}
