/**
 * The durable outbox (decision 095). The fan-out reads render_events (through the render module)
 * after a cursor of its own, webhook_cursor, and writes one delivery per event per endpoint that
 * wants it, in the transaction that moves the cursor: a crash before it commits reads the events
 * again, and (endpoint_id, event_key) being unique makes reading twice harmless.
 *
 * On PostgreSQL ids are taken from a sequence at insert and become visible at commit, in any order
 * across owners (one owner's events are committed in id order: live/stored.ts). So the cursor stops
 * before a missing id until it has been missing for GAP_WAIT_MS (a transaction still running, or one
 * rolled back): events after it are written at once, and read again while the cursor waits. SQLite
 * has one writer: what is visible has no hole to wait for.
 */
import { WEBHOOKS, type WebhookDeliveryView, type WebhookEvent, type WebhookEventType } from "../../shared/webhooks";
import { generateSecureRandomString } from "../auth/tokens";
import { dialectOf } from "../db/client";
import type { Insertable } from "kysely";
import type { WebhookDeliveriesTable } from "../db/schema";
import { notFound } from "../errors";
import type { WebhookActor, WebhooksContext } from "./context";
import { endpointFor, eventsOf, type EndpointRow } from "./endpoints";

const CURSOR = "render_events";
/** How long a missing render event id holds the cursor (PostgreSQL). */
export const GAP_WAIT_MS = 60_000;
const READ_LIMIT = 500;
const FINAL = ["succeeded", "failed", "canceled"] as const;

/** A delivery's id, sent as webhook-id (the same on every try). */
const messageId = () => `msg_${generateSecureRandomString()}`;

function body(type: WebhookEventType, at: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}

export function newDelivery(
  endpointId: string,
  type: WebhookEventType,
  payload: string,
  now: number,
  eventKey: string | null,
): Insertable<WebhookDeliveriesTable> {
  return {
    id: messageId(),
    endpoint_id: endpointId,
    event_key: eventKey,
    type,
    payload,
    status: "pending",
    created_at: now,
    next_attempt_at: now,
    lease_until: null,
    lease_owner: null,
    finished_at: null,
  };
}

/** The webhook event a job's final event is, by the job's kind. */
function webhookEventOf(kind: "render" | "edit", type: (typeof FINAL)[number]): WebhookEvent {
  return kind === "edit" && type === "succeeded" ? "edit.succeeded" : `render.${type}`;
}

/**
 * One pass of the fan-out: reads the events after the cursor and writes their deliveries; true when
 * it moved the cursor (there may be more). `gaps` remembers since when each missing id has been seen.
 */
export async function fanOut(deps: WebhooksContext, gaps: Map<number, number>): Promise<boolean> {
  const cursor = Number(
    (await deps.db.selectFrom("webhook_cursor").select("last_id").where("name", "=", CURSOR).executeTakeFirst())?.last_id ?? 0,
  );
  const { ids, events } = await deps.renders.eventsAfter(cursor, READ_LIMIT, FINAL);
  if (ids.length === 0) return false;
  const now = deps.clock.now();
  const waitsForHoles = dialectOf(deps.db) === "postgres";
  let next = cursor;
  for (const id of ids) {
    if (waitsForHoles && id !== next + 1) {
      const seen = gaps.get(next + 1) ?? now;
      gaps.set(next + 1, seen);
      if (now - seen < GAP_WAIT_MS) break;
    }
    next = id;
  }
  for (const missing of gaps.keys()) if (missing <= next) gaps.delete(missing);

  const rows: Array<Insertable<WebhookDeliveriesTable>> = [];
  const owners = [...new Set(events.map((stored) => stored.owner))].filter((owner) => owner.startsWith("u:") || owner.startsWith("t:"));
  const endpoints =
    owners.length === 0
      ? []
      : await deps.db.selectFrom("webhook_endpoints").selectAll().where("owner", "in", owners).where("disabled_at", "is", null).execute();
  for (const stored of events) {
    const type = stored.event.type as (typeof FINAL)[number];
    const listening = endpoints.filter((endpoint) => endpoint.owner === stored.owner && endpoint.created_at <= stored.event.at);
    for (const endpoint of listening) {
      const job = await deps.renders.describe(endpoint.user_id, endpoint.team_id, stored.event.jobId);
      if (!job) continue;
      const event = webhookEventOf(job.kind, type);
      if (!eventsOf(endpoint).includes(event)) continue;
      rows.push(newDelivery(endpoint.id, event, body(event, stored.event.at, job.data), now, `render:${stored.id}`));
    }
  }
  return deps.db.transaction().execute(async (trx) => {
    if (next !== cursor) {
      // Another instance moved it first: it wrote these deliveries (or will); this pass stops here.
      const moved = await trx
        .updateTable("webhook_cursor")
        .set({ last_id: next })
        .where("name", "=", CURSOR)
        .where("last_id", "=", cursor)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
    }
    for (const row of rows)
      await trx
        .insertInto("webhook_deliveries")
        .values(row)
        .onConflict((conflict) => conflict.columns(["endpoint_id", "event_key"]).doNothing())
        .execute();
    return next !== cursor;
  });
}

