/**
 * Idempotency keys (issue 31, decision 094), per API key: the first answer to a POST sent with an
 * `Idempotency-Key` is kept 24 hours; the same key and request get it again (nothing is done or
 * charged twice), the same key with another request is refused. The row is claimed before the request
 * is answered, so that two copies arriving together (on two instances) are answered once.
 */
import { createHash } from "node:crypto";
import type { ApiContext } from "./context";

export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60_000;

/** The header's value, checked: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export type Remembered =
  { kind: "first" } | { kind: "replay"; status: number; body: unknown } | { kind: "other-request" } | { kind: "in-progress" };

/** What identifies a request: its method, path and body. */
export function requestHash(method: string, path: string, body: Buffer | string): string {
  return createHash("sha256").update(`${method} ${path}\n`).update(body).digest("hex");
}

/** Claims the key for this request, or says what was answered (or is being answered) before. */
export async function rememberRequest(deps: ApiContext, apiKeyId: string, key: string, hash: string): Promise<Remembered> {
  const now = deps.clock.now();
  // A key older than a day is free again.
  await deps.db
    .deleteFrom("api_idempotency")
    .where("api_key_id", "=", apiKeyId)
    .where("idempotency_key", "=", key)
    .where("created_at", "<=", now - IDEMPOTENCY_KEEP_MS)
    .execute();
  const inserted = await deps.db
    .insertInto("api_idempotency")
    .values({ api_key_id: apiKeyId, idempotency_key: key, request_hash: hash, status: null, response: null, created_at: now })
    .onConflict((conflict) => conflict.columns(["api_key_id", "idempotency_key"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { kind: "first" };
  const row = await deps.db
    .selectFrom("api_idempotency")
    .select(["request_hash", "status", "response"])
    .where("api_key_id", "=", apiKeyId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  // Removed in between (its first request failed on our side): this one goes first.
  if (!row) return rememberRequest(deps, apiKeyId, key, hash);
  if (row.request_hash !== hash) return { kind: "other-request" };
  if (row.status === null || row.response === null) return { kind: "in-progress" };
  return { kind: "replay", status: row.status, body: JSON.parse(row.response) as unknown };
}

/**
 * Keeps the first answer; an answer of our own failure (5xx) or "not now" (429: renders running at
 * once) is not kept, so that the request can be sent again with the same key.
 */
export async function keepAnswer(deps: ApiContext, apiKeyId: string, key: string, status: number, body: unknown): Promise<void> {
  if (status >= 500 || status === 429) {
    await deps.db.deleteFrom("api_idempotency").where("api_key_id", "=", apiKeyId).where("idempotency_key", "=", key).execute();
    return;
  }
  await deps.db
    .updateTable("api_idempotency")
    .set({ status, response: JSON.stringify(body) })
    .where("api_key_id", "=", apiKeyId)
    .where("idempotency_key", "=", key)
    .execute();
}

/** Removes answers older than a day (housekeeping). */
export async function pruneIdempotency(deps: ApiContext): Promise<number> {
  const removed = await deps.db
    .deleteFrom("api_idempotency")
    .where("created_at", "<=", deps.clock.now() - IDEMPOTENCY_KEEP_MS)
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}
