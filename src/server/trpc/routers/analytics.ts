/** Analytics (spec section 4): batches of the client's queued events, validated and stored. */
import { TRPCError } from "@trpc/server";
import { analyticsBatchSchema } from "../../../shared/analytics";
import { MESSAGES } from "../../../shared/messages";
import { publicProcedure, router } from "../init";

/** Event times the client claims are kept within this of the server's clock. */
const CLOCK_SKEW_MS = 24 * 3_600_000;

export const analyticsRouter = router({
  track: publicProcedure.input(analyticsBatchSchema).mutation(async ({ ctx, input }) => {
    if (!ctx.rateLimits.analytics.take(ctx.req?.ip ?? "local"))
      throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: MESSAGES.tooManyRequests });
    const now = ctx.clock.now();
    await ctx.db
      .insertInto("analytics_events")
      .values(
        input.events.map((event) => ({
          category: event.category,
          action: event.action,
          label: event.label ?? null,
          value: event.value ?? null,
          metadata: event.metadata ? JSON.stringify(event.metadata) : null,
          // The signed-in user as the server knows them; the client's own id is not trusted.
          user_id: ctx.user?.id ?? null,
          session_id: event.sessionId,
          occurred_at: Math.min(now, Math.max(now - CLOCK_SKEW_MS, event.timestamp)),
          received_at: now,
        })),
      )
      .execute();
    return { accepted: input.events.length };
  }),
});
