/**
 * The community hub (issue 32, decision 102): publishing one's renders, the public gallery, the
 * signed-in feed with likes, saves and follows, and reports. Admins' procedures are in admin.ts.
 */
import { z } from "zod";
import { feedInputSchema, publicationIdSchema, publishInputSchema, reportInputSchema } from "../../../shared/community";
import { portfolioInputSchema } from "../../../shared/portfolio";
import { enforceRateLimit, protectedProcedure, publicProcedure, router } from "../init";

const id = publicationIdSchema;
const jobId = z.string().min(1).max(64);

export const communityRouter = router({
  /** /gallery: the newest publications, for anyone. */
  gallery: publicProcedure.query(({ ctx }) => ctx.services.community.gallery()),
  /** One publication, for anyone while it is published and not hidden. */
  get: publicProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.community.get(input.id)),

  feed: protectedProcedure.input(feedInputSchema).query(({ ctx, input }) => ctx.services.community.feed(ctx.user.id, input)),
  /** A render's publication and whether the caller may publish it (the publish dialog). */
  ofRender: protectedProcedure
    .input(z.object({ jobId }))
    .query(({ ctx, input }) => ctx.services.community.ofRender(ctx.user.id, input.jobId)),

  publish: protectedProcedure.input(publishInputSchema).mutation(({ ctx, input }) => ctx.services.community.publish(ctx.user.id, input)),
  unpublish: protectedProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await ctx.services.community.unpublish(ctx.user.id, input.id);
    return { ok: true as const };
  }),

  like: protectedProcedure.input(z.object({ id, on: z.boolean() })).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "communityReaction");
    return ctx.services.community.like(ctx.user.id, input.id, input.on);
  }),
  save: protectedProcedure.input(z.object({ id, on: z.boolean() })).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "communityReaction");
    return ctx.services.community.save(ctx.user.id, input.id, input.on);
  }),
  follow: protectedProcedure
    .input(z.object({ kind: z.enum(["user", "team"]), targetId: z.string().min(1).max(64), on: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await enforceRateLimit(ctx, "communityReaction");
      return ctx.services.community.follow(ctx.user.id, { kind: input.kind, id: input.targetId }, input.on);
    }),
  following: protectedProcedure.query(({ ctx }) => ctx.services.community.following(ctx.user.id)),

  // The social hub (decision 105).
  mine: protectedProcedure.query(({ ctx }) => ctx.services.community.mine(ctx.user.id)),
  myPortfolio: protectedProcedure.query(({ ctx }) => ctx.services.community.myPortfolio(ctx.user.id)),
  savePortfolio: protectedProcedure
    .input(portfolioInputSchema)
    .mutation(({ ctx, input }) => ctx.services.community.savePortfolio(ctx.user.id, input)),
  removePortfolio: protectedProcedure.mutation(async ({ ctx }) => {
    await ctx.services.community.removePortfolio(ctx.user.id);
    return { ok: true as const };
  }),
  /** A portfolio page, for anyone while it is visible. */
  portfolio: publicProcedure
    .input(z.object({ handle: z.string().max(64) }))
    .query(({ ctx, input }) => ctx.services.community.portfolio(input.handle)),

  report: protectedProcedure.input(reportInputSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "communityReport");
    await ctx.services.community.report(ctx.user.id, input);
    return { ok: true as const };
  }),
});
