/** Teams (issue 28): the user's teams, the space they work in, the team's activity log. */
import { z } from "zod";
import { CREDIT_MOVE_MAX, MONTHLY_CAP_MAX, spaceIdSchema, teamNameSchema } from "../../../shared/teams";
import { protectedProcedure, router } from "../init";

const teamId = z.string().min(1).max(64);

export const teamsRouter = router({
  /** The user's teams and the space they work in (null: personal). */
  mine: protectedProcedure.query(async ({ ctx }) => {
    const [teams, current] = await Promise.all([ctx.services.spaces.teamsOf(ctx.user.id), ctx.services.spaces.currentSpace(ctx.user.id)]);
    return { teams, current };
  }),

  create: protectedProcedure
    .input(z.object({ name: teamNameSchema }))
    .mutation(({ ctx, input }) => ctx.services.spaces.create(ctx.user.id, input.name)),

  /** Works in a team (a member's) or, with null, in the personal space; remembered on the account. */
  switchSpace: protectedProcedure.input(z.object({ teamId: spaceIdSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.switchSpace(ctx.user.id, input.teamId);
    return { ok: true as const };
  }),

  /** The team's credits: balance and the caller's use to all; ledger, use per member and caps to Owner and Admins. */
  credits: protectedProcedure
    .input(z.object({ teamId }))
    .query(({ ctx, input }) => ctx.services.teamCredits.overview(ctx.user.id, input.teamId)),

  /** Moves credits from the caller's own balance into the team (Owner or Admin). */
  moveCredits: protectedProcedure
    .input(z.object({ teamId, amount: z.number().int().min(1).max(CREDIT_MOVE_MAX) }))
    .mutation(({ ctx, input }) => ctx.services.teamCredits.moveIn(ctx.user.id, input.teamId, input.amount)),

  /** A member's monthly cap in credits; null removes it (Owner or Admin). */
  setMonthlyCap: protectedProcedure
    .input(z.object({ teamId, userId: teamId, cap: z.number().int().min(0).max(MONTHLY_CAP_MAX).nullable() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.spaces.setMonthlyCap(ctx.user.id, input.teamId, input.userId, input.cap);
      return { ok: true as const };
    }),

  /** The team's log, newest first (Owner and Admin); `before` pages back. */
  activity: protectedProcedure
    .input(z.object({ teamId, before: z.number().int().positive().optional() }))
    .query(({ ctx, input }) => ctx.services.spaces.activity(ctx.user.id, input.teamId, input.before)),
});
