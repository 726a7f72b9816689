/**
 * Clients (issue 28, decision 072): the current space's clients (Owner and Admin of a team, or the
 * keeper of a personal space), and the client a project is for (its name for a Member).
 */
import { z } from "zod";
import { clientInputSchema } from "../../../shared/clients";
import { protectedProcedure, router } from "../init";

const id = z.string().min(1).max(64);

export const clientsRouter = router({
  /** The current space's clients with their details; for a Member none (canManage false). */
  list: protectedProcedure.query(({ ctx }) => ctx.services.clients.list(ctx.user.id)),

  get: protectedProcedure.input(z.object({ id })).query(({ ctx, input }) => ctx.services.clients.get(ctx.user.id, input.id)),

  create: protectedProcedure.input(clientInputSchema).mutation(({ ctx, input }) => ctx.services.clients.create(ctx.user.id, input)),

  update: protectedProcedure
    .input(clientInputSchema.extend({ id }))
    .mutation(({ ctx, input: { id: clientId, ...client } }) => ctx.services.clients.update(ctx.user.id, clientId, client)),

  delete: protectedProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await ctx.services.clients.delete(ctx.user.id, input.id);
    return { ok: true as const };
  }),

  /** The project's client: details for Owner and Admin (and a personal project's owner), the name for a Member. */
  ofProject: protectedProcedure
    .input(z.object({ projectId: id }))
    .query(({ ctx, input }) => ctx.services.clients.ofProject(ctx.user.id, input.projectId)),

  /** Links the project to a client of its own space, or (null) to none. */
  setProjectClient: protectedProcedure.input(z.object({ projectId: id, clientId: id.nullable() })).mutation(async ({ ctx, input }) => {
    await ctx.services.clients.setProjectClient(ctx.user.id, input.projectId, input.clientId);
    return { ok: true as const };
  }),
});
