import { TRPCError } from "@trpc/server";
import type { Request } from "express";
import { z } from "zod";
import {
  emailOnlySchema,
  emailSchema,
  newPasswordSchema,
  resetRequestSchema,
  signInSchema,
  signUpSchema,
  twoFactorCodeSchema,
} from "../../../shared/auth-schemas";
import { AUTH } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { clearSessionCookie, requestInfo, startBrowserSession } from "../../auth/cookies";
import { googleConfigured } from "../../auth/google";
import { clearAttempts, countFailedAttempt, lockoutStatus } from "../../auth/lockout";
import type { RateLimitedAction } from "../../auth/rate-limit";
import { extendSession, invalidateSession, type SessionInfo } from "../../auth/sessions";
import {
  findUserByEmail,
  type MailContext,
  requestPasswordReset,
  resetPassword,
  sendConfirmationMail,
  signIn,
  signUp,
  verifyTwoFactorChallenge,
} from "../../services/accounts";
import type { Context } from "../context";
import { protectedProcedure, publicProcedure, router } from "../init";

/** Links in mails point at PUBLIC_URL, else the address this request came to; in the user's language. */
function mailContextFor(ctx: Context): MailContext {
  const baseUrl = ctx.env.PUBLIC_URL
    ? ctx.env.PUBLIC_URL.replace(/\/+$/, "")
    : ctx.req
      ? `${ctx.req.protocol}://${ctx.req.get("host")}`
      : `http://localhost:${ctx.env.PORT}`;
  return { baseUrl, language: ctx.language };
}

function clientAddress(req: Request | undefined): string {
  return req?.ip ?? "local";
}

function enforceRateLimit(ctx: Context, action: RateLimitedAction): void {
  if (!ctx.rateLimits[action].take(clientAddress(ctx.req))) {
    throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: MESSAGES.tooManyRequests });
  }
}

/** A session only means something as a browser's cookie: without HTTP (scripts, tests) none is made. */
async function startSession(ctx: Context, userId: string, rememberMe: boolean): Promise<void> {
  if (ctx.req && ctx.res) await startBrowserSession(ctx, ctx.req, ctx.res, userId, rememberMe);
}

function publicSession(session: SessionInfo) {
  return { persistent: session.persistent, expiresAt: session.expiresAt, idleExpiresAt: session.idleExpiresAt };
}

