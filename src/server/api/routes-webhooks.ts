/**
 * /api/v1/webhooks (issue 31, decision 095): a key's space's webhook endpoints, their delivery log,
 * redelivery and test events, through the webhooks module's port (context.ts). Scope `webhooks`.
 */
import express, { type Router } from "express";
import type { WebhookDeliveryView, WebhookEndpointView } from "../../shared/webhooks";
import { parsed, SENT, type ApiEdge } from "./edge";
import type { ApiCaller } from "./keys";
import {
  deliveryListSchema,
  deliveryQuerySchema,
  deliverySchema,
  webhookCreatedSchema,
  webhookListSchema,
  webhookRequestSchema,
  webhookSchema,
} from "./openapi-webhooks";
import { API_BASE } from "../../shared/api";

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function publicWebhook(view: WebhookEndpointView) {
  return {
    id: view.id,
    url: view.url,
    description: view.description,
    events: view.events,
    creditsLowBelow: view.creditsLowBelow,
    enabled: view.disabledAt === null,
    disabledReason: view.disabledReason,
    createdAt: new Date(view.createdAt).toISOString(),
  };
}

function publicDelivery(view: WebhookDeliveryView) {
  return deliverySchema.parse({
    id: view.id,
    type: view.type,
    status: view.status,
    createdAt: new Date(view.createdAt).toISOString(),
    nextAttemptAt: iso(view.nextAttemptAt),
    attempts: view.attempts.map((attempt) => ({ ...attempt, at: new Date(attempt.at).toISOString() })),
  });
}

const space = (caller: ApiCaller) => ({ userId: caller.userId, teamId: caller.teamId });

export function webhookRoutes(router: Router, { deps, keyed }: ApiEdge): void {
  const base = `${API_BASE}/webhooks`;
  router.get(
    base,
    keyed("webhooks", async (caller) =>
      webhookListSchema.parse({ webhooks: (await deps.webhooks.list(caller.userId, caller.teamId)).map(publicWebhook) }),
    ),
  );
  router.post(
    base,
    express.json({ limit: "16kb" }),
    keyed("webhooks", async (caller, req, res) => {
      const body = parsed(webhookRequestSchema, req.body);
      const { endpoint, secret } = await deps.webhooks.create(space(caller), { ...body, teamId: caller.teamId });
      res.status(201);
      return webhookCreatedSchema.parse({ ...publicWebhook(endpoint), secret });
    }),
  );
  router.get(
    `${base}/:id`,
    keyed("webhooks", async (caller, req) =>
      webhookSchema.parse(publicWebhook(await deps.webhooks.get(space(caller), String(req.params.id)))),
    ),
  );
  router.delete(
    `${base}/:id`,
    keyed("webhooks", async (caller, req, res) => {
      await deps.webhooks.remove(space(caller), String(req.params.id));
      res.status(204).set("Cache-Control", "no-store").end();
      return SENT;
    }),
  );
  router.post(
    `${base}/:id/rotate-secret`,
    keyed("webhooks", async (caller, req) => {
      const { endpoint, secret } = await deps.webhooks.rotateSecret(space(caller), String(req.params.id));
      return webhookCreatedSchema.parse({ ...publicWebhook(endpoint), secret });
    }),
  );
  router.get(
    `${base}/:id/deliveries`,
    keyed("webhooks", async (caller, req) => {
      const { limit } = parsed(deliveryQuerySchema, req.query);
      const deliveries = await deps.webhooks.deliveries(space(caller), String(req.params.id), limit);
      return deliveryListSchema.parse({ deliveries: deliveries.map(publicDelivery) });
    }),
  );
  router.post(
    `${base}/:id/deliveries/:deliveryId/redeliver`,
    keyed("webhooks", async (caller, req, res) => {
      const delivery = await deps.webhooks.redeliver(space(caller), String(req.params.id), String(req.params.deliveryId));
      res.status(201);
      return publicDelivery(delivery);
    }),
  );
  router.post(
    `${base}/:id/test`,
    keyed("webhooks", async (caller, req, res) => {
      const delivery = await deps.webhooks.sendTest(space(caller), String(req.params.id));
      res.status(201);
      return publicDelivery(delivery);
    }),
  );
}
