/**
 * Listing exports (California B&P Code §10140.8): create one for a finished render, list a
 * render's current ones, revoke one, and count a project's for its zip. Signed-in users only:
 * a visitor is told to sign in. Everything else is the listing module's (owner checks included).
 */
import { z } from "zod";
import { SUPPORTED_LANGUAGES } from "../../../shared/constants";
import { MESSAGES } from "../../../shared/messages";
import { DomainError } from "../../errors";
import type { Context } from "../context";
import { enforceRateLimit, protectedProcedure, publicProcedure, router } from "../init";
import { listingVideoRequestSchema } from "../../../shared/listing-video";

const id = z.string().min(1).max(64);

function requireUser(ctx: Pick<Context, "user">): string {
  if (!ctx.user) throw new DomainError("unauthenticated", "listingAccountRequired");
  return ctx.user.id;
}

export const listingRouter = router({
  /** The disclosure is checked by the module (empty, too long), so the refusal is one of its messages. */
  create: publicProcedure
    .input(
      z.object({
        jobId: id,
        disclosure: z.string().max(2000, { error: MESSAGES.listingDisclosureTooLong }).optional(),
        language: z.enum(SUPPORTED_LANGUAGES),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const userId = requireUser(ctx);
      await enforceRateLimit(ctx, "render");
      // The public link goes into a printed QR code: like a mailed link, never a forged Host header (decision 064).
      return ctx.services.listing.create(userId, input, ctx.mailBaseUrl);
    }),

  /** "Apply to the whole project": an export of every finished picture of a set, for one zip. */
  createForSet: publicProcedure
    .input(
      z.object({
        setId: id,
        disclosure: z.string().max(2000, { error: MESSAGES.listingDisclosureTooLong }).optional(),
        language: z.enum(SUPPORTED_LANGUAGES),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const userId = requireUser(ctx);
      await enforceRateLimit(ctx, "render");
      const made = await ctx.services.listing.createForSet(userId, input, ctx.mailBaseUrl);
      return { count: made.length };
    }),

  forJob: publicProcedure
    .input(z.object({ jobId: id }))
    .query(({ ctx, input }) => ctx.services.listing.forJob(requireUser(ctx), input.jobId)),

  revoke: publicProcedure.input(z.object({ exportId: id })).mutation(async ({ ctx, input }) => {
    const userId = requireUser(ctx);
    await enforceRateLimit(ctx, "render");
    await ctx.services.listing.revoke(userId, input.exportId);
    return { ok: true as const };
  }),

  /** How many pictures the project's zip holds (the dashboard offers it when there are any). */
  projectCount: publicProcedure
    .input(z.object({ projectId: id }))
    .query(async ({ ctx, input }) => ({ count: await ctx.services.listing.projectCount(requireUser(ctx), input.projectId) })),

  /** A listing video of a project's renders (issue 33): queued, then made with its progress followed. */
  createVideo: protectedProcedure
    .input(z.intersection(listingVideoRequestSchema, z.object({ language: z.enum(SUPPORTED_LANGUAGES) })))
    .mutation(async ({ ctx, input }) => {
      await enforceRateLimit(ctx, "render");
      return ctx.services.listing.createVideo(ctx.user.id, input);
    }),
  video: protectedProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.listing.video(ctx.user.id, input.id)),
  videos: protectedProcedure
    .input(z.object({ projectId: id }))
    .query(({ ctx, input }) => ctx.services.listing.videos(ctx.user.id, input.projectId)),
  cancelVideo: protectedProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => ctx.services.listing.cancelVideo(ctx.user.id, input.id)),
  /** Deletes a video for good, with its file (stopped first if it is being made). */
  deleteVideo: protectedProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await ctx.services.listing.deleteVideo(ctx.user.id, input.id);
    return { ok: true as const };
  }),
  /** Shows a made video on the public pages of its project's listing exports (one per project), or stops. */
  setVideoOnListingPages: protectedProcedure
    .input(z.object({ id, on: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.services.listing.setVideoOnListingPages(ctx.user.id, input.id, input.on)),
  /** The video's state as it changes (progress, then its end), over server-sent events. */
  videoEvents: protectedProcedure.input(z.object({ id })).subscription(async function* ({ ctx, input, signal }) {
    yield* ctx.services.listing.followVideo(ctx.user.id, input.id, signal);
  }),
});
