/**
 * The render flow: ai-render (render.create), the jobs and their live events (SSE), cancel,
 * delete, sharing, and the gallery. Every job and picture is reachable only by its owner
 * (a user, or a visitor's anonymous cookie); anything else answers "Not found".
 */
import { TRPCError, tracked } from "@trpc/server";
import { z } from "zod";
import { MESSAGES } from "../../../shared/messages";
import { RENDER, renderRequestSchema, type RenderEvent } from "../../../shared/render";
import { generateSecureRandomString } from "../../auth/tokens";
import { FILE_ROUTES } from "../../render/links";
import { ownerKey, userOwner, visitorOwner, type Owner } from "../../render/owner";
import { exampleGalleryPairs } from "../../render/examples";
import { engineInfo } from "../../render/providers";
import { jobView, uploadView } from "../../render/views";
import { cancelJob, createRenderJobs, deleteJob, findOwnedJob, queuePosition } from "../../services/render-jobs";
import { findOwnedUpload } from "../../services/uploads";
import type { Context } from "../context";
import { protectedProcedure, publicProcedure, router } from "../init";

const id = z.string().min(1).max(64);

/** The signed-in user, else the visitor's anonymous id, else nobody. */
export function ownerOf(ctx: Pick<Context, "user" | "visitorId">): Owner | null {
  if (ctx.user) return userOwner(ctx.user.id);
  return ctx.visitorId ? visitorOwner(ctx.visitorId) : null;
}

function requireOwner(ctx: Pick<Context, "user" | "visitorId">): Owner {
  const owner = ownerOf(ctx);
  if (!owner) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
  return owner;
}

