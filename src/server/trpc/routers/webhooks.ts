/**
 * /developers → Webhooks (issue 31, decision 095): a space's webhook endpoints (personal, or a team's
 * for its Owner and Admins), their delivery log, redelivery and test events. A new endpoint's signing
 * secret is in the create answer only.
 */
import { z } from "zod";
import { WEBHOOKS, createWebhookInputSchema } from "../../../shared/webhooks";
import { protectedProcedure, router } from "../init";

const id = z.string().min(1).max(64);

export const webhooksRouter = router({
  list: protectedProcedure
    .input(z.object({ teamId: id.nullable() }))
    .query(({ ctx, input }) => ctx.services.webhooks.list(ctx.user.id, input.teamId)),

  create: protectedProcedure
    .input(createWebhookInputSchema)
    .mutation(({ ctx, input }) => ctx.services.webhooks.create({ userId: ctx.user.id, language: ctx.language }, input)),

  remove: protectedProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => ctx.services.webhooks.remove({ userId: ctx.user.id }, input.id)),

  rotateSecret: protectedProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => ctx.services.webhooks.rotateSecret({ userId: ctx.user.id }, input.id)),

  setEnabled: protectedProcedure
    .input(z.object({ id, enabled: z.boolean() }))
    .mutation(({ ctx, input }) => ctx.services.webhooks.setEnabled({ userId: ctx.user.id }, input.id, input.enabled)),

  deliveries: protectedProcedure
    .input(z.object({ id, limit: z.number().int().min(1).max(WEBHOOKS.logPageMax).default(20) }))
    .query(({ ctx, input }) => ctx.services.webhooks.deliveries({ userId: ctx.user.id }, input.id, input.limit)),

  redeliver: protectedProcedure
    .input(z.object({ id, deliveryId: id }))
    .mutation(({ ctx, input }) => ctx.services.webhooks.redeliver({ userId: ctx.user.id }, input.id, input.deliveryId)),

  sendTest: protectedProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => ctx.services.webhooks.sendTest({ userId: ctx.user.id }, input.id)),
});
