/** What the parts of the api module share: the adapters, and the ports to the spaces and credits it asks. */
import type { Request } from "express";
import type { Language } from "../../shared/constants";
import type { TeamRight, TeamRole } from "../../shared/teams";
import type { CreateWebhookInput, WebhookDeliveryView, WebhookEndpointView } from "../../shared/webhooks";
import type { CustomStyleView } from "../../shared/custom-styles";
import type { Infra } from "../infra";
import type { Owner, RenderModule } from "../render";

/** What the api module asks the spaces module about teams. */
export interface ApiSpaces {
  /** The user's role in the team, or null (not a member). */
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
  /** The role when it carries the right; else not-found (not a member) or forbidden (role). */
  requireRight(userId: string, teamId: string, right: TeamRight): Promise<TeamRole>;
}

/** What the api module asks of accounts: whether a key's maker may still act (an admin may have disabled the account). */
export interface ApiAccounts {
  isDisabled(userId: string): Promise<boolean>;
}

/** A row of a credit ledger (the credits' LedgerEntry). */
export interface ApiLedgerEntry {
  id: string;
  kind: string;
  amount: number;
  jobId: string | null;
  reason: string | null;
  createdAt: number;
}

/** What the api module asks of the credits: the balance and the ledger of the space a key works in. */
export interface ApiCredits {
  balance(owner: Owner): Promise<number>;
  /** A page of the space's ledger, newest first, after `before` (keyset). */
  ledger(owner: Owner, page: { limit: number; before?: { createdAt: number; id: string } }): Promise<ApiLedgerEntry[]>;
}

/** What the api module asks of the styles module: the custom styles of the key's space (issue 32). */
export interface ApiStyles {
  list(userId: string, teamId: string | null): Promise<{ styles: CustomStyleView[] }>;
}

/** What the api module asks of the render module: the same capabilities the web app calls. */
export type ApiRender = Pick<
  RenderModule,
  | "saveUpload"
  | "upload"
  | "create"
  | "job"
  | "list"
  | "cancel"
  | "events"
  | "versionPicture"
  | "rerender"
  | "edit"
  | "upscale"
  | "engine"
  | "engineStatuses"
  | "versions"
>;

/** A project as the projects service shows it. */
export interface ApiProjectView {
  id: string;
  teamId: string | null;
  name: string;
  settings: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

/** What the api module asks of the projects service (the web app's projects.* procedures call the same). */
export interface ApiProjects {
  list(
    userId: string,
    page: { cursor?: string | null; limit?: number },
    teamId: string | null,
  ): Promise<{ projects: Array<ApiProjectView & { renderCount: number }>; nextCursor: string | null }>;
  get(userId: string, projectId: string): Promise<{ project: ApiProjectView }>;
  create(userId: string, name: string, settings: undefined, teamId: string | null): Promise<ApiProjectView>;
  rename(userId: string, projectId: string, name: string): Promise<void>;
  delete(userId: string, projectId: string): Promise<unknown>;
}

/** A listing export as the listing module shows it. */
export interface ApiListingExportView {
  id: string;
  jobId: string;
  disclosure: string;
  language: Language;
  publicUrl: string;
  width: number;
  height: number;
  createdAt: number;
}

/** What the api module asks of the listing module (the web app's listing.* procedures call the same). */
export interface ApiListing {
  /** `publicBase`: where the public page's link points (PUBLIC_URL, or a host the server knows), null refuses. */
  create(
    userId: string,
    input: { jobId: string; disclosure?: string; language: Language },
    publicBase: string | null,
  ): Promise<ApiListingExportView>;
  forJob(userId: string, jobId: string): Promise<ApiListingExportView[]>;
  view(userId: string, exportId: string): Promise<ApiListingExportView>;
  picture(userId: string, exportId: string): Promise<{ data: Buffer; fileName: string; jobId: string }>;
}

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
  accounts: ApiAccounts;
  credits: ApiCredits;
  render: ApiRender;
  webhooks: ApiWebhooks;
  projects: ApiProjects;
  listing: ApiListing;
  styles: ApiStyles;
  /** Where links for the public (a listing's page) point for this request (mailBaseUrl: decision 064). */
  publicBase(req: Request): string | null;
  /** Renders (and edits) running at once per key (API_RENDERS_AT_ONCE). */
  rendersAtOnce: number;
}
