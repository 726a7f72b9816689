/** Analytics (spec section 4): batches of the client's queued events, validated and stored. */
import { TRPCError } from "@trpc/server";
import { analyticsBatchSchema } from "../../../shared/analytics";
import { MESSAGES } from "../../../shared/messages";
import { publicProcedure, router } from "../init";

export const analyticsRouter = router({
  track: publicProcedure.input(analyticsBatchSchema).mutation(({ ctx, input }) => {
    if (!ctx.services.rateLimits.analytics.take(ctx.clientAddress))
      throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: MESSAGES.tooManyRequests });
    return ctx.services.analytics.track(input, ctx.user?.id ?? null);
  }),
});
