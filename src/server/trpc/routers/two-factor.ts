import { z } from "zod";
import { FIELD_LIMITS } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { protectedProcedure, router } from "../init";

const totpInput = z.object({
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${FIELD_LIMITS.totpCodeLength}}$`), { error: MESSAGES.invalidVerificationCode }),
});

export const twoFactorRouter = router({
  /**
   * A new key to scan (QR code) or type (secret), once the password is given again (someone at an
   * unattended signed-in browser cannot lock the owner out); two-factor turns on only after a first right code.
   */
  beginEnrollment: protectedProcedure
    .input(z.object({ password: z.string().max(FIELD_LIMITS.passwordMax) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.accounts.confirmPassword(ctx.user.id, input.password);
      return ctx.services.twoFactor.beginEnrollment(ctx.user);
    }),

  /** Turns two-factor on; the backup codes are returned this once and stored only as hashes. */
  confirmEnrollment: protectedProcedure.input(totpInput).mutation(async ({ ctx, input }) => ({
    backupCodes: await ctx.services.twoFactor.confirmEnrollment(ctx.user.id, input.code),
  })),

  disable: protectedProcedure.input(totpInput).mutation(async ({ ctx, input }) => {
    await ctx.services.twoFactor.disable(ctx.user.id, input.code);
    return { ok: true as const };
  }),
});
