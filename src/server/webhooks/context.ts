/** What the parts of the webhooks module share: the adapters, and the ports to what it asks of others. */
import type { Language } from "../../shared/constants";
import type { RenderEvent } from "../../shared/render";
import type { TeamRight, TeamRole } from "../../shared/teams";
import type { Infra } from "../infra";
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

export interface WebhookPeople {
  people(userIds: string[]): Promise<Map<string, { name: string; email: string }>>;
}

export interface WebhooksContext extends Pick<Infra, "db" | "clock" | "log" | "mailer" | "secretBox"> {
  spaces: WebhookSpaces;
  renders: WebhookRenders;
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
