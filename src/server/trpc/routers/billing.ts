/**
 * Credit packages and purchases (spec sections 7 and 9). purchase-credits is billing.purchaseCredits:
 * public, so that without a user it answers exactly "User not authenticated" (the self-test treats
 * that as correct); then without STRIPE_SECRET_KEY "Stripe secret key not configured"; then the package.
 * The credits themselves arrive with the Stripe webhook (src/server/http/stripe-webhook.ts).
 */
import { z } from "zod";
import { protectedProcedure, publicProcedure, router } from "../init";

export const billingRouter = router({
  packages: publicProcedure.query(({ ctx }) => ctx.services.payments.packages()),

  /** purchase-credits: a Stripe Checkout URL for the package; the credits come with the webhook. */
  purchaseCredits: publicProcedure
    .input(z.object({ creditPackage: z.string().max(64).optional() }).optional())
    .mutation(({ ctx, input }) =>
      ctx.services.payments.purchaseCredits(ctx.user, input?.creditPackage, ctx.baseUrl, ctx.owner?.teamId ?? null),
    ),

  /** The signed-in user's purchases, newest first. */
  purchases: protectedProcedure.query(({ ctx }) => ctx.services.payments.purchases(ctx.user.id)),
});
