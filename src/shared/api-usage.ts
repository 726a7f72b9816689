/**
 * API usage by day (issue 31, decision 097): what GET /api/v1/usage and /developers show. Days are
 * UTC days ("2026-11-27"); a space's usage is that of its keys (revoked ones too, while kept).
 */
import { z } from "zod";

export const API_USAGE = {
  /** Days a request of usage may cover (?days=), and how long the counts are kept (housekeeping). */
  daysMax: 90,
  keepDays: 90,
  /** What /developers shows, and the API's default. */
  daysShown: 30,
} as const;

/** How many days a usage report covers, today included. */
export const usageDaysSchema = z.number().int().min(1).max(API_USAGE.daysMax);

/** What was counted on one day. */
export interface UsageCounts {
  requests: number;
  /** Renders ordered (one per style and variation; an idempotent replay orders none). */
  renders: number;
  /** Answers 400–499: refused requests (bad input, missing scope, rate limited…). */
  clientErrors: number;
  /** Answers 500–599: our failures. */
  serverErrors: number;
}

export interface UsageDay extends UsageCounts {
  /** The UTC day, "2026-11-27". */
  day: string;
}

export interface UsageReport {
  /** The first and last day covered (UTC), both included. */
  from: string;
  to: string;
  /** Every day of the period, oldest first: all the space's keys together (zeros included). */
  days: UsageDay[];
  /** Each key that made a request in the period, with its total and its days that had requests. */
  keys: Array<{ id: string; name: string; prefix: string; revoked: boolean; total: UsageCounts; days: UsageDay[] }>;
}

/** The UTC day of a moment, "2026-11-27". */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
