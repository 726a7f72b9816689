/** What the parts of the community module share: the adapters, and the ports to the other capabilities boot.ts hands in. */
import type { TeamRole } from "../../shared/teams";
import type { Infra } from "../infra";

/** A render as the community module publishes it (the render module's answer). */
export interface RenderToPublish {
  jobId: string;
  userId: string | null;
  teamId: string | null;
  succeeded: boolean;
  style: string;
  styleName: string | null;
  roomType: string;
}

/** What the community module asks the render module. */
export interface CommunityRenders {
  /** A render of one of the user's spaces (a team's for any member); throws not-found otherwise. */
  source(userId: string, jobId: string): Promise<RenderToPublish>;
  /** A finished render's photo and result (any metadata still in them), null when gone. */
  pictures(jobId: string): Promise<{ before: Buffer; after: Buffer } | null>;
}

/** What it asks the spaces module and the accounts: roles in a team, and the names it may show. */
export interface CommunitySpaces {
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
  names(teamIds: readonly string[]): Promise<Map<string, string>>;
  /** The teams the user belongs to, with their role (a portfolio may present one of them). */
  teamsOf(userId: string): Promise<Array<{ id: string; name: string; role: TeamRole }>>;
}

export interface CommunityPeople {
  people(userIds: readonly string[]): Promise<Map<string, { name: string; email: string }>>;
  /** The accounts an admin has disabled: what they published is not shown while they are. */
  disabledIds(): Promise<string[]>;
}

export interface CommunityContext extends Pick<Infra, "db" | "clock" | "storage" | "log"> {
  renders: CommunityRenders;
  spaces: CommunitySpaces;
  people: CommunityPeople;
}
