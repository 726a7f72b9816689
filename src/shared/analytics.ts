/**
 * Analytics events (spec sections 3 and 4): what the client queues and sends in batches, and
 * what the server accepts. Tracking is on by default and can be switched off in Settings.
 */
import { z } from "zod";
import { ANALYTICS_CATEGORIES, ANALYTICS_LIMITS } from "./analytics-constants";

export { ANALYTICS_CATEGORIES, ANALYTICS_LIMITS, PERFORMANCE_ACTIONS, type AnalyticsCategory } from "./analytics-constants";

export const analyticsEventSchema = z.object({
  category: z.enum(ANALYTICS_CATEGORIES),
  action: z.string().trim().min(1).max(ANALYTICS_LIMITS.actionMax),
  label: z.string().max(ANALYTICS_LIMITS.labelMax).optional(),
  value: z.number().finite().optional(),
  metadata: z
    .record(z.string().max(50), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
    .refine((value) => JSON.stringify(value).length <= ANALYTICS_LIMITS.metadataMaxBytes, { error: "metadata is too large" })
    .optional(),
  timestamp: z.number().int().positive(),
  /** The client's analytics user id; the server records the signed-in user instead. */
  userId: z.string().max(64).optional(),
  sessionId: z.string().min(1).max(ANALYTICS_LIMITS.sessionIdMax),
});
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;

export const analyticsBatchSchema = z.object({ events: z.array(analyticsEventSchema).min(1).max(ANALYTICS_LIMITS.batchMax) });
export type AnalyticsBatch = z.infer<typeof analyticsBatchSchema>;
