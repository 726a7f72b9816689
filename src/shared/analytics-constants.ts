/**
 * The analytics constants without the schemas: the client's first load imports these, and the
 * schemas in analytics.ts would pull all of zod into it (issue 15).
 */
export const ANALYTICS_CATEGORIES = [
  "user_action",
  "ai_processing",
  "navigation",
  "error",
  "performance",
  "conversion",
  "social",
  "payment",
] as const;
export type AnalyticsCategory = (typeof ANALYTICS_CATEGORIES)[number];

/** Performance events of spec section 4 (action names). */
export const PERFORMANCE_ACTIONS = { pageLoad: "page_load_time", connection: "connection_time", render: "render_time" } as const;

export const ANALYTICS_LIMITS = { batchMax: 50, actionMax: 100, labelMax: 200, metadataMaxBytes: 2000, sessionIdMax: 64 } as const;
