/** The user's projects (spec section 3: name, project_type "room_rendering", settings) with their renders. */
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { MESSAGES } from "../../../shared/messages";
import { projectNameSchema } from "../../../shared/render";
import { generateSecureRandomString } from "../../auth/tokens";
import type { Project } from "../../db/schema";
import { FILE_ROUTES } from "../../render/links";
import { jobView } from "../../render/views";
import { deleteProject } from "../../services/projects";
import { queuePosition } from "../../services/render-jobs";
import type { Context } from "../context";
import { protectedProcedure, router } from "../init";

const id = z.string().min(1).max(64);
/** Settings a project keeps (defaults for its next renders). */
const settingsSchema = z.object({ defaultStyle: z.string().max(40).optional(), defaultRoomType: z.string().max(40).optional() }).strict();

function projectView(project: Project) {
  return {
    id: project.id,
    name: project.name,
    projectType: project.project_type,
    settings: JSON.parse(project.settings) as Record<string, unknown>,
    createdAt: project.created_at,
    updatedAt: project.updated_at,
  };
}

async function ownedProject(ctx: Context & { user: { id: string } }, projectId: string): Promise<Project> {
  const project = await ctx.db
    .selectFrom("projects")
    .selectAll()
    .where("id", "=", projectId)
    .where("user_id", "=", ctx.user.id)
    .executeTakeFirst();
  if (!project) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
  return project;
}

export const projectsRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => {
    const projects = await ctx.db
      .selectFrom("projects")
      .selectAll()
      .where("user_id", "=", ctx.user.id)
      .orderBy("updated_at", "desc")
      .execute();
    return Promise.all(
      projects.map(async (project) => {
        const count = await ctx.db
          .selectFrom("render_jobs")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("project_id", "=", project.id)
          .executeTakeFirstOrThrow();
        const latest = await ctx.db
          .selectFrom("render_jobs")
          .select("id")
          .where("project_id", "=", project.id)
          .where("status", "=", "succeeded")
          .orderBy("finished_at", "desc")
          .limit(4)
          .execute();
        return { ...projectView(project), renderCount: Number(count.n), thumbs: latest.map((job) => FILE_ROUTES.render(job.id, "thumb")) };
      }),
    );
  }),

  get: protectedProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const project = await ownedProject(ctx, input.id);
    const jobs = await ctx.db
      .selectFrom("render_jobs")
      .selectAll()
      .where("project_id", "=", project.id)
      .where("user_id", "=", ctx.user.id)
      .orderBy("created_at", "desc")
      .execute();
    const renders = await Promise.all(
      jobs.map(async (job) =>
        jobView(job, ctx.renderWorker.provider.label, job.status === "queued" ? await queuePosition(ctx.db, job) : null),
      ),
    );
    return { project: projectView(project), renders };
  }),

  create: protectedProcedure
    .input(z.object({ name: projectNameSchema, settings: settingsSchema.optional() }))
    .mutation(async ({ ctx, input }) => {
      const now = ctx.clock.now();
      const project = await ctx.db
        .insertInto("projects")
        .values({
          id: generateSecureRandomString(),
          user_id: ctx.user.id,
          name: input.name,
          project_type: "room_rendering",
          settings: JSON.stringify(input.settings ?? {}),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return projectView(project);
    }),

  rename: protectedProcedure.input(z.object({ id, name: projectNameSchema })).mutation(async ({ ctx, input }) => {
    const project = await ownedProject(ctx, input.id);
    await ctx.db.updateTable("projects").set({ name: input.name, updated_at: ctx.clock.now() }).where("id", "=", project.id).execute();
    return { ok: true as const };
  }),

  updateSettings: protectedProcedure.input(z.object({ id, settings: settingsSchema })).mutation(async ({ ctx, input }) => {
    const project = await ownedProject(ctx, input.id);
    await ctx.db
      .updateTable("projects")
      .set({ settings: JSON.stringify(input.settings), updated_at: ctx.clock.now() })
      .where("id", "=", project.id)
      .execute();
    return { ok: true as const };
  }),

  /** Deletes the project with its uploads, renders and their files. */
  delete: protectedProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const project = await ownedProject(ctx, input.id);
    return deleteProject(ctx, ctx.user.id, project.id);
  }),
});
