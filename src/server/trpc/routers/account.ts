import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { fullNameSchema, newPasswordSchema } from "../../../shared/auth-schemas";
import { FIELD_LIMITS } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { clearSessionCookie } from "../../auth/cookies";
import { invalidateOtherSessions, listSessions } from "../../auth/sessions";
import { changePassword } from "../../services/accounts";
import { deleteAllImages } from "../../services/projects";
import { listRoles } from "../../services/roles";
import { verifyPassword } from "../../auth/passwords";
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

  /** /profile: who the user is, their credits, since when, and what they rendered. */
  profile: protectedProcedure.query(async ({ ctx }) => {
    const user = await ctx.db
      .selectFrom("users")
      .leftJoin("profiles", "profiles.user_id", "users.id")
      .select([
        "users.email",
        "users.created_at",
        "users.email_confirmed_at",
        "users.password_hash",
        "profiles.full_name",
        "profiles.credits_remaining",
      ])
      .where("users.id", "=", ctx.user.id)
      .executeTakeFirstOrThrow();
    const renders = await ctx.db
      .selectFrom("render_jobs")
      .select((eb) => [
        eb.fn.countAll<number>().as("total"),
        eb.fn.sum<number>(eb.case().when("status", "=", "succeeded").then(1).else(0).end()).as("succeeded"),
        eb.fn.sum<number>(eb.case().when("status", "=", "failed").then(1).else(0).end()).as("failed"),
      ])
      .where("user_id", "=", ctx.user.id)
      .executeTakeFirstOrThrow();
    const styles = await ctx.db
      .selectFrom("render_jobs")
      .select((eb) => ["style", eb.fn.countAll<number>().as("count")])
      .where("user_id", "=", ctx.user.id)
      .where("status", "=", "succeeded")
      .groupBy("style")
      .orderBy("count", "desc")
      .limit(5)
      .execute();
    const projects = await ctx.db
      .selectFrom("projects")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", ctx.user.id)
      .executeTakeFirstOrThrow();
    return {
      email: user.email,
      fullName: user.full_name ?? user.email,
      credits: user.credits_remaining ?? 0,
      memberSince: user.created_at,
      emailConfirmed: user.email_confirmed_at !== null,
      hasPassword: user.password_hash !== null,
      renders: { total: Number(renders.total), succeeded: Number(renders.succeeded ?? 0), failed: Number(renders.failed ?? 0) },
      favouriteStyles: styles.map((row) => ({ style: row.style, count: Number(row.count) })),
      projects: Number(projects.n),
    };
  }),

  updateProfile: protectedProcedure.input(z.object({ fullName: fullNameSchema })).mutation(async ({ ctx, input }) => {
    await ctx.db
      .updateTable("profiles")
      .set({ full_name: input.fullName, updated_at: ctx.clock.now() })
      .where("user_id", "=", ctx.user.id)
      .execute();
    return { ok: true as const };
  }),

  /**
   * Deletes the account and everything in it: pictures with their files, projects, sessions,
   * roles, the ledger. The user types their e-mail address, and their password when they have one.
   */
  deleteAccount: protectedProcedure
    .input(z.object({ confirmEmail: z.string().max(FIELD_LIMITS.emailMax), password: z.string().max(FIELD_LIMITS.passwordMax).optional() }))
    .mutation(async ({ ctx, input }) => {
      const user = await ctx.db
        .selectFrom("users")
        .select(["email", "password_hash"])
        .where("id", "=", ctx.user.id)
        .executeTakeFirstOrThrow();
      if (input.confirmEmail.trim().toLowerCase() !== user.email.toLowerCase())
        throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.deleteConfirmationMismatch });
      if (user.password_hash !== null && !(await verifyPassword(user.password_hash, input.password ?? ""))) {
        throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.currentPasswordWrong });
      }
      await deleteAllImages(ctx, ctx.user.id);
      // Everything else hangs off the user row (ON DELETE CASCADE); analytics keep no user id.
      await ctx.db.transaction().execute(async (trx) => {
        await trx.deleteFrom("login_attempts").where("email", "=", user.email.toLowerCase()).execute();
        await trx.deleteFrom("users").where("id", "=", ctx.user.id).execute();
      });
      if (ctx.req && ctx.res) clearSessionCookie(ctx.req, ctx.res, ctx.env);
      ctx.log.info("account deleted at its owner's request", { userId: ctx.user.id });
      return { ok: true as const };
    }),

  /** Privacy: every picture the user uploaded or rendered, with its files (projects stay). */
  deleteAllImages: protectedProcedure.mutation(({ ctx }) => deleteAllImages(ctx, ctx.user.id)),

  signOutOtherSessions: protectedProcedure.mutation(async ({ ctx }) => {
    const ended = await invalidateOtherSessions(ctx.db, ctx.user.id, ctx.session?.id ?? null);
    return { ended };
  }),
});
