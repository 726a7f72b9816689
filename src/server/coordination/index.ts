/**
 * What instances sharing one database agree on through it (issue 29, decision 078): which of them
 * runs a scheduled task (run-claims.ts, the table scheduled_runs) and how many requests an address
 * made (rate-counts.ts and the limits on it, the table rate_counts); and, on PostgreSQL, the channel
 * they tell each other things on (notifications.ts: LISTEN/NOTIFY). Owns those two tables. What
 * stays per instance, by choice, is said in rate-limits.ts and README ("Timers and limits across
 * instances").
 */
export { createRunClaims, INSTANCE_NAME, type ClaimedRun, type RunClaims, type ScheduledRun } from "./run-claims";
export { createRateCounts, rateCountKey, type Counted, type RateCounts } from "./rate-counts";
export {
  createRateLimits,
  InstanceRateLimiter,
  RENDER_RATE_LIMIT_PER_MINUTE,
  SharedRateLimiter,
  type RateLimiter,
  type RateLimitedAction,
  type RateLimits,
} from "./rate-limits";
export { PostgresNotifications, type CrossInstanceChannel } from "./notifications";
