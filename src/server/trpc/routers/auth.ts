/** Sign-up, sign-in (with lockout and the second factor), sign-out, sessions, confirmation and password reset. */
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
import { ADMIN_ROLE } from "../../../shared/constants";
import type { SessionInfo } from "../../auth/sessions";
import type { MailContext } from "../../services/accounts";
import type { Context } from "../context";
import { enforceRateLimit, protectedProcedure, publicProcedure, router } from "../init";

/** Links in mails point at PUBLIC_URL, else the address this request came to; in the user's language. */
function mailContextFor(ctx: Context): MailContext {
  return { baseUrl: ctx.mailBaseUrl, language: ctx.language };
}

/** A session only means something as a browser's cookie: without HTTP (scripts, tests) none is made. */
async function startSession(ctx: Context, userId: string, rememberMe: boolean): Promise<void> {
  if (!ctx.sessionCookie) return;
  const { token, session } = await ctx.services.accounts.completeSignIn({
    userId,
    rememberMe,
    previousToken: ctx.sessionCookie.current,
    visitorId: ctx.visitorId,
    request: ctx.requestInfo,
    language: ctx.language,
  });
  ctx.sessionCookie.set(token, session.persistent ? session.expiresAt : undefined);
}

function publicSession(session: SessionInfo) {
  return { persistent: session.persistent, expiresAt: session.expiresAt, idleExpiresAt: session.idleExpiresAt };
}

export const authRouter = router({
  /**
   * The signed-in user and their session's timers, or nulls for a visitor. `admin` tells the page's
   * shell whether to show the whole Quick Admin bar or only its small control (issue 27); what an
   * admin may do is still checked by every admin procedure.
   */
  session: publicProcedure.query(async ({ ctx }) => {
    if (!ctx.user || !ctx.session) return { user: null, session: null };
    const [summary, roles] = await Promise.all([ctx.services.accounts.summary(ctx.user.id), ctx.services.roles.list(ctx.user.id)]);
    return { user: { ...summary, admin: roles.includes(ADMIN_ROLE) }, session: publicSession(ctx.session) };
  }),

  /** Which outside sign-in providers this installation has configured. */
  providers: publicProcedure.query(({ ctx }) => ({ google: ctx.services.accounts.googleConfigured() })),

  signUp: publicProcedure.input(signUpSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "signUp");
    await enforceRateLimit(ctx, "newAccountsPerDay", "tooManyAccountsToday");
    const { email } = await ctx.services.accounts.signUp(input, mailContextFor(ctx));
    return { email };
  }),

  signIn: publicProcedure.input(signInSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "signIn");
    const result = await ctx.services.accounts.signIn(input, ctx.requestInfo);
    if (result.status !== "signed-in") return result;
    await startSession(ctx, result.userId, input.rememberMe);
    return { status: "signed-in" as const };
  }),

  /** The second step of a sign-in with two-factor: a code from the authenticator, or a backup code. */
  verifyTwoFactor: publicProcedure
    .input(z.object({ challengeToken: z.string().min(1).max(200) }).and(twoFactorCodeSchema))
    .mutation(async ({ ctx, input }) => {
      await enforceRateLimit(ctx, "signIn");
      const result = await ctx.services.accounts.verifyTwoFactorChallenge(input.challengeToken, input.code, input.backup, ctx.language);
      await startSession(ctx, result.userId, result.rememberMe);
      return { status: "signed-in" as const, usedBackupCode: result.usedBackupCode };
    }),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    if (ctx.session) await ctx.services.sessions.invalidate(ctx.session.id);
    ctx.sessionCookie?.clear();
    return { ok: true as const };
  }),

  /** "Stay signed in" from the idle warning. */
  extendSession: protectedProcedure.mutation(async ({ ctx }) => publicSession(await ctx.services.sessions.extend(ctx.session?.id ?? null))),

  /** validate-login (spec section 7): the lock state of an address, before signing in. */
  validateLogin: publicProcedure
    .input(z.object({ email: emailSchema }))
    .query(({ ctx, input }) => ctx.services.lockout.status(input.email)),

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
      // The sign-in budget of the address: a claimed failure locks an account no faster than real
      // sign-in attempts from the same address could.
      await enforceRateLimit(ctx, "signIn");
      if (input.success) {
        if (ctx.user && ctx.user.email.toLowerCase() === input.email.toLowerCase()) await ctx.services.lockout.clear(input.email);
      } else {
        await ctx.services.lockout.countFailedAttempt(input.email, {
          ipAddress: ctx.requestInfo.ipAddress,
          userAgent: input.userAgent ?? null,
        });
      }
      const status = await ctx.services.lockout.status(input.email);
      return { isLocked: status.isLocked, attemptsRemaining: status.attemptsRemaining, message: status.message };
    }),

  /** Sends the confirmation mail again: at most once a minute per address; silent for unknown addresses. */
  resendConfirmation: publicProcedure.input(emailOnlySchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "resendConfirmation");
    const ownAccount = ctx.user !== null && ctx.user.email.toLowerCase() === input.email.trim().toLowerCase();
    await ctx.services.accounts.resendConfirmation(input.email, mailContextFor(ctx), ownAccount);
    return { ok: true as const };
  }),

  /** Always answers ok, so the form cannot tell which addresses have accounts. */
  requestPasswordReset: publicProcedure.input(resetRequestSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "passwordReset");
    await ctx.services.accounts.requestPasswordReset(input.resetEmail, mailContextFor(ctx));
    return { ok: true as const };
  }),

  /**
   * The state of a reset link, without using it up: the page says at once that a link was used or
   * has expired. Rate limited with the reset itself; answers nothing about the account.
   */
  resetLinkState: publicProcedure.input(z.object({ token: z.string().min(1).max(200) })).query(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "passwordReset");
    return { state: await ctx.services.accounts.resetLinkState(input.token) };
  }),

  resetPassword: publicProcedure
    .input(z.object({ token: z.string().min(1).max(200), password: newPasswordSchema }))
    .mutation(async ({ ctx, input }) => {
      await enforceRateLimit(ctx, "passwordReset");
      await ctx.services.accounts.resetPassword(input.token, input.password);
      return { ok: true as const };
    }),
});
