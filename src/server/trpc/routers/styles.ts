/**
 * Styles of a space's own (issue 32, decision 100): a user's personal styles, or a team's (any member
 * lists them; Owner and Admin make, change and delete them). The reference picture travels as raw
 * bytes over its own route (http/style-reference-route.ts), not through tRPC.
 */
import { z } from "zod";
import { customStyleIdSchema, customStyleInputSchema } from "../../../shared/custom-styles";
import { protectedProcedure, router } from "../init";

const teamId = z.string().min(1).max(64).nullable();

export const stylesRouter = router({
  /** The space's styles (teamId null: the caller's personal space), newest change first. */
  list: protectedProcedure.input(z.object({ teamId })).query(({ ctx, input }) => ctx.services.styles.list(ctx.user.id, input.teamId)),

  get: protectedProcedure
    .input(z.object({ id: customStyleIdSchema }))
    .query(({ ctx, input }) => ctx.services.styles.get(ctx.user.id, input.id)),

  create: protectedProcedure
    .input(customStyleInputSchema.extend({ teamId }))
    .mutation(({ ctx, input: { teamId: space, ...style } }) => ctx.services.styles.create(ctx.user.id, space, style)),

  update: protectedProcedure
    .input(customStyleInputSchema.extend({ id: customStyleIdSchema }))
    .mutation(({ ctx, input: { id, ...style } }) => ctx.services.styles.update(ctx.user.id, id, style)),

  delete: protectedProcedure.input(z.object({ id: customStyleIdSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.styles.delete(ctx.user.id, input.id);
    return { ok: true as const };
  }),

  removeReference: protectedProcedure
    .input(z.object({ id: customStyleIdSchema }))
    .mutation(({ ctx, input }) => ctx.services.styles.removeReference(ctx.user.id, input.id)),
});
