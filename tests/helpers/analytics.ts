/** A batch of analytics events as the client sends it: `count` page views of one session at `timestamp`. */
export function pageViewBatch(count: number, timestamp: number) {
  return {
    events: Array.from({ length: count }, (_, index) => ({
      category: "navigation" as const,
      action: `page ${index}`,
      sessionId: "session-1",
      timestamp,
    })),
  };
}
