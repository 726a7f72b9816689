/**
 * Webhooks in the OpenAPI document (decision 095): the schemas routes-webhooks.ts parses and answers
 * with, and their paths, joined into the document by openapi.ts.
 */
import { z } from "zod";
import { WEBHOOK_EVENTS, WEBHOOKS, webhookEndpointInputSchema } from "../../shared/webhooks";
import { errors, idempotencyHeader, idParams, type ApiPaths } from "./openapi-parts";

const EVENT_TYPES = [...WEBHOOK_EVENTS, "webhook.test"] as const;

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    creditsLowBelow: z.number().int().nullable().meta({
      description: "credits.low is sent when a change takes the space's balance below this many credits; null without credits.low",
    }),
    enabled: z.boolean(),
    disabledReason: z
      .enum(["owner", "failing"])
      .nullable()
      .meta({ description: "Why it is off: turned off by its owner, or failing every delivery for a day" }),
    createdAt: z.string().meta({ description: "ISO 8601" }),
  })
  .meta({ id: "Webhook" });

export const webhookCreatedSchema = webhookSchema
  .extend({
    secret: z.string().meta({
      description:
        "The signing secret (whsec_…), shown in this answer only. Each delivery carries webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks): v1, and base64 of HMAC-SHA256 of `id.timestamp.body` keyed with the secret's bytes after whsec_ (base64).",
    }),
  })
  .meta({ id: "WebhookCreated" });

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) }).meta({ id: "WebhookList" });

export const webhookRequestSchema = webhookEndpointInputSchema
  .extend({
    creditsLowBelow: webhookEndpointInputSchema.shape.creditsLowBelow.meta({
      description: `With credits.low: it is sent when a change takes the space's balance from this many credits or more to fewer (default ${WEBHOOKS.creditsLowDefault})`,
    }),
  })
  .meta({ id: "WebhookRequest" });

export const deliverySchema = z
  .object({
    id: z.string().meta({ description: "The webhook-id header: the same on every try" }),
    type: z.enum(EVENT_TYPES),
    status: z.enum(["pending", "succeeded", "failed"]),
    createdAt: z.string(),
    nextAttemptAt: z.string().nullable().meta({ description: "When it is tried next, while pending" }),
    attempts: z.array(
      z.object({
        at: z.string(),
        status: z.number().int().nullable().meta({ description: "The answer's HTTP status; null when there was none" }),
        error: z.string().nullable(),
        answer: z
          .string()
          .nullable()
          .meta({ description: `The answer's first ${WEBHOOKS.answerBytesKept} bytes` }),
        durationMs: z.number().int(),
      }),
    ),
  })
  .meta({ id: "WebhookDelivery" });

export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema) }).meta({ id: "WebhookDeliveryList" });

export const deliveryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(WEBHOOKS.logPageMax).default(20),
});

const deliveryParams = z.object({ id: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) });

export const webhookPaths: ApiPaths = {
  "/webhooks": {
    get: {
      operationId: "listWebhooks",
      summary: "The key's space's webhook endpoints, newest first (scope webhooks)",
      responses: {
        "200": { description: "The endpoints", content: { "application/json": { schema: webhookListSchema } } },
        ...errors(401, 403),
      },
    },
    post: {
      operationId: "createWebhook",
      summary:
        "Register an endpoint for the key's space (scope webhooks): https, a public address, the events it wants; the answer holds its signing secret, once",
      requestParams: { header: idempotencyHeader },
      requestBody: { required: true, content: { "application/json": { schema: webhookRequestSchema } } },
      responses: {
        "201": { description: "Registered", content: { "application/json": { schema: webhookCreatedSchema } } },
        ...errors(400, 401, 403, 409),
      },
    },
  },
  "/webhooks/{id}": {
    get: {
      operationId: "getWebhook",
      summary: "An endpoint (scope webhooks)",
      requestParams: { path: idParams },
      responses: {
        "200": { description: "The endpoint", content: { "application/json": { schema: webhookSchema } } },
        ...errors(401, 403, 404),
      },
    },
    delete: {
      operationId: "deleteWebhook",
      summary: "Delete an endpoint and its delivery log (scope webhooks)",
      requestParams: { path: idParams },
      responses: { "204": { description: "Deleted" }, ...errors(401, 403, 404) },
    },
  },
  "/webhooks/{id}/rotate-secret": {
    post: {
      operationId: "rotateWebhookSecret",
      summary: "A new signing secret for the endpoint, in force at once: the old one stops (scope webhooks); shown in this answer only",
      requestParams: { path: idParams, header: idempotencyHeader },
      responses: {
        "200": { description: "The endpoint with its new secret", content: { "application/json": { schema: webhookCreatedSchema } } },
        ...errors(401, 403, 404),
      },
    },
  },
  "/webhooks/{id}/deliveries": {
    get: {
      operationId: "listWebhookDeliveries",
      summary: "The endpoint's delivery log, newest first, with each try's status, time and answer (scope webhooks)",
      requestParams: { path: idParams, query: deliveryQuerySchema },
      responses: {
        "200": { description: "The deliveries", content: { "application/json": { schema: deliveryListSchema } } },
        ...errors(400, 401, 403, 404),
      },
    },
  },
  "/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
    post: {
      operationId: "redeliverWebhook",
      summary: "Send a delivery's body again, as a new delivery with a new webhook-id (scope webhooks)",
      requestParams: { path: deliveryParams, header: idempotencyHeader },
      responses: {
        "201": { description: "Queued", content: { "application/json": { schema: deliverySchema } } },
        ...errors(401, 403, 404),
      },
    },
  },
  "/webhooks/{id}/test": {
    post: {
      operationId: "testWebhook",
      summary: "Send the endpoint a webhook.test event (scope webhooks)",
      requestParams: { path: idParams, header: idempotencyHeader },
      responses: {
        "201": { description: "Queued", content: { "application/json": { schema: deliverySchema } } },
        ...errors(401, 403, 404),
      },
    },
  },
};
