/**
 * Credit packages and purchases (spec sections 7 and 9). purchase-credits is billing.purchaseCredits:
 * public, so that without a user it answers exactly "User not authenticated" (the self-test treats
 * that as correct); then without STRIPE_SECRET_KEY "Stripe secret key not configured"; then the package.
 * The credits themselves arrive with the Stripe webhook (src/server/http/stripe-webhook.ts).
 */
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { CREDIT_PACKAGES, findCreditPackage } from "../../../shared/billing";
import { CREDITS } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { createCheckout, listPurchases } from "../../services/payments";
import type { Context } from "../context";
import { protectedProcedure, publicProcedure, router } from "../init";

/** Where Checkout sends the buyer back: PUBLIC_URL, else the address this request came to. */
function appBaseUrl(ctx: Context): string {
  if (ctx.env.PUBLIC_URL) return ctx.env.PUBLIC_URL.replace(/\/+$/, "");
  if (ctx.req) return `${ctx.req.protocol}://${ctx.req.get("host")}`;
  return `http://localhost:${ctx.env.PORT}`;
}

export const billingRouter = router({
  packages: publicProcedure.query(({ ctx }) => ({
    packages: CREDIT_PACKAGES.map((pack) => ({
      id: pack.id,
      credits: pack.credits,
      priceCents: pack.priceCents,
      currency: pack.currency,
      licence: pack.licence,
    })),
    purchasesEnabled: Boolean(ctx.env.STRIPE_SECRET_KEY),
    refundWindowDays: CREDITS.refundWindowDays,
  })),

  /** purchase-credits: a Stripe Checkout URL for the package; the credits come with the webhook. */
  purchaseCredits: publicProcedure
    .input(z.object({ creditPackage: z.string().max(64).optional() }).optional())
    .mutation(async ({ ctx, input }) => {
      if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: MESSAGES.notAuthenticated });
      if (!ctx.env.STRIPE_SECRET_KEY) throw new TRPCError({ code: "PRECONDITION_FAILED", message: MESSAGES.stripeNotConfigured });
      const packageId = input?.creditPackage?.trim();
      if (!packageId) throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.missingRequiredFields });
      const pack = findCreditPackage(packageId);
      if (!pack) throw new TRPCError({ code: "BAD_REQUEST", message: MESSAGES.unknownCreditPackage });
      try {
        const checkout = await createCheckout(ctx, ctx.user, pack, appBaseUrl(ctx));
        return { url: checkout.url };
      } catch (error) {
        throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Stripe checkout session could not be created", cause: error });
      }
    }),

  /** The signed-in user's purchases, newest first. */
  purchases: protectedProcedure.query(({ ctx }) => listPurchases(ctx.db, ctx.user.id)),
});