/** A webhook.test event to one endpoint, whatever it subscribed to. */
export async function sendTestEvent(deps: WebhooksContext, actor: WebhookActor, endpointId: string): Promise<WebhookDeliveryView> {
  const endpoint = await endpointFor(deps, actor, endpointId);
  const now = deps.clock.now();
  const row = newDelivery(
    endpoint.id,
    "webhook.test",
    body("webhook.test", now, { endpointId: endpoint.id, url: endpoint.url }),
    now,
    null,
  );
  await deps.db.insertInto("webhook_deliveries").values(row).execute();
  return (await deliveryViews(deps, endpoint, [row.id]))[0]!;
}

/** Sends a delivery's body again, as a new delivery (a new webhook-id: the receiver takes it as new). */
export async function redeliver(
  deps: WebhooksContext,
  actor: WebhookActor,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const delivery = await deps.db.selectFrom("webhook_deliveries").selectAll().where("id", "=", deliveryId).executeTakeFirst();
  if (!delivery || delivery.endpoint_id !== endpointId) throw notFound();
  const endpoint = await endpointFor(deps, actor, delivery.endpoint_id);
  const row = newDelivery(endpoint.id, delivery.type as WebhookEventType, delivery.payload, deps.clock.now(), null);
  await deps.db.insertInto("webhook_deliveries").values(row).execute();
  return (await deliveryViews(deps, endpoint, [row.id]))[0]!;
}

/** The endpoint's deliveries, newest first, with their attempts (the delivery log). */
export async function listDeliveries(
  deps: WebhooksContext,
  actor: WebhookActor,
  endpointId: string,
  limit: number,
): Promise<WebhookDeliveryView[]> {
  const endpoint = await endpointFor(deps, actor, endpointId);
  return deliveryViews(deps, endpoint, null, Math.min(limit, WEBHOOKS.logPageMax));
}

async function deliveryViews(
  deps: WebhooksContext,
  endpoint: EndpointRow,
  ids: string[] | null,
  limit: number = WEBHOOKS.logPageMax,
): Promise<WebhookDeliveryView[]> {
  let query = deps.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", endpoint.id);
  if (ids) query = query.where("id", "in", ids);
  const deliveries = await query.orderBy("seq", "desc").limit(limit).execute();
  const attempts =
    deliveries.length === 0
      ? []
      : await deps.db
          .selectFrom("webhook_attempts")
          .selectAll()
          .where(
            "delivery_id",
            "in",
            deliveries.map((delivery) => delivery.id),
          )
          .orderBy("id")
          .execute();
  return deliveries.map((delivery) => ({
    id: delivery.id,
    endpointId: delivery.endpoint_id,
    type: delivery.type as WebhookEventType,
    status: delivery.status,
    createdAt: Number(delivery.created_at),
    nextAttemptAt: delivery.status === "pending" ? Number(delivery.next_attempt_at) : null,
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === delivery.id)
      .map((attempt) => ({
        at: Number(attempt.at),
        status: attempt.status === null ? null : Number(attempt.status),
        error: attempt.error,
        answer: attempt.answer,
        durationMs: Number(attempt.duration_ms),
      })),
  }));
}

/** Removes deliveries that ended more than WEBHOOKS.logKeepMs ago, with their attempts (housekeeping); how many. */
export async function pruneDeliveries(deps: WebhooksContext): Promise<number> {
  const before = deps.clock.now() - WEBHOOKS.logKeepMs;
  return deps.db.transaction().execute(async (trx) => {
    const old = trx.selectFrom("webhook_deliveries").select("id").where("status", "<>", "pending").where("finished_at", "<", before);
    await trx.deleteFrom("webhook_attempts").where("delivery_id", "in", old).execute();
    const removed = await trx
      .deleteFrom("webhook_deliveries")
      .where("status", "<>", "pending")
      .where("finished_at", "<", before)
      .executeTakeFirst();
    return Number(removed.numDeletedRows);
  });
}
