/**
 * Webhooks of the public REST API (issue 31, decision 095): endpoints per space, the durable outbox
 * of deliveries and their attempts, Standard Webhooks signatures, and the delivery worker. It owns
 * webhook_endpoints, webhook_deliveries, webhook_attempts and webhook_cursor; it reads render events,
 * space events (decision 098) and the API's shape of a render and a listing export through ports boot.ts hands in. The rest of the server imports this file only.
 */
import type { CreateWebhookInput } from "../../shared/webhooks";
import type { Infra } from "../infra";
import type {
  WebhookActor,
  WebhookListings,
  WebhookPeople,
  WebhookRenders,
  WebhooksContext,
  WebhookSpaceEvents,
  WebhookSpaces,
} from "./context";
import { createEndpoint, deleteEndpoint, endpointFor, endpointView, listEndpoints, rotateSecret, setEndpointEnabled } from "./endpoints";
import { listDeliveries, pruneDeliveries, redeliver, sendTestEvent } from "./outbox";
import { systemLookup, type Lookup } from "./target";
import { createDeliveryWorker } from "./worker";

export type { WebhookActor } from "./context";
export { classifyAddress, resolveTarget, type Lookup } from "./target";
export { signatureOf } from "./signing";

export interface WebhooksOptions {
  /** How often the worker looks for work (default 1 s; tests: shorter). */
  pollMs?: number;
  /** Name resolution (tests: names that resolve where they say). */
  lookup?: Lookup;
}

export function createWebhooksModule(
  infra: Pick<Infra, "db" | "clock" | "log" | "mailer" | "secretBox" | "env">,
  ports: {
    spaces: WebhookSpaces;
    renders: WebhookRenders;
    spaceEvents: WebhookSpaceEvents;
    listings: WebhookListings;
    people: WebhookPeople;
    brandName(): string;
  },
  options: WebhooksOptions = {},
) {
  const deps: WebhooksContext = {
    db: infra.db,
    clock: infra.clock,
    log: infra.log,
    mailer: infra.mailer,
    secretBox: infra.secretBox,
    allowLoopback: infra.env.WEBHOOKS_ALLOW_LOOPBACK,
    lookup: options.lookup ?? systemLookup,
    ...ports,
  };
  const worker = createDeliveryWorker(deps, { pollMs: options.pollMs ?? 1000 });
  /** A change that made work: the worker looks at once. */
  const soon = <T>(result: T): T => {
    worker.kick();
    return result;
  };
  return {
    list: (userId: string, teamId: string | null) => listEndpoints(deps, userId, teamId),
    /** A new endpoint: its signing secret is in this answer only. */
    create: (actor: WebhookActor, input: CreateWebhookInput) => createEndpoint(deps, actor, input),
    get: async (actor: WebhookActor, id: string) => endpointView(await endpointFor(deps, actor, id)),
    remove: (actor: WebhookActor, id: string) => deleteEndpoint(deps, actor, id),
    /** A new signing secret, in force at once; in this answer only. */
    rotateSecret: (actor: WebhookActor, id: string) => rotateSecret(deps, actor, id),
    setEnabled: async (actor: WebhookActor, id: string, enabled: boolean) => soon(await setEndpointEnabled(deps, actor, id, enabled)),
    deliveries: (actor: WebhookActor, endpointId: string, limit: number) => listDeliveries(deps, actor, endpointId, limit),
    redeliver: async (actor: WebhookActor, endpointId: string, deliveryId: string) =>
      soon(await redeliver(deps, actor, endpointId, deliveryId)),
    sendTest: async (actor: WebhookActor, endpointId: string) => soon(await sendTestEvent(deps, actor, endpointId)),
    /** Removes deliveries ended more than 30 days ago (housekeeping); how many. */
    pruneDeliveries: () => pruneDeliveries(deps),
    /** Starts the delivery worker (boot.ts, where the app is served). */
    start: () => worker.start(),
    /** Looks for work now (a render event was written). */
    kick: () => worker.kick(),
    stop: () => worker.stop(),
  };
}

export type WebhooksModule = ReturnType<typeof createWebhooksModule>;
