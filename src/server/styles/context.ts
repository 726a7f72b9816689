/** What the parts of the styles module share: the adapters, and the port to the spaces module. */
import type { TeamRole } from "../../shared/teams";
import type { Infra } from "../infra";

/** What the styles module asks the spaces module: the caller's role in a team (null: not a member). */
export interface StyleSpaces {
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
}

export interface StylesContext extends Pick<Infra, "db" | "clock"> {
  spaces: StyleSpaces;
}

/** A space: a team's (teamId), or the user's personal one (teamId null). */
export interface StyleOwner {
  userId: string;
  teamId: string | null;
}
