/** Analytics (spec section 4): batches of the client's queued events, validated and stored. */
import { analyticsBatchSchema } from "../../../shared/analytics";
import { enforceRateLimit, publicProcedure, router } from "../init";

export const analyticsRouter = router({
  track: publicProcedure.input(analyticsBatchSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "analytics");
    return ctx.services.analytics.track(input, ctx.user?.id ?? null, ctx.clientAddress);
  }),
});
