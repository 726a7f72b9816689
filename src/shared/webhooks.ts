/**
 * Webhooks of the public REST API (issue 31, decision 095): the events an endpoint may ask for, the
 * delivery's limits, and the schemas of what /developers and /api/v1/webhooks send.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";

/** What an endpoint may subscribe to (webhook.test is sent on request, to one endpoint, whatever it asked for). */
export const WEBHOOK_EVENTS = [
  "render.succeeded",
  "render.failed",
  "render.canceled",
  "edit.succeeded",
  "credits.low",
  "listing.created",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type WebhookEventType = WebhookEvent | "webhook.test";

export const WEBHOOKS = {
  /** Endpoints one space may keep. */
  perSpaceMax: 10,
  urlMax: 2000,
  descriptionMax: 100,
  /** An answer slower than this is a failed attempt. */
  timeoutMs: 10_000,
  /** A delivery is tried again, with growing waits, until this long after it was made; then it has failed. */
  retryForMs: 24 * 3_600_000,
  /** The first wait after a failed attempt; each next one doubles, up to backoffMaxMs. */
  backoffFirstMs: 5_000,
  backoffMaxMs: 2 * 3_600_000,
  /** How much of an answer's body the log keeps. */
  answerBytesKept: 512,
  /** How long a delivered or failed delivery stays in the log (housekeeping removes it after). */
  logKeepMs: 30 * 24 * 3_600_000,
  /** Deliveries a log page shows. */
  logPageMax: 100,
  /** The start of every signing secret (Standard Webhooks). */
  secretPrefix: "whsec_",
  /** credits.low is sent when a change takes the space's balance below this many credits (each endpoint may say another). */
  creditsLowDefault: 10,
  creditsLowMax: 1_000_000,
} as const;

export const webhookEndpointInputSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, { error: MESSAGES.webhookUrlInvalid })
    .max(WEBHOOKS.urlMax, { error: MESSAGES.webhookUrlInvalid })
    .refine((url) => URL.canParse(url), { error: MESSAGES.webhookUrlInvalid }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, { error: MESSAGES.webhookEventsRequired })
    .refine((events) => new Set(events).size === events.length, { error: MESSAGES.webhookEventsRequired }),
  description: z.string().trim().max(WEBHOOKS.descriptionMax).default(""),
  /** With credits.low: below how many credits it is sent (default WEBHOOKS.creditsLowDefault). */
  creditsLowBelow: z
    .number({ error: MESSAGES.webhookCreditsLowInvalid })
    .int({ error: MESSAGES.webhookCreditsLowInvalid })
    .min(1, { error: MESSAGES.webhookCreditsLowInvalid })
    .max(WEBHOOKS.creditsLowMax, { error: MESSAGES.webhookCreditsLowInvalid })
    .optional(),
});

export const createWebhookInputSchema = webhookEndpointInputSchema.extend({
  /** The team whose events it gets (Owner and Admin only); null: the personal space. */
  teamId: z.string().min(1).max(64).nullable(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookInputSchema>;

export type WebhookDeliveryStatus = "pending" | "succeeded" | "failed";

/** An endpoint as lists show it: never its secret. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  events: WebhookEvent[];
  /** Below how many credits credits.low is sent; null without that event. */
  creditsLowBelow: number | null;
  teamId: string | null;
  createdAt: number;
  /** Null while it is sent to; set when its owner turned it off or it kept failing. */
  disabledAt: number | null;
  disabledReason: "owner" | "failing" | null;
}

export interface WebhookAttemptView {
  at: number;
  /** The answer's HTTP status; null when there was none (timeout, refused, unreachable). */
  status: number | null;
  error: string | null;
  /** The first bytes of the answer's body. */
  answer: string | null;
  durationMs: number;
}

export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  type: WebhookEventType;
  status: WebhookDeliveryStatus;
  createdAt: number;
  /** When it is tried next (pending), else null. */
  nextAttemptAt: number | null;
  attempts: WebhookAttemptView[];
}
