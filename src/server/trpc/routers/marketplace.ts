/**
 * The marketplace of styles (issue 32, decision 104): browse and read listings (any signed-in user),
 * publish a space's styles, publish a new version, unpublish (the space's Owner and Admins, or the
 * keeper of a personal space), install a copy into a space and take or decline its updates. The
 * pictures travel over their own route (http/marketplace-pictures-route.ts).
 */
import { z } from "zod";
import { marketplaceBrowseSchema, marketplaceListingIdSchema, marketplacePublishSchema } from "../../../shared/marketplace";
import { protectedProcedure, router } from "../init";

const teamId = z.string().min(1).max(64).nullable();
const inSpace = z.object({ teamId, listingId: marketplaceListingIdSchema });

export const marketplaceRouter = router({
  browse: protectedProcedure.input(marketplaceBrowseSchema).query(({ ctx, input }) => ctx.services.marketplace.browse(ctx.user.id, input)),

  /** A listing's page, with what the space `teamId` (null: the caller's personal one) has of it. */
  get: protectedProcedure
    .input(inSpace)
    .query(({ ctx, input }) => ctx.services.marketplace.get(ctx.user.id, input.listingId, input.teamId)),

  /** The space's own listings. */
  mine: protectedProcedure.input(z.object({ teamId })).query(({ ctx, input }) => ctx.services.marketplace.mine(ctx.user.id, input.teamId)),

  /** The space's installs, with the updates waiting. */
  installs: protectedProcedure
    .input(z.object({ teamId }))
    .query(({ ctx, input }) => ctx.services.marketplace.installs(ctx.user.id, input.teamId)),

  publish: protectedProcedure
    .input(marketplacePublishSchema.extend({ teamId }))
    .mutation(({ ctx, input: { teamId: space, ...listing } }) => ctx.services.marketplace.publish(ctx.user.id, space, listing)),

  republish: protectedProcedure
    .input(marketplacePublishSchema.extend({ listingId: marketplaceListingIdSchema }))
    .mutation(({ ctx, input: { listingId, ...listing } }) => ctx.services.marketplace.republish(ctx.user.id, listingId, listing)),

  unpublish: protectedProcedure.input(z.object({ listingId: marketplaceListingIdSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.marketplace.unpublish(ctx.user.id, input.listingId);
    return { ok: true as const };
  }),

  install: protectedProcedure
    .input(inSpace)
    .mutation(({ ctx, input }) => ctx.services.marketplace.install(ctx.user.id, input.teamId, input.listingId)),

  acceptUpdate: protectedProcedure
    .input(inSpace)
    .mutation(({ ctx, input }) => ctx.services.marketplace.acceptUpdate(ctx.user.id, input.teamId, input.listingId)),

  keepOwn: protectedProcedure
    .input(inSpace)
    .mutation(({ ctx, input }) => ctx.services.marketplace.keepOwn(ctx.user.id, input.teamId, input.listingId)),
});
