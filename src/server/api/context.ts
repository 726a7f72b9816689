/** What the parts of the api module share: the adapters, and the ports to the spaces and credits it asks. */
import type { TeamRight, TeamRole } from "../../shared/teams";
import type { CreateWebhookInput, WebhookDeliveryView, WebhookEndpointView } from "../../shared/webhooks";
import type { Infra } from "../infra";
import type { Owner, RenderModule } from "../render";

/** What the api module asks the spaces module about teams. */
export interface ApiSpaces {
  /** The user's role in the team, or null (not a member). */
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
  /** The role when it carries the right; else not-found (not a member) or forbidden (role). */
  requireRight(userId: string, teamId: string, right: TeamRight): Promise<TeamRole>;
}

/** What the api module asks of the credits: the balance of the space a key works in. */
export interface ApiCredits {
  balance(owner: Owner): Promise<number>;
}

/** What the api module asks of the render module: the same capabilities the web app calls. */
export type ApiRender = Pick<RenderModule, "saveUpload" | "upload" | "create" | "job" | "list" | "cancel" | "events" | "versionPicture">;

/** Requests counted per key in the database, so that every instance counts together (decision 078). */
export interface ApiCounts {
  add(key: string, windowMs: number): Promise<{ count: number; windowEndsAt: number }>;
}

/** What the api module asks of the webhooks module (decision 095): a key acts in its own space only. */
export interface ApiWebhooks {
  list(userId: string, teamId: string | null): Promise<WebhookEndpointView[]>;
  create(actor: WebhookSpaceActor, input: CreateWebhookInput): Promise<{ endpoint: WebhookEndpointView; secret: string }>;
  get(actor: WebhookSpaceActor, id: string): Promise<WebhookEndpointView>;
  remove(actor: WebhookSpaceActor, id: string): Promise<void>;
  rotateSecret(actor: WebhookSpaceActor, id: string): Promise<{ endpoint: WebhookEndpointView; secret: string }>;
  deliveries(actor: WebhookSpaceActor, endpointId: string, limit: number): Promise<WebhookDeliveryView[]>;
  redeliver(actor: WebhookSpaceActor, endpointId: string, deliveryId: string): Promise<WebhookDeliveryView>;
  sendTest(actor: WebhookSpaceActor, endpointId: string): Promise<WebhookDeliveryView>;
}

export interface WebhookSpaceActor {
  userId: string;
  teamId: string | null;
}

export interface ApiContext extends Pick<Infra, "db" | "clock" | "log"> {
  counts: ApiCounts;
  /** Requests per minute per key (API_REQUESTS_PER_MINUTE). */
  requestsPerMinute: number;
  spaces: ApiSpaces;
  credits: ApiCredits;
  render: ApiRender;
  webhooks: ApiWebhooks;
}
