/**
 * Webhook deliveries already accepted, by webhook-id (table webhook_receipts): Standard Webhooks
 * gives every message one id, kept across the sender's retries, so a second delivery of an id is
 * a retry or a replay and is acknowledged without acting on it again. A receipt only has to outlive
 * the signature's time window (a replay after it is refused by its timestamp); housekeeping removes
 * older ones.
 */
import type { RenderContext } from "./context";

/** Longer than the ±5-minute signature window, with room for clock skew. */
export const WEBHOOK_RECEIPT_KEEP_MS = 60 * 60 * 1000;

/** Records the id; true when it is the first delivery of it, false for a repeat. */
export async function firstWebhookReceipt(deps: Pick<RenderContext, "db" | "clock">, webhookId: string): Promise<boolean> {
  const inserted = await deps.db
    .insertInto("webhook_receipts")
    .values({ webhook_id: webhookId, received_at: deps.clock.now() })
    .onConflict((conflict) => conflict.column("webhook_id").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Removes receipts past their keeping time; returns how many. */
export async function forgetOldWebhookReceipts(deps: Pick<RenderContext, "db" | "clock">): Promise<number> {
  const removed = await deps.db
    .deleteFrom("webhook_receipts")
    .where("received_at", "<", deps.clock.now() - WEBHOOK_RECEIPT_KEEP_MS)
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}
