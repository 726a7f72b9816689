/**
 * The render flow: ai-render (render.create), the jobs and their live events (SSE), cancel,
 * delete, sharing, and the gallery. Every job and picture is reachable only by its owner
 * (a user, or a visitor's anonymous cookie); anything else answers "Not found".
 */
import { z } from "zod";
import {
  renderEventsInputSchema,
  renderRequestSchema,
  renderSetRequestSchema,
  STRUCTURE_STRENGTHS,
  type RenderEvent,
} from "../../../shared/render";
import { editRequestSchema, paintRequestSchema } from "../../../shared/edits";
import { DomainError, notFound } from "../../errors";
import type { Owner } from "../../render";
import type { Context } from "../context";
import { enforceRateLimit, protectedProcedure, publicProcedure, router, tracked } from "../init";

const id = z.string().min(1).max(64);

/** An IANA time zone this server knows (Intl), e.g. "Europe/Madrid". */
const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((name) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
      return true;
    } catch {
      return false;
    }
  }, "Unknown time zone");

/** The caller's owner (a user, or a visitor with the cookie); without one, nothing is theirs: "Not found". */
function requireOwner(ctx: Pick<Context, "owner">): Owner {
  if (!ctx.owner) throw notFound();
  return ctx.owner;
}

export const renderRouter = router({
  /** What this visitor or user may render now, and with which engine. */
  allowance: publicProcedure.query(({ ctx }) => ctx.services.render.allowance(ctx.owner, ctx.clientAddress)),

  /** What the user's photos and renders take on the server, and their quota. */
  storage: protectedProcedure.query(({ ctx }) => ctx.services.render.storageUse(ctx.user.id)),

  /** /enhanced-dashboard: the user's last 12 weeks, weeks starting Monday in their time zone (UTC when not given). */
  activity: protectedProcedure
    .input(z.object({ timeZone: timeZone.default("UTC") }).default({ timeZone: "UTC" }))
    .query(({ ctx, input }) => ctx.services.render.userActivity(ctx.user.id, input.timeZone)),

  upload: publicProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.render.upload(requireOwner(ctx), input.id)),

  /** ai-render (spec section 7): projectId, imageUrl or imageId, style (one or several). */
  create: publicProcedure.input(renderRequestSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "render");
    if (!ctx.owner) {
      const complete = input.projectId && (input.imageId || input.imageUrl) && input.style !== undefined && [input.style].flat().length > 0;
      throw complete ? notFound() : new DomainError("invalid", "missingRequiredFields");
    }
    return ctx.services.render.create(ctx.owner, input, ctx.clientAddress);
  }),

  /** "Apply to the whole project": the chosen photos of a project in one style with one seed, one credit each. */
  createSet: protectedProcedure.input(renderSetRequestSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "render");
    return ctx.services.render.createSet(requireOwner(ctx), input, ctx.clientAddress);
  }),

  /** A project's photos (not plans), for "Apply to the whole project". */
  projectPhotos: protectedProcedure
    .input(z.object({ projectId: id }))
    .query(({ ctx, input }) => ctx.services.render.projectPhotos(requireOwner(ctx), input.projectId)),

  /** A project's sets, newest first. */
  sets: protectedProcedure
    .input(z.object({ projectId: id }))
    .query(({ ctx, input }) => ctx.services.render.projectSets(requireOwner(ctx), input.projectId)),

  job: publicProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.render.job(requireOwner(ctx), input.id)),

  /** The owner's renders, newest first (optionally of one project). */
  list: publicProcedure
    .input(z.object({ projectId: id.optional(), limit: z.number().int().min(1).max(200).default(50) }).default({ limit: 50 }))
    .query(({ ctx, input }) => (ctx.owner ? ctx.services.render.list(ctx.owner, input) : [])),

  cancel: publicProcedure
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => ({ status: await ctx.services.render.cancel(requireOwner(ctx), input.id) })),

  delete: publicProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await ctx.services.render.delete(requireOwner(ctx), input.id);
    return { ok: true as const };
  }),

  /** The modification studio: repaint the painted region of a version (one credit, through the queue). */
  edit: protectedProcedure.input(editRequestSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "render");
    return ctx.services.render.edit(requireOwner(ctx), input);
  }),

  /**
   * The studio's Paint tool (issue 33): the painted region in one to three exact colours, a version
   * each. On the Preview engine an exact recolour at the operator's price (it may be free).
   */
  paint: protectedProcedure.input(paintRequestSchema).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "render");
    return ctx.services.render.paint(requireOwner(ctx), input);
  }),

  /** What the Paint tool offers: the operator's palette, the price of one colour and the engine that paints. */
  paintOffer: protectedProcedure.query(({ ctx }) => {
    const offer = ctx.services.render.paintOffer();
    return { palette: ctx.services.settings.paint().palette, credits: offer.credits, engine: offer.engine };
  }),

  /** The colours a project's paint edits used ("Walls: #e8e2d6"). */
  paintColours: protectedProcedure
    .input(z.object({ projectId: id }))
    .query(({ ctx, input }) => ctx.services.render.paintColours(requireOwner(ctx), input.projectId)),

  /** Every version of the photo a picture (an upload's or a job's id) belongs to. */
  versions: protectedProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.render.versions(requireOwner(ctx), input.id)),

  /** A share link anyone may open (publishing in the gallery is community.publish: decision 102). */
  setSharing: publicProcedure
    .input(z.object({ id, link: z.boolean().optional() }))
    .mutation(({ ctx, input }) => ctx.services.render.setSharing(requireOwner(ctx), input.id, { link: input.link })),

  /** Renders a finished render again: a new seed (re-roll), the same seed, or a stronger structure setting. One credit. */
  rerender: publicProcedure
    .input(z.object({ id, seed: z.enum(["new", "same"]).default("new"), structure: z.enum(STRUCTURE_STRENGTHS).optional() }))
    .mutation(async ({ ctx, input }) => {
      await enforceRateLimit(ctx, "render");
      return ctx.services.render.rerender(requireOwner(ctx), input.id, { seed: input.seed, structure: input.structure }, ctx.clientAddress);
    }),

  /** The optional AI upscale of a render to the photo's size, where the engine has an upscaler. */
  upscale: publicProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx, "render");
    return ctx.services.render.upscale(requireOwner(ctx), input.id);
  }),

  /** Files a render under another of the user's projects ("Save to project"). */
  moveToProject: protectedProcedure.input(z.object({ id, projectId: id })).mutation(async ({ ctx, input }) => {
    await ctx.services.render.moveToProject(ctx.user.id, input.id, input.projectId);
    return { ok: true as const };
  }),

  /** A render opened through its share link (read-only, no owner needed). */
  shared: publicProcedure
    .input(z.object({ token: z.string().min(20).max(100) }))
    .query(({ ctx, input }) => ctx.services.render.shared(input.token)),

  /** Renders users chose to show, and example pairs the app made itself. */
  gallery: publicProcedure.query(({ ctx }) => ctx.services.render.gallery()),

  /**
   * Live render events over SSE: of one job, or of all the owner's jobs. Subscribes, then replays
   * what came after lastEventId (sent back by the client on reconnect), then streams. Over HTTP,
   * the render module's fan-out route answers first (one encoding per event for all the owner's
   * streams, same wire format); this procedure answers what it refuses, and in-process callers.
   */
  events: publicProcedure.input(renderEventsInputSchema).subscription(async function* ({ ctx, input, signal }) {
    const owner = requireOwner(ctx);
    const lastEventId = Number(input.lastEventId ?? 0);
    const stream = await ctx.services.render.events(
      owner,
      { jobId: input.jobId, lastEventId: Number.isSafeInteger(lastEventId) ? lastEventId : 0 },
      signal,
    );
    for await (const stored of stream) yield tracked(String(stored.id), stored.event as RenderEvent);
  }),
});
