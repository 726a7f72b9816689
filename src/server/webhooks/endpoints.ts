/**
 * Webhook endpoints (decision 095): per space, exactly as API keys are (a user's personal space, or a
 * team's for its Owner and Admins: right manageDevelopers). The signing secret is in the create answer
 * only; it is kept sealed with APP_SECRET because each delivery is signed with it.
 */
import type { ExpressionBuilder } from "kysely";
import { WEBHOOK_EVENTS, WEBHOOKS, type CreateWebhookInput, type WebhookEndpointView, type WebhookEvent } from "../../shared/webhooks";
import { generateSecureRandomString } from "../auth/tokens";
import type { Database, WebhookEndpointsTable } from "../db/schema";
import { DomainError, notFound } from "../errors";
import type { Selectable } from "kysely";
import type { WebhookActor, WebhooksContext } from "./context";
import { newSigningSecret } from "./signing";
import { resolveTarget } from "./target";
import { personalSpaceKey, teamSpaceKey } from "../space-events";

export type EndpointRow = Selectable<WebhookEndpointsTable>;

/** The event key of a space: a team's, else the user's personal one (the render events' owner key). */
export const spaceKey = (userId: string, teamId: string | null) => (teamId === null ? personalSpaceKey(userId) : teamSpaceKey(teamId));

const inSpace = (userId: string, teamId: string | null) => (eb: ExpressionBuilder<Database, "webhook_endpoints">) =>
  teamId === null ? eb.and([eb("user_id", "=", userId), eb("team_id", "is", null)]) : eb("team_id", "=", teamId);

export function eventsOf(row: Pick<EndpointRow, "events">): WebhookEvent[] {
  return (JSON.parse(row.events) as string[]).filter((event): event is WebhookEvent =>
    (WEBHOOK_EVENTS as readonly string[]).includes(event),
  );
}

export function endpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: eventsOf(row),
    creditsLowBelow: row.credits_low_below,
    teamId: row.team_id,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
  };
}

/** The secret an endpoint signs with. */
export function secretOf(deps: Pick<WebhooksContext, "secretBox">, row: Pick<EndpointRow, "secret">): string {
  return Buffer.from(deps.secretBox.decrypt(row.secret)).toString("utf8");
}

/** The endpoint when the actor may manage it (in the actor's space, when it names one); else not found or forbidden. */
export async function endpointFor(deps: WebhooksContext, actor: WebhookActor, id: string): Promise<EndpointRow> {
  const row = await deps.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound();
  if (actor.teamId !== undefined && row.team_id !== actor.teamId) throw notFound();
  if (row.team_id === null) {
    if (row.user_id !== actor.userId) throw notFound();
  } else {
    if ((await deps.spaces.roleIn(actor.userId, row.team_id)) === null) throw notFound();
    await deps.spaces.requireRight(actor.userId, row.team_id, "manageDevelopers");
  }
  return row;
}

export async function listEndpoints(deps: WebhooksContext, userId: string, teamId: string | null): Promise<WebhookEndpointView[]> {
  if (teamId !== null) await deps.spaces.requireRight(userId, teamId, "manageDevelopers");
  const rows = await deps.db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where(inSpace(userId, teamId))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(endpointView);
}

/** A new endpoint; its signing secret is in this answer only. */
export async function createEndpoint(
  deps: WebhooksContext,
  actor: WebhookActor,
  input: CreateWebhookInput,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  if (input.teamId !== null) await deps.spaces.requireRight(actor.userId, input.teamId, "manageDevelopers");
  const target = await resolveTarget(input.url, { allowLoopback: deps.allowLoopback, lookup: deps.lookup });
  const secret = newSigningSecret();
  const row: EndpointRow = {
    id: generateSecureRandomString(),
    user_id: actor.userId,
    team_id: input.teamId,
    owner: spaceKey(actor.userId, input.teamId),
    url: target.url.href,
    description: input.description,
    events: JSON.stringify(WEBHOOK_EVENTS.filter((event) => input.events.includes(event))),
    credits_low_below: input.events.includes("credits.low") ? (input.creditsLowBelow ?? WEBHOOKS.creditsLowDefault) : null,
    secret: deps.secretBox.encrypt(Buffer.from(secret, "utf8")),
    language: actor.language ?? "en",
    created_at: deps.clock.now(),
    disabled_at: null,
    disabled_reason: null,
  };
  await deps.db.transaction().execute(async (trx) => {
    const { count } = await trx
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where(inSpace(actor.userId, input.teamId))
      .executeTakeFirstOrThrow();
    if (Number(count) >= WEBHOOKS.perSpaceMax) throw new DomainError("conflict", "tooManyWebhooks");
    await trx.insertInto("webhook_endpoints").values(row).execute();
  });
  return { endpoint: endpointView(row), secret };
}

export async function deleteEndpoint(deps: WebhooksContext, actor: WebhookActor, id: string): Promise<void> {
  await endpointFor(deps, actor, id);
  await deps.db.transaction().execute(async (trx) => {
    const deliveries = trx.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", id);
    await trx.deleteFrom("webhook_attempts").where("delivery_id", "in", deliveries).execute();
    await trx.deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute();
    await trx.deleteFrom("webhook_endpoints").where("id", "=", id).execute();
  });
}

/** Turns sending on or off; turned on again, it starts afresh (what waits is sent, failures forgotten). */
export async function setEndpointEnabled(
  deps: WebhooksContext,
  actor: WebhookActor,
  id: string,
  enabled: boolean,
): Promise<WebhookEndpointView> {
  const row = await endpointFor(deps, actor, id);
  const now = deps.clock.now();
  const change = enabled ? { disabled_at: null, disabled_reason: null } : { disabled_at: now, disabled_reason: "owner" as const };
  if (enabled && row.disabled_at !== null) {
    // What was waiting gets a new day of tries, from now.
    await deps.db
      .updateTable("webhook_deliveries")
      .set({ created_at: now, next_attempt_at: now })
      .where("endpoint_id", "=", id)
      .where("status", "=", "pending")
      .execute();
  }
  if (enabled === (row.disabled_at === null)) return endpointView(row);
  await deps.db.updateTable("webhook_endpoints").set(change).where("id", "=", id).execute();
  return endpointView({ ...row, ...change });
}

/** A new signing secret for the endpoint, in force at once (the old one stops); in this answer only. */
export async function rotateSecret(
  deps: WebhooksContext,
  actor: WebhookActor,
  id: string,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const row = await endpointFor(deps, actor, id);
  const secret = newSigningSecret();
  const sealed = deps.secretBox.encrypt(Buffer.from(secret, "utf8"));
  await deps.db.updateTable("webhook_endpoints").set({ secret: sealed }).where("id", "=", id).execute();
  return { endpoint: endpointView({ ...row, secret: sealed }), secret };
}
