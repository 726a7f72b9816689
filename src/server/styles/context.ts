/** What the parts of the styles module share: the adapters, and the port to the spaces module. */
import type { TeamRole } from "../../shared/teams";
import type { Infra } from "../infra";

/** What the styles module asks the spaces module: the caller's role in a team (null: not a member), and the team's log. */
export interface StyleSpaces {
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
  /** Writes a change of a team's styles in the team's activity log. */
  record(
    teamId: string,
    actorId: string | null,
    action: "styleAdded" | "styleChanged" | "styleRemoved",
    details: { name: string },
  ): Promise<void>;
}

export interface StylesContext extends Pick<Infra, "db" | "clock"> {
  spaces: StyleSpaces;
}

/** A space: a team's (teamId), or the user's personal one (teamId null). */
export interface StyleOwner {
  userId: string;
  teamId: string | null;
}
