/**
 * The durable outbox (decisions 095, 098). The fan-out reads two streams, render_events (through the
 * render module) and space_events (credits and listing exports), each after a cursor of its own in
 * webhook_cursor, and writes one delivery per event per endpoint that wants it, in the transaction
 * that moves the cursor: a crash before it commits reads the events again, and (endpoint_id,
 * event_key) being unique makes reading twice harmless.
 *
 * On PostgreSQL ids are taken from a sequence at insert and become visible at commit, in any order.
 * So a cursor stops before a missing id until it has been missing for GAP_WAIT_MS (a transaction
 * still running, or one rolled back): events after it are written at once, and read again while the
 * cursor waits. SQLite has one writer: what is visible has no hole to wait for.
 */
import { WEBHOOKS, type WebhookDeliveryView, type WebhookEvent, type WebhookEventType } from "../../shared/webhooks";
import { generateSecureRandomString } from "../auth/tokens";
import { dialectOf } from "../db/client";
import type { Insertable } from "kysely";
import type { WebhookDeliveriesTable } from "../db/schema";
import { notFound } from "../errors";
import type { StoredSpaceEvent } from "../space-events";
import type { WebhookActor, WebhooksContext } from "./context";
import { endpointFor, eventsOf, type EndpointRow } from "./endpoints";

/** How long a missing event id holds a cursor (PostgreSQL). */
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

/** An event of a stream, as the fan-out needs it: its id, its space, when it happened. */
interface StreamEvent {
  id: number;
  owner: string;
  at: number;
}

/** A stream of events the fan-out follows with a cursor (webhook_cursor.name) of its own. */
interface EventStream<E extends StreamEvent> {
  cursor: string;
  /** Makes a delivery's event_key with the event's id: unique across streams. */
  keyPrefix: string;
  read(deps: WebhooksContext, afterId: number): Promise<{ ids: number[]; events: E[] }>;
  /** What one event sends to one endpoint of its space (made before the event): a type and data, or nothing. */
  deliveryFor(deps: WebhooksContext, event: E, endpoint: EndpointRow): Promise<{ type: WebhookEvent; data: unknown } | null>;
}

/** Renders' and edits' ends (render_events): the job as the API shows it, seen by the endpoint's maker. */
const renderStream: EventStream<StreamEvent & { type: (typeof FINAL)[number]; jobId: string }> = {
  cursor: "render_events",
  keyPrefix: "render",
  read: async (deps, afterId) => {
    const { ids, events } = await deps.renders.eventsAfter(afterId, READ_LIMIT, FINAL);
    return {
      ids,
      events: events.map((stored) => ({
        id: stored.id,
        owner: stored.owner,
        at: stored.event.at,
        type: stored.event.type as (typeof FINAL)[number],
        jobId: stored.event.jobId,
      })),
    };
  },
  deliveryFor: async (deps, event, endpoint) => {
    const job = await deps.renders.describe(endpoint.user_id, endpoint.team_id, event.jobId);
    if (!job) return null;
    const type: WebhookEvent = job.kind === "edit" && event.type === "succeeded" ? "edit.succeeded" : `render.${event.type}`;
    return { type, data: job.data };
  },
};

/** Credit balances that went down and listing exports made (space_events). */
const spaceStream: EventStream<StoredSpaceEvent> = {
  cursor: "space_events",
  keyPrefix: "space",
  read: async (deps, afterId) => deps.spaceEvents.after(afterId, READ_LIMIT),
  deliveryFor: async (deps, { event }, endpoint) => {
    if (event.type === "credits.decreased") {
      // Sent when this change took the balance from at or above the endpoint's threshold to below it.
      const threshold = endpoint.credits_low_below;
      const before = event.balance - event.change;
      if (threshold === null || !(before >= threshold && event.balance < threshold)) return null;
      return { type: "credits.low", data: { teamId: event.teamId, balance: event.balance, threshold } };
    }
    // Its shape is read (a query) only for an endpoint that asked for it.
    if (!eventsOf(endpoint).includes("listing.created")) return null;
    const listing = await deps.listings.describe(endpoint.user_id, endpoint.team_id, event.exportId);
    return listing === null ? null : { type: "listing.created", data: listing };
  },
};

/** Since when each missing id has been seen, per stream (the worker keeps it between passes). */
export type GapsSeen = Map<string, Map<number, number>>;

/**
 * One pass of the fan-out over every stream; true when it moved a cursor (there may be more).
 */
export async function fanOut(deps: WebhooksContext, gaps: GapsSeen): Promise<boolean> {
  let moved = false;
  for (const stream of [renderStream, spaceStream] as Array<EventStream<StreamEvent>>) {
    const seen = gaps.get(stream.cursor) ?? new Map<number, number>();
    gaps.set(stream.cursor, seen);
    if (await fanOutOf(deps, stream, seen)) moved = true;
  }
  return moved;
}

async function fanOutOf<E extends StreamEvent>(deps: WebhooksContext, stream: EventStream<E>, gaps: Map<number, number>): Promise<boolean> {
  const cursor = Number(
    (await deps.db.selectFrom("webhook_cursor").select("last_id").where("name", "=", stream.cursor).executeTakeFirst())?.last_id ?? 0,
  );
  const { ids, events } = await stream.read(deps, cursor);
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
  const owners = [...new Set(events.map((event) => event.owner))].filter((owner) => owner.startsWith("u:") || owner.startsWith("t:"));
  const endpoints =
    owners.length === 0
      ? []
      : await deps.db.selectFrom("webhook_endpoints").selectAll().where("owner", "in", owners).where("disabled_at", "is", null).execute();
  for (const event of events) {
    const listening = endpoints.filter((endpoint) => endpoint.owner === event.owner && endpoint.created_at <= event.at);
    for (const endpoint of listening) {
      const delivery = await stream.deliveryFor(deps, event, endpoint);
      if (!delivery || !eventsOf(endpoint).includes(delivery.type)) continue;
      const eventKey = `${stream.keyPrefix}:${event.id}`;
      rows.push(newDelivery(endpoint.id, delivery.type, body(delivery.type, event.at, delivery.data), now, eventKey));
    }
  }
  return deps.db.transaction().execute(async (trx) => {
    if (next !== cursor) {
      // Another instance moved it first: it wrote these deliveries (or will); this pass stops here.
      const moved = await trx
        .updateTable("webhook_cursor")
        .set({ last_id: next })
        .where("name", "=", stream.cursor)
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
