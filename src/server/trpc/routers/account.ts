/** The signed-in user's own account: roles, password, sessions, profile, and deleting their data. */
import { z } from "zod";
import { fullNameSchema, newPasswordSchema } from "../../../shared/auth-schemas";
import { FIELD_LIMITS } from "../../../shared/constants";
import { protectedProcedure, router } from "../init";

export const accountRouter = router({
  /** The user's roles (spec section 7: user_roles, role, by user_id); admin when it holds "admin". */
  roles: protectedProcedure.query(({ ctx }) => ctx.services.roles.list(ctx.user.id)),

  changePassword: protectedProcedure
    .input(z.object({ currentPassword: z.string().max(FIELD_LIMITS.passwordMax), newPassword: newPasswordSchema }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.accounts.changePassword(ctx.user.id, ctx.session?.id ?? null, input.currentPassword, input.newPassword);
      return { ok: true as const };
    }),

  /** The user's active sessions, the current one marked. */
  sessions: protectedProcedure.query(async ({ ctx }) => {
    const sessions = await ctx.services.sessions.list(ctx.user.id);
    return sessions.map((session) => ({
      id: session.id,
      current: session.id === ctx.session?.id,
      persistent: session.persistent,
      createdAt: session.createdAt,
      lastActiveAt: session.lastActiveAt,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
    }));
  }),

  revokeSession: protectedProcedure.input(z.object({ id: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    await ctx.services.sessions.revoke(ctx.user.id, input.id);
    if (input.id === ctx.session?.id) ctx.sessionCookie?.clear();
    return { ok: true as const };
  }),

  /** /profile: who the user is, their credits, since when, and what they rendered. */
  profile: protectedProcedure.query(({ ctx }) => ctx.services.accounts.profile(ctx.user.id)),

  updateProfile: protectedProcedure.input(z.object({ fullName: fullNameSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.accounts.updateFullName(ctx.user.id, input.fullName);
    return { ok: true as const };
  }),

  /**
   * Deletes the account and everything in it: pictures with their files, projects, sessions,
   * roles, the ledger. The user types their e-mail address, and their password when they have one.
   */
  deleteAccount: protectedProcedure
    .input(z.object({ confirmEmail: z.string().max(FIELD_LIMITS.emailMax), password: z.string().max(FIELD_LIMITS.passwordMax).optional() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.accounts.deleteAccount(ctx.user.id, input.confirmEmail, input.password);
      ctx.sessionCookie?.clear();
      return { ok: true as const };
    }),

  /** The onboarding tour was completed or skipped: remembered on the account, on every browser (decision 068). */
  finishOnboarding: protectedProcedure.mutation(async ({ ctx }) => {
    await ctx.services.accounts.finishOnboarding(ctx.user.id);
    return { onboardingDone: true as const };
  }),

  /** Privacy: every picture the user uploaded or rendered, with its files (projects stay). */
  deleteAllImages: protectedProcedure.mutation(({ ctx }) => ctx.services.accounts.deleteAllImages(ctx.user.id)),

  signOutOtherSessions: protectedProcedure.mutation(async ({ ctx }) => {
    const ended = await ctx.services.sessions.invalidateOthers(ctx.user.id, ctx.session?.id ?? null);
    return { ended };
  }),
});
