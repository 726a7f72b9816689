import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { newPasswordSchema } from "../../../shared/auth-schemas";
import { FIELD_LIMITS } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { clearSessionCookie } from "../../auth/cookies";
import { invalidateOtherSessions, listSessions } from "../../auth/sessions";
import { changePassword } from "../../services/accounts";
import { deleteAllImages } from "../../services/projects";
import { listRoles } from "../../services/roles";
import { protectedProcedure, router } from "../init";

export const accountRouter = router({
  /** The user's roles (spec section 7: user_roles, role, by user_id); admin when it holds "admin". */
  roles: protectedProcedure.query(({ ctx }) => listRoles(ctx.db, ctx.user.id)),

  changePassword: protectedProcedure
    .input(z.object({ currentPassword: z.string().max(FIELD_LIMITS.passwordMax), newPassword: newPasswordSchema }))
    .mutation(async ({ ctx, input }) => {
      const changed = await changePassword(ctx, ctx.user.id, ctx.session?.id ?? null, input.currentPassword, input.newPassword);
      if (!changed) throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.currentPasswordWrong });
      return { ok: true as const };
    }),

  /** The user's active sessions, the current one marked. */
  sessions: protectedProcedure.query(async ({ ctx }) => {
    const sessions = await listSessions(ctx.db, ctx.clock, ctx.user.id);
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
    // Only the user's own sessions: another user's id simply matches nothing.
    await ctx.db.deleteFrom("sessions").where("id", "=", input.id).where("user_id", "=", ctx.user.id).execute();
    if (input.id === ctx.session?.id && ctx.req && ctx.res) clearSessionCookie(ctx.req, ctx.res, ctx.env);
    return { ok: true as const };
  }),

  /** Privacy: every picture the user uploaded or rendered, with its files (projects stay). */
  deleteAllImages: protectedProcedure.mutation(({ ctx }) => deleteAllImages(ctx, ctx.user.id)),

  signOutOtherSessions: protectedProcedure.mutation(async ({ ctx }) => {
    const ended = await invalidateOtherSessions(ctx.db, ctx.user.id, ctx.session?.id ?? null);
    return { ended };
  }),
});
