/**
 * POST /webhooks/stripe: the endpoint to register in the Stripe dashboard (<PUBLIC_URL>/webhooks/stripe),
 * with the events checkout.session.completed, checkout.session.async_payment_succeeded,
 * checkout.session.expired and charge.refunded. The body is read raw (the signature covers the exact
 * bytes), so this router must be mounted before any JSON body parser. Answers:
 * 400 bad or missing signature (nothing changes), 503 when STRIPE_WEBHOOK_SECRET is not set,
 * 200 with outcome "ignored" for a signed event this app cannot use (no object: retrying would not help, and
 * Stripe retries every non-2xx answer for days; logged as a warning), 500 when applying the event failed (nothing
 * was written; Stripe retries), else 200.
 */
import express, { type ErrorRequestHandler, Router } from "express";
// Types only: the SDK is loaded with the first webhook (decision 045).
import type Stripe from "stripe";
import type { Clock } from "../clock";
import type { Env } from "../env";
import type { Logger } from "../logger";
import type { PaymentsService } from "../services/payments";

export const STRIPE_WEBHOOK_PATH = "/webhooks/stripe";

export function stripeWebhookRoutes(deps: { env: Env; log: Logger; clock: Clock; payments: PaymentsService }): Router {
  const routes = Router();
  const secret = deps.env.STRIPE_WEBHOOK_SECRET;
  if (!secret && deps.env.STRIPE_SECRET_KEY) {
    deps.log.warn(
      `STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: purchases cannot be credited until the webhook ${STRIPE_WEBHOOK_PATH} has its signing secret`,
    );
  }

  routes.post(STRIPE_WEBHOOK_PATH, express.raw({ type: "*/*", limit: "1mb" }), async (req, res) => {
    if (!secret) {
      deps.log.warn(`Stripe webhook refused: STRIPE_WEBHOOK_SECRET is not set, so the event cannot be verified (Stripe will retry)`);
      res.status(503).json({ error: "Stripe webhook signing secret not configured" });
      return;
    }
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body)) {
      // A JSON parser ran first (or there was no body): the signed bytes are gone.
      res.status(400).json({ error: "Expected the raw request body" });
      return;
    }
    const signature = req.get("stripe-signature");
    if (!signature) {
      res.status(400).json({ error: "Missing Stripe-Signature header" });
      return;
    }
    let event: Stripe.Event;
    try {
      const { default: StripeSdk } = await import("stripe");
      event = StripeSdk.webhooks.constructEvent(body, signature, secret, undefined, undefined, deps.clock.now());
    } catch (error) {
      deps.log.warn("Stripe webhook refused: invalid signature or payload", {
        error: error instanceof Error ? error.message : String(error),
      });
      res.status(400).json({ error: "Invalid Stripe signature" });
      return;
    }
    try {
      const outcome = await deps.payments.handleEvent(event);
      res.status(200).json({ received: true, outcome });
    } catch (error) {
      deps.log.error("Stripe webhook failed; Stripe will retry", { event: event.id, type: event.type, error });
      res.status(500).json({ error: "Internal error" });
    }
  });
  // A body over the limit, or one that cannot be read, is refused here rather than by the app's error handler.
  const bodyErrors: ErrorRequestHandler = (error: { type?: string; status?: number }, _req, res, next) => {
    if (error.type === "entity.too.large") res.status(413).json({ error: "Payload too large" });
    else if (error.status && error.status < 500) res.status(400).json({ error: "Bad request" });
    else next(error);
  };
  routes.use(STRIPE_WEBHOOK_PATH, bodyErrors);
  return routes;
}
