/**
 * Client review links (issue 28, decision 073). The studio's side (signed in, the project's access
 * check is the review module's, through the projects service): create, list, revoke, and the live
 * events of a project's links. The client's side (no account, the link's token): the page, a
 * comment, a decision. Everything else is the review module's.
 */
import { z } from "zod";
import { reviewCommentInputSchema, reviewCreateInputSchema, reviewDecisionInputSchema, type ReviewEvent } from "../../../shared/review";
import { enforceRateLimit, protectedProcedure, publicProcedure, router } from "../init";

const id = z.string().min(1).max(64);
const token = z.string().min(1).max(64);

export const reviewRouter = router({
  create: protectedProcedure.input(reviewCreateInputSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "render");
    return ctx.services.review.create(ctx.user.id, input, ctx.language);
  }),

  list: protectedProcedure
    .input(z.object({ projectId: id }))
    .query(({ ctx, input }) => ctx.services.review.list(ctx.user.id, input.projectId)),

  revoke: protectedProcedure.input(z.object({ linkId: id })).mutation(async ({ ctx, input }) => {
    await ctx.services.review.revoke(ctx.user.id, input.linkId);
    return { ok: true as const };
  }),

  /** Comments and decisions on the project's links as they happen, over server-sent events. */
  events: protectedProcedure.input(z.object({ projectId: id })).subscription(async function* ({ ctx, input, signal }) {
    const stream = await ctx.services.review.events(ctx.user.id, input.projectId, signal);
    // No replay on reconnect: the panel reloads the list when its stream starts (so nothing is missed in between).
    for await (const event of stream) yield event satisfies ReviewEvent;
  }),

  /** The client's page; a revoked or expired link is not found. */
  page: publicProcedure.input(z.object({ token })).query(({ ctx, input }) => ctx.services.review.page(input.token)),

  comment: publicProcedure
    .input(reviewCommentInputSchema)
    .mutation(({ ctx, input }) => ctx.services.review.comment(input, ctx.clientAddress)),

  decide: publicProcedure.input(reviewDecisionInputSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "render");
    return ctx.services.review.decide(input, ctx.mailBaseUrl);
  }),
});