export const authRouter = router({
  /** The signed-in user and their session's timers, or nulls for a visitor. */
  session: publicProcedure.query(async ({ ctx }) => {
    if (!ctx.user || !ctx.session) return { user: null, session: null };
    const row = await ctx.db
      .selectFrom("users")
      .leftJoin("profiles", "profiles.user_id", "users.id")
      .leftJoin("two_factor", "two_factor.user_id", "users.id")
      .select([
        "users.id",
        "users.email",
        "users.email_confirmed_at",
        "profiles.full_name",
        "profiles.credits_remaining",
        "two_factor.enabled_at",
      ])
      .where("users.id", "=", ctx.user.id)
      .executeTakeFirstOrThrow();
    return {
      user: {
        id: row.id,
        email: row.email,
        fullName: row.full_name ?? row.email,
        emailConfirmed: row.email_confirmed_at !== null,
        twoFactorEnabled: row.enabled_at !== null && row.enabled_at !== undefined,
        creditsRemaining: row.credits_remaining ?? 0,
      },
      session: publicSession(ctx.session),
    };
  }),

  /** Which outside sign-in providers this installation has configured. */
  providers: publicProcedure.query(({ ctx }) => ({ google: googleConfigured(ctx) })),

  signUp: publicProcedure.input(signUpSchema).mutation(async ({ ctx, input }) => {
    enforceRateLimit(ctx, "signUp");
    const { email } = await signUp(ctx, input, mailContextFor(ctx));
    return { email };
  }),

  signIn: publicProcedure.input(signInSchema).mutation(async ({ ctx, input }) => {
    enforceRateLimit(ctx, "signIn");
    const result = await signIn(ctx, input, requestInfo(ctx.req));
    if (result.status !== "signed-in") return result;
    await startSession(ctx, result.userId, input.rememberMe);
    return { status: "signed-in" as const };
  }),

  /** The second step of a sign-in with two-factor: a code from the authenticator, or a backup code. */
  verifyTwoFactor: publicProcedure
    .input(z.object({ challengeToken: z.string().min(1).max(200) }).and(twoFactorCodeSchema))
    .mutation(async ({ ctx, input }) => {
      enforceRateLimit(ctx, "signIn");
      const result = await verifyTwoFactorChallenge(ctx, input.challengeToken, input.code, input.backup);
      if (result.status === "challenge-ended") throw new TRPCError({ code: "UNAUTHORIZED", message: MESSAGES.twoFactorChallengeExpired });
      if (result.status === "invalid-code") throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.invalidVerificationCode });
      await startSession(ctx, result.userId, result.rememberMe);
      return { status: "signed-in" as const, usedBackupCode: result.usedBackupCode };
    }),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
    if (ctx.req && ctx.res) clearSessionCookie(ctx.req, ctx.res, ctx.env);
    return { ok: true as const };
  }),

  /** "Stay signed in" from the idle warning. */
  extendSession: protectedProcedure.mutation(async ({ ctx }) => {
    const session = ctx.session ? await extendSession(ctx.db, ctx.clock, ctx.session.id) : null;
    if (!session) throw new TRPCError({ code: "UNAUTHORIZED", message: MESSAGES.sessionExpired });
    return publicSession(session);
  }),

  /** validate-login (spec section 7): the lock state of an address, before signing in. */
  validateLogin: publicProcedure
    .input(z.object({ email: emailSchema }))
    .query(({ ctx, input }) => lockoutStatus(ctx.db, ctx.clock, input.email)),

  /**
   * record-login-attempt (spec section 7). Sign-in already records its own attempts on the server;
   * this lets other clients report a failure, and clears the count only for the signed-in owner
   * of the address (a visitor cannot unlock an account by claiming success).
   */
  recordLoginAttempt: publicProcedure
    .input(
      z.object({
        email: emailSchema,
        success: z.boolean(),
        ipAddress: z.string().max(100).nullable().optional(),
        userAgent: z.string().max(500).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      if (input.success) {
        if (ctx.user && ctx.user.email.toLowerCase() === input.email.toLowerCase()) await clearAttempts(ctx.db, input.email);
      } else {
        await countFailedAttempt(ctx.db, ctx.clock, input.email, { ipAddress: ctx.req?.ip ?? null, userAgent: input.userAgent ?? null });
      }
      const status = await lockoutStatus(ctx.db, ctx.clock, input.email);
      return { isLocked: status.isLocked, attemptsRemaining: status.attemptsRemaining, message: status.message };
    }),

  /** Sends the confirmation mail again: at most once a minute per address; silent for unknown addresses. */
  resendConfirmation: publicProcedure.input(emailOnlySchema).mutation(async ({ ctx, input }) => {
    enforceRateLimit(ctx, "resendConfirmation");
    const user = await findUserByEmail(ctx, input.email);
    if (!user || user.email_confirmed_at !== null) return { ok: true as const };
    if (user.confirmation_sent_at !== null && ctx.clock.now() - user.confirmation_sent_at < AUTH.resendConfirmationIntervalMs) {
      throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: MESSAGES.tooManyRequests });
    }
    const profile = await ctx.db.selectFrom("profiles").select("full_name").where("user_id", "=", user.id).executeTakeFirst();
    await sendConfirmationMail(ctx, user, profile?.full_name ?? user.email, mailContextFor(ctx));
    return { ok: true as const };
  }),

  /** Always answers ok, so the form cannot tell which addresses have accounts. */
  requestPasswordReset: publicProcedure.input(resetRequestSchema).mutation(async ({ ctx, input }) => {
    enforceRateLimit(ctx, "passwordReset");
    await requestPasswordReset(ctx, input.resetEmail, mailContextFor(ctx));
    return { ok: true as const };
  }),

  resetPassword: publicProcedure
    .input(z.object({ token: z.string().min(1).max(200), password: newPasswordSchema }))
    .mutation(async ({ ctx, input }) => {
      enforceRateLimit(ctx, "passwordReset");
      if (!(await resetPassword(ctx, input.token, input.password))) {
        throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.resetLinkInvalid });
      }
      return { ok: true as const };
    }),
});
