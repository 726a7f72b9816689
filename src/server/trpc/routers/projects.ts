/** The user's projects (spec section 3: name, project_type "room_rendering", settings) with their renders. */
import { z } from "zod";
import { projectNameSchema } from "../../../shared/render";
import { PROJECT_PAGE_MAX } from "../../services/projects";
import { protectedProcedure, router } from "../init";

const id = z.string().min(1).max(64);
/** Settings a project keeps (defaults for its next renders). */
const settingsSchema = z.object({ defaultStyle: z.string().max(40).optional(), defaultRoomType: z.string().max(40).optional() }).strict();

export const projectsRouter = router({
  /** A page of projects, latest first; nextCursor asks for the next one. */
  list: protectedProcedure
    .input(z.object({ cursor: z.string().max(100).nullish(), limit: z.number().int().min(1).max(PROJECT_PAGE_MAX).optional() }).optional())
    .query(({ ctx, input }) => ctx.services.projects.list(ctx.user.id, input ?? {}, ctx.owner?.teamId ?? null)),

  get: protectedProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.projects.get(ctx.user.id, input.id)),

  create: protectedProcedure
    .input(z.object({ name: projectNameSchema, settings: settingsSchema.optional() }))
    .mutation(({ ctx, input }) => ctx.services.projects.create(ctx.user.id, input.name, input.settings, ctx.owner?.teamId ?? null)),

  rename: protectedProcedure.input(z.object({ id, name: projectNameSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.projects.rename(ctx.user.id, input.id, input.name);
    return { ok: true as const };
  }),

  updateSettings: protectedProcedure.input(z.object({ id, settings: settingsSchema })).mutation(async ({ ctx, input }) => {
    await ctx.services.projects.updateSettings(ctx.user.id, input.id, input.settings);
    return { ok: true as const };
  }),

  /** Moves a personal project, with its pictures and versions, into a team the user belongs to. */
  moveToTeam: protectedProcedure
    .input(z.object({ id, teamId: id }))
    .mutation(({ ctx, input }) => ctx.services.projects.moveToTeam(ctx.user.id, input.id, input.teamId)),

  /** Deletes the project with its uploads, renders and their files. */
  delete: protectedProcedure.input(z.object({ id })).mutation(({ ctx, input }) => ctx.services.projects.delete(ctx.user.id, input.id)),
});