export const renderRouter = router({
  /** What this visitor or user may render now, and with which engine. */
  allowance: publicProcedure.query(async ({ ctx }) => {
    const engine = engineInfo(ctx.renderWorker.provider);
    if (ctx.user) {
      const profile = await ctx.db.selectFrom("profiles").select("credits_remaining").where("user_id", "=", ctx.user.id).executeTakeFirst();
      return { signedIn: true, credits: profile?.credits_remaining ?? 0, demoAvailable: false, engine };
    }
    const used = ctx.visitorId
      ? await ctx.db.selectFrom("visitor_demo_renders").select("visitor_id").where("visitor_id", "=", ctx.visitorId).executeTakeFirst()
      : undefined;
    return { signedIn: false, credits: null, demoAvailable: !used, engine };
  }),

  upload: publicProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const upload = await findOwnedUpload(ctx, requireOwner(ctx), input.id);
    return uploadView(upload, RENDER.demoProjectId);
  }),

  /** ai-render (spec section 7): projectId, imageUrl or imageId, style (one or several). */
  create: publicProcedure.input(renderRequestSchema).mutation(async ({ ctx, input }) => {
    const ip = ctx.req?.ip ?? "local";
    if (!ctx.rateLimits.render.take(ip)) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: MESSAGES.tooManyRequests });
    const owner = ownerOf(ctx);
    if (!owner) {
      const complete = input.projectId && (input.imageId || input.imageUrl) && input.style !== undefined && [input.style].flat().length > 0;
      throw new TRPCError(
        complete ? { code: "NOT_FOUND", message: MESSAGES.notFound } : { code: "BAD_REQUEST", message: MESSAGES.missingRequiredFields },
      );
    }
    return createRenderJobs(ctx, owner, input, ip);
  }),

  job: publicProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const job = await findOwnedJob(ctx.db, requireOwner(ctx), input.id);
    return jobView(job, ctx.renderWorker.provider.label, job.status === "queued" ? await queuePosition(ctx.db, job) : null);
  }),

  /** The owner's renders, newest first (optionally of one project). */
  list: publicProcedure
    .input(z.object({ projectId: id.optional(), limit: z.number().int().min(1).max(200).default(50) }).default({ limit: 50 }))
    .query(async ({ ctx, input }) => {
      const owner = ownerOf(ctx);
      if (!owner) return [];
      let query = ctx.db.selectFrom("render_jobs").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(input.limit);
      query = owner.userId !== null ? query.where("user_id", "=", owner.userId) : query.where("visitor_id", "=", owner.visitorId);
      if (input.projectId) query = query.where("project_id", "=", input.projectId);
      const jobs = await query.execute();
      return Promise.all(
        jobs.map(async (job) =>
          jobView(job, ctx.renderWorker.provider.label, job.status === "queued" ? await queuePosition(ctx.db, job) : null),
        ),
      );
    }),

  cancel: publicProcedure
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => ({ status: await cancelJob(ctx, requireOwner(ctx), input.id) })),

  delete: publicProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await deleteJob(ctx, requireOwner(ctx), input.id);
    return { ok: true as const };
  }),

  /** A share link anyone may open, and/or a place in the public gallery (signed-in users). */
  setSharing: publicProcedure
    .input(z.object({ id, link: z.boolean().optional(), gallery: z.boolean().optional() }))
    .mutation(async ({ ctx, input }) => {
      const owner = requireOwner(ctx);
      const job = await findOwnedJob(ctx.db, owner, input.id);
      if (job.status !== "succeeded") throw new TRPCError({ code: "CONFLICT", message: MESSAGES.renderNotFinished });
      if (input.gallery !== undefined && owner.userId === null)
        throw new TRPCError({ code: "UNAUTHORIZED", message: MESSAGES.notAuthenticated });
      const shareToken =
        input.link === undefined
          ? job.share_token
          : input.link
            ? (job.share_token ?? `${generateSecureRandomString()}${generateSecureRandomString()}`)
            : null;
      const inGallery =
        input.gallery === undefined ? job.shared_in_gallery_at : input.gallery ? (job.shared_in_gallery_at ?? ctx.clock.now()) : null;
      await ctx.db
        .updateTable("render_jobs")
        .set({ share_token: shareToken, shared_in_gallery_at: inGallery, updated_at: ctx.clock.now() })
        .where("id", "=", job.id)
        .execute();
      return { shareUrl: shareToken ? `/render?share=${shareToken}` : null, inGallery: inGallery !== null };
    }),

  /** Files a render under another of the user's projects ("Save to project"). */
  moveToProject: protectedProcedure.input(z.object({ id, projectId: id })).mutation(async ({ ctx, input }) => {
    const job = await findOwnedJob(ctx.db, userOwner(ctx.user.id), input.id);
    const project = await ctx.db
      .selectFrom("projects")
      .select("id")
      .where("id", "=", input.projectId)
      .where("user_id", "=", ctx.user.id)
      .executeTakeFirst();
    if (!project) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
    const now = ctx.clock.now();
    await ctx.db.updateTable("render_jobs").set({ project_id: project.id, updated_at: now }).where("id", "=", job.id).execute();
    await ctx.db.updateTable("projects").set({ updated_at: now }).where("id", "=", project.id).execute();
    return { ok: true as const };
  }),

  /** A render opened through its share link (read-only, no owner needed). */
  shared: publicProcedure.input(z.object({ token: z.string().min(20).max(100) })).query(async ({ ctx, input }) => {
    const job = await ctx.db
      .selectFrom("render_jobs")
      .selectAll()
      .where("share_token", "=", input.token)
      .where("status", "=", "succeeded")
      .executeTakeFirst();
    if (!job) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
    return {
      style: job.style,
      roomType: job.room_type,
      before: FILE_ROUTES.shared(input.token, "before"),
      after: FILE_ROUTES.shared(input.token, "after"),
      width: job.result_width,
      height: job.result_height,
    };
  }),

  /** Renders users chose to show, and example pairs the app made itself. */
  gallery: publicProcedure.query(async ({ ctx }) => {
    const shared = await ctx.db
      .selectFrom("render_jobs")
      .select(["id", "style", "room_type"])
      .where("shared_in_gallery_at", "is not", null)
      .where("status", "=", "succeeded")
      .orderBy("shared_in_gallery_at", "desc")
      .limit(60)
      .execute();
    return {
      examples: await exampleGalleryPairs(ctx),
      shared: shared.map((job) => ({
        id: job.id,
        style: job.style,
        roomType: job.room_type,
        before: FILE_ROUTES.gallery(job.id, "before"),
        after: FILE_ROUTES.gallery(job.id, "after"),
      })),
    };
  }),

  /**
   * Live render events over SSE: of one job, or of all the owner's jobs. Subscribes, then replays
   * what came after lastEventId (sent back by the client on reconnect), then streams.
   */
  events: publicProcedure
    .input(z.object({ jobId: id.optional(), lastEventId: z.string().max(20).nullish() }))
    .subscription(async function* ({ ctx, input, signal }) {
      const owner = requireOwner(ctx);
      if (input.jobId) await findOwnedJob(ctx.db, owner, input.jobId);
      const lastEventId = Number(input.lastEventId ?? 0);
      const stream = ctx.renderEvents.stream(
        ctx.db,
        { owner: ownerKey(owner), jobId: input.jobId, lastEventId: Number.isSafeInteger(lastEventId) ? lastEventId : 0 },
        signal,
      );
      for await (const stored of stream) yield tracked(String(stored.id), stored.event as RenderEvent);
    }),
});
