/**
 * Teams (issue 28): the user's teams, the space they work in, the team's activity log, its members
 * and invitations. The spaces module decides who may do what (roles, decision 070); this only
 * validates and passes the caller on.
 */
import { z } from "zod";
import { CREDIT_MOVE_MAX, MONTHLY_CAP_MAX, spaceIdSchema, teamNameSchema } from "../../../shared/teams";
import { invitationTokenSchema, inviteInputSchema, memberRoleSchema, teamIdSchema } from "../../../shared/team-members";
import type { Context } from "../context";
import { protectedProcedure, publicProcedure, router } from "../init";

const teamId = teamIdSchema;
const userId = z.string().min(1).max(64);
const invitationId = z.string().min(1).max(64);

/** Where an invitation's link points, and the inviter's language (the mail's default). */
const inviteMail = (ctx: Context) => ({ baseUrl: ctx.mailBaseUrl, language: ctx.language });

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

  /** The team as a member sees it; pending invitations for Owner and Admin. */
  details: protectedProcedure.input(z.object({ teamId })).query(({ ctx, input }) => ctx.services.spaces.details(ctx.user.id, input.teamId)),

  invite: protectedProcedure
    .input(inviteInputSchema)
    .mutation(({ ctx, input }) => ctx.services.spaces.invite(ctx.user.id, input, inviteMail(ctx))),

  revokeInvitation: protectedProcedure.input(z.object({ teamId, invitationId })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.revokeInvitation(ctx.user.id, input.teamId, input.invitationId);
    return { ok: true as const };
  }),

  resendInvitation: protectedProcedure
    .input(z.object({ teamId, invitationId }))
    .mutation(({ ctx, input }) => ctx.services.spaces.resendInvitation(ctx.user.id, input.teamId, input.invitationId, inviteMail(ctx))),

  /** What an invitation link is (team, inviter, address, state), for the /invite page; null: no such link. */
  invitation: publicProcedure
    .input(z.object({ token: invitationTokenSchema }))
    .query(({ ctx, input }) => ctx.services.spaces.invitation(input.token)),

  acceptInvitation: protectedProcedure
    .input(z.object({ token: invitationTokenSchema }))
    .mutation(({ ctx, input }) => ctx.services.spaces.acceptInvitation(ctx.user.id, input.token)),

  changeRole: protectedProcedure.input(z.object({ teamId, userId, role: memberRoleSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.changeRole(ctx.user.id, input.teamId, input.userId, input.role);
    return { ok: true as const };
  }),

  transferOwnership: protectedProcedure.input(z.object({ teamId, userId })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.transferOwnership(ctx.user.id, input.teamId, input.userId);
    return { ok: true as const };
  }),

  rename: protectedProcedure.input(z.object({ teamId, name: teamNameSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.rename(ctx.user.id, input.teamId, input.name);
    return { ok: true as const };
  }),

  /** Deletes the team with its projects, renders, files and credits (Owner; the page says so first). */
  delete: protectedProcedure.input(z.object({ teamId })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.deleteTeam(ctx.user.id, input.teamId);
    return { ok: true as const };
  }),

  removeMember: protectedProcedure.input(z.object({ teamId, userId })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.removeMember(ctx.user.id, input.teamId, input.userId);
    return { ok: true as const };
  }),

  leave: protectedProcedure.input(z.object({ teamId })).mutation(async ({ ctx, input }) => {
    await ctx.services.spaces.leave(ctx.user.id, input.teamId);
    return { ok: true as const };
  }),
});
