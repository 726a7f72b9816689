/**
 * A fake Stripe API on loopback (node:http) that the official SDK talks to (STRIPE_API_URL):
 * bearer auth with the secret key, POST /v1/checkout/sessions (form-encoded, as the SDK sends it)
 * answering a Checkout Session object, GET /v1/checkout/sessions/:id, and Stripe-shaped errors.
 * Every request is recorded. It also builds the events Stripe would send (completed, expired,
 * refunded) and posts them signed like Stripe does.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export interface RecordedStripeRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body. */
  body: string;
  /** The form fields as sent, bracket keys kept: "line_items[0][price_data][unit_amount]" → "900". */
  form: Record<string, string>;
}

/** A Checkout Session as this fake keeps it (the fields the app reads, and a few more). */
export interface FakeCheckoutSession {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  payment_intent: string | null;
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
}

export type CannedStripeReply = { status: number; body?: unknown };

export interface FakeStripe {
  url: string;
  secretKey: string;
  requests: RecordedStripeRequest[];
  sessions: Map<string, FakeCheckoutSession>;
  /** POST /v1/checkout/sessions requests. */
  sessionCreates(): RecordedStripeRequest[];
  /** The next session creations answer these instead (e.g. { status: 500 }). */
  failNextCreates(...replies: CannedStripeReply[]): void;
  /** The customer paid: the session is complete and paid, with a payment intent. */
  pay(sessionId: string, options?: { paymentStatus?: FakeCheckoutSession["payment_status"] }): FakeCheckoutSession;
  close(): Promise<void>;
}

const randomId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

function stripeError(res: http.ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": randomId("req") });
  res.end(JSON.stringify({ error: { type, message } }));
}

export async function startFakeStripe(options: { secretKey?: string } = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? "sk_test_x";
  const requests: RecordedStripeRequest[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const cannedCreates: CannedStripeReply[] = [];
  let baseUrl = "";

  function createSession(form: Record<string, string>, res: http.ServerResponse): void {
    const unitAmount = Number(form["line_items[0][price_data][unit_amount]"]);
    const quantity = Number(form["line_items[0][quantity]"] ?? "1");
    const currency = form["line_items[0][price_data][currency]"];
    if (form.mode !== "payment" || !Number.isInteger(unitAmount) || !currency) {
      return stripeError(res, 400, "invalid_request_error", "mode, line_items[0][price_data][unit_amount] and currency are required");
    }
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) {
      const match = /^metadata\[([^\]]+)\]$/.exec(key);
      if (match?.[1]) metadata[match[1]] = value;
    }
    const id = randomId("cs_test");
    const created = Math.floor(Date.now() / 1000);
    const session: FakeCheckoutSession = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      payment_intent: null,
      amount_total: unitAmount * quantity,
      amount_subtotal: unitAmount * quantity,
      currency,
      client_reference_id: form.client_reference_id ?? null,
      customer_email: form.customer_email ?? null,
      metadata,
      success_url: form.success_url ?? null,
      cancel_url: form.cancel_url ?? null,
      url: `${baseUrl}/c/pay/${id}`,
      created,
      expires_at: created + 24 * 3600,
      livemode: false,
    };
    sessions.set(id, session);
    res.writeHead(200, { "content-type": "application/json", "request-id": randomId("req") });
    res.end(JSON.stringify(session));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = new URL(req.url ?? "/", "http://fake").pathname;
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({ method: req.method ?? "", path, headers: req.headers, body, form });

      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return stripeError(res, 401, "invalid_request_error", "Invalid API Key provided");
      }
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const canned = cannedCreates.shift();
        if (canned) {
          res.writeHead(canned.status, { "content-type": "application/json" });
          res.end(JSON.stringify(canned.body ?? { error: { type: "api_error", message: `Canned HTTP ${canned.status}` } }));
          return;
        }
        return createSession(form, res);
      }
      const byId = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path);
      if (req.method === "GET" && byId?.[1]) {
        const session = sessions.get(byId[1]);
        if (!session) return stripeError(res, 404, "invalid_request_error", `No such checkout.session: '${byId[1]}'`);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(session));
        return;
      }
      stripeError(res, 404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${path})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    secretKey,
    requests,
    sessions,
    sessionCreates: () => requests.filter((request) => request.method === "POST" && request.path === "/v1/checkout/sessions"),
    failNextCreates: (...replies) => void cannedCreates.push(...replies),
    pay(sessionId, { paymentStatus = "paid" } = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
      session.status = "complete";
      session.payment_status = paymentStatus;
      session.payment_intent ??= randomId("pi_test");
      session.url = null;
      return { ...session, metadata: { ...session.metadata } };
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An event envelope as Stripe sends it to webhooks. */
export function stripeEvent(
  type: string,
  object: object,
  options: { id?: string; created?: number } = {},
): {
  id: string;
  object: "event";
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: object };
} {
  return {
    id: options.id ?? randomId("evt_test"),
    object: "event",
    type,
    api_version: Stripe.API_VERSION,
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** The charge of a paid session, as charge.refunded carries it (fully refunded unless amountRefunded says less). */
export function refundedCharge(
  session: Pick<FakeCheckoutSession, "payment_intent" | "amount_total" | "currency">,
  amountRefunded = session.amount_total,
) {
  return {
    id: randomId("ch_test"),
    object: "charge",
    amount: session.amount_total,
    amount_captured: session.amount_total,
    amount_refunded: amountRefunded,
    currency: session.currency,
    paid: true,
    captured: true,
    refunded: amountRefunded >= session.amount_total,
    payment_intent: session.payment_intent,
    status: "succeeded",
  };
}

/** POSTs the payload with a Stripe-Signature made from the secret (or the given header); returns the status. */
export async function postStripeWebhook(
  url: string,
  payload: string,
  options: { secret: string; timestamp?: number; signature?: string | null },
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
  };
  const signature =
    options.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret,
          ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
        })
      : options.signature;
  if (signature !== null) headers["stripe-signature"] = signature;
  const response = await fetch(`${url}/webhooks/stripe`, { method: "POST", headers, body: payload });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body };
}
