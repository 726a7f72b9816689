/** What the parts of the webhooks module share: the adapters, and the ports to what it asks of others. */
import type { Language } from "../../shared/constants";
import type { RenderEvent } from "../../shared/render";
import type { TeamRight, TeamRole } from "../../shared/teams";
import type { Infra } from "../infra";
import type { StoredSpaceEvent } from "../space-events";
import type { Lookup } from "./target";

export interface WebhookSpaces {
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
  requireRight(userId: string, teamId: string, right: TeamRight): Promise<TeamRole>;
}

/** What the webhooks module asks of the render module and of the API (the public shape of a render). */
export interface WebhookRenders {
  /** Every owner's stored events after `afterId`: all ids read, and the events of the given types. */
  eventsAfter(
    afterId: number,
    limit: number,
    types: readonly RenderEvent["type"][],
  ): Promise<{ ids: number[]; events: Array<{ id: number; owner: string; event: RenderEvent }> }>;
  /** The job as the API shows it, seen by the endpoint's maker in its space; null when gone or no longer theirs. */
  describe(userId: string, teamId: string | null, jobId: string): Promise<{ kind: "render" | "edit"; data: unknown } | null>;
}

/** What the webhooks module asks of the space-events record. */
export interface WebhookSpaceEvents {
  /** Every space's events after `afterId`: all ids read, and the events. */
  after(afterId: number, limit: number): Promise<{ ids: number[]; events: StoredSpaceEvent[] }>;
}

/** What it asks of the listing module and the API: the public shape of a listing export. */
export interface WebhookListings {
  /** The export as the API shows it, seen by the endpoint's maker in its space; null when gone or not theirs. */
  describe(userId: string, teamId: string | null, exportId: string): Promise<unknown>;
}

export interface WebhookPeople {
  people(userIds: string[]): Promise<Map<string, { name: string; email: string }>>;
}

export interface WebhooksContext extends Pick<Infra, "db" | "clock" | "log" | "mailer" | "secretBox"> {
  spaces: WebhookSpaces;
  renders: WebhookRenders;
  spaceEvents: WebhookSpaceEvents;
  listings: WebhookListings;
  people: WebhookPeople;
  brandName(): string;
  /** WEBHOOKS_ALLOW_LOOPBACK. */
  allowLoopback: boolean;
  lookup: Lookup;
}

/** Who asks: a user, in one space (an API key's), or in any space they may manage (the web page: teamId undefined). */
export interface WebhookActor {
  userId: string;
  teamId?: string | null;
  language?: Language;
}
