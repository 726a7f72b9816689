/**
 * Replicate webhooks: the signature check, the prediction shape both the webhook and the poll loop
 * read, and the hand-over from the webhook route to a waiting render (PredictionWaiters), so a
 * render ends as soon as Replicate says so instead of at the next poll.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";

export const FINAL_STATUSES: readonly string[] = ["succeeded", "failed", "canceled"];

/** The fields of a Replicate prediction this app reads; anything else is ignored. */
export interface ReplicatePrediction {
  id: string;
  /** starting | processing | succeeded | failed | canceled */
  status: string;
  /** The model version that ran, when Replicate says (predictions created by version always do). */
  version?: string;
  input?: Record<string, unknown>;
  output?: unknown;
  error?: unknown;
  logs?: string;
  urls?: { get?: string; cancel?: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const optionalString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The prediction in a JSON answer or webhook body, or null when it is not one. */
export function parsePrediction(value: unknown): ReplicatePrediction | null {
  if (!isRecord(value) || typeof value.id !== "string" || !value.id || typeof value.status !== "string") return null;
  const urls = isRecord(value.urls) ? { get: optionalString(value.urls.get), cancel: optionalString(value.urls.cancel) } : undefined;
  return {
    id: value.id,
    status: value.status,
    version: optionalString(value.version) || undefined,
    input: isRecord(value.input) ? value.input : undefined,
    output: value.output,
    error: value.error,
    logs: optionalString(value.logs),
    urls,
  };
}

export function isFinalStatus(status: string): boolean {
  return FINAL_STATUSES.includes(status);
}

/** Replay protection: Replicate's documentation suggests about five minutes. */
const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

export interface SignatureCheck {
  /** The webhook-id header. */
  id: string | undefined;
  /** The webhook-timestamp header, seconds since the epoch. */
  timestamp: string | undefined;
  /** The webhook-signature header: space-separated "v1,<base64>" entries. */
  signatureHeader: string | undefined;
  /** The body exactly as received: re-serialised JSON would not match. */
  rawBody: Buffer | string;
  /** The signing secret, "whsec_<base64>". */
  secret: string;
  nowMs: number;
}

/** True when the webhook was signed with the secret within five minutes of nowMs (either way). */
export function verifyReplicateSignature({ id, timestamp, signatureHeader, rawBody, secret, nowMs }: SignatureCheck): boolean {
  if (!id || !timestamp || !signatureHeader || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs - Number(timestamp) * 1000) > SIGNATURE_TOLERANCE_MS) return false;
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  if (key.length === 0) return false;
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${timestamp}.`).update(rawBody).digest("base64"));
  // Several signatures appear while Replicate rotates a secret: one match is enough.
  return signatureHeader.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("Render canceled", "AbortError");
}

/**
 * Hands predictions from the webhook route to the render waiting for them. A prediction that
 * arrives while nobody waits (the render was busy with a poll request) is kept, up to a bound,
 * and given to the next wait() for its id, once.
 */
export class PredictionWaiters {
  private readonly listeners = new Map<string, Set<(prediction: ReplicatePrediction) => void>>();
  private readonly unclaimed = new Map<string, ReplicatePrediction>();

  constructor(private readonly maxUnclaimed = 200) {}

  /** Resolves with the next delivered prediction of this id; rejects when the signal aborts. */
  wait(id: string, signal: AbortSignal): Promise<ReplicatePrediction> {
    const early = this.unclaimed.get(id);
    if (early) {
      this.unclaimed.delete(id);
      return Promise.resolve(early);
    }
    if (signal.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      let forId = this.listeners.get(id);
      if (!forId) this.listeners.set(id, (forId = new Set()));
      const listeners = forId;
      const cleanUp = () => {
        listeners.delete(listener);
        if (listeners.size === 0 && this.listeners.get(id) === listeners) this.listeners.delete(id);
        signal.removeEventListener("abort", onAbort);
      };
      const listener = (prediction: ReplicatePrediction) => {
        cleanUp();
        resolve(prediction);
      };
      const onAbort = () => {
        cleanUp();
        reject(abortReason(signal));
      };
      listeners.add(listener);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  deliver(prediction: ReplicatePrediction): void {
    const listeners = this.listeners.get(prediction.id);
    if (listeners && listeners.size > 0) {
      for (const listener of [...listeners]) listener(prediction);
      return;
    }
    this.unclaimed.delete(prediction.id);
    this.unclaimed.set(prediction.id, prediction);
    // Maps iterate in insertion order: the first key is the oldest.
    for (const oldest of this.unclaimed.keys()) {
      if (this.unclaimed.size <= this.maxUnclaimed) break;
      this.unclaimed.delete(oldest);
    }
  }

  /** Predictions and renders currently held, for tests and diagnostics. */
  get size(): { waiting: number; unclaimed: number } {
    let waiting = 0;
    for (const listeners of this.listeners.values()) waiting += listeners.size;
    return { waiting, unclaimed: this.unclaimed.size };
  }
}

export interface ReplicateWebhookOptions {
  secret: string;
  waiters: PredictionWaiters;
  /** Milliseconds since the epoch (the server clock), for the replay window. */
  now: () => number;
  /** Records a webhook-id; false when it was already received (a retry or a replay: acknowledged, not acted on). */
  firstReceipt: (webhookId: string) => Promise<boolean>;
}

/**
 * POST /webhooks/replicate. Needs the raw body: mount it with express.raw() for every content
 * type, before any JSON body parser. Answers at once, since Replicate retries a slow final webhook.
 */
export function replicateWebhookHandler({ secret, waiters, now, firstReceipt }: ReplicateWebhookOptions): RequestHandler {
  return async (req, res) => {
    const body: unknown = req.body;
    if (body !== undefined && !Buffer.isBuffer(body)) {
      // A JSON parser ran first: the bytes that were signed are gone, so nothing could be verified.
      res.status(500).json({ error: "The webhook route did not receive the raw request body" });
      return;
    }
    const rawBody = body ?? Buffer.alloc(0);
    const webhookId = req.get("webhook-id");
    const signed = verifyReplicateSignature({
      id: webhookId,
      timestamp: req.get("webhook-timestamp"),
      signatureHeader: req.get("webhook-signature"),
      rawBody,
      secret,
      nowMs: now(),
    });
    if (!signed || !webhookId) {
      res.status(401).json({ error: "Invalid or missing webhook signature" });
      return;
    }
    let prediction: ReplicatePrediction | null = null;
    try {
      prediction = parsePrediction(JSON.parse(rawBody.toString("utf8")));
    } catch {
      prediction = null;
    }
    if (!prediction) {
      res.status(400).json({ error: "Expected a prediction as JSON" });
      return;
    }
    // Within the signature's window the same signed bytes could be sent again: once per webhook-id.
    // A repeat gets a 2xx (a retry of ours must stop) and changes nothing.
    if (!(await firstReceipt(webhookId))) {
      res.status(200).json({ received: true, duplicate: true });
      return;
    }
    waiters.deliver(prediction);
    res.status(200).json({ received: true });
  };
}
