/**
 * /developers (issue 31, decision 094): a signed-in user's API keys, for their personal space or a
 * team where they are Owner or Admin. The secret of a new key is in the create answer only.
 */
import { z } from "zod";
import { createApiKeyInputSchema } from "../../../shared/api";
import { API_USAGE, usageDaysSchema } from "../../../shared/api-usage";
import { protectedProcedure, router } from "../init";

const id = z.string().min(1).max(64);

export const developersRouter = router({
  keys: protectedProcedure
    .input(z.object({ teamId: id.nullable() }))
    .query(({ ctx, input }) => ctx.services.api.listKeys(ctx.user.id, input.teamId)),

  createKey: protectedProcedure
    .input(createApiKeyInputSchema)
    .mutation(({ ctx, input }) => ctx.services.api.createKey(ctx.user.id, input, ctx.language)),

  /** Requests per key and day, for the page's "Usage by day". */
  usage: protectedProcedure
    .input(z.object({ teamId: id.nullable(), days: usageDaysSchema.default(API_USAGE.daysShown) }))
    .query(({ ctx, input }) => ctx.services.api.usage(ctx.user.id, input.teamId, input.days)),

  revokeKey: protectedProcedure.input(z.object({ id })).mutation(({ ctx, input }) => ctx.services.api.revokeKey(ctx.user.id, input.id)),
});
