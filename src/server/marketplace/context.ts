/** What the parts of the marketplace module share: the adapters, and the ports to the modules it asks. */
import type { CustomStyleView, StyleSnapshot } from "../../shared/custom-styles";
import type { RoomType } from "../../shared/styles";
import type { TeamRole } from "../../shared/teams";
import type { Infra } from "../infra";

/** A space: a team's (teamId), or the user's personal one (teamId null). */
export interface MarketSpace {
  userId: string;
  teamId: string | null;
}

/** A style with its content and its reference picture (a clean JPEG), ready to copy. */
export interface StyleCopy {
  input: Pick<StyleSnapshot, "name" | "description" | "avoid" | "palette" | "tone">;
  reference: { data: Buffer; width: number; height: number } | null;
}

/** What the marketplace asks the styles module (boot.ts wires it). */
export interface MarketStyles {
  /** The style of exactly this space, with its picture; throws not-found otherwise. */
  read(space: MarketSpace, styleId: string): Promise<StyleCopy>;
  /** New styles in the space, all or nothing within its limit (right manageStyles). */
  insertCopies(space: MarketSpace, copies: StyleCopy[]): Promise<CustomStyleView[]>;
  /** A copy's content written over one of the caller's styles (not-found when it has gone). */
  overwrite(userId: string, styleId: string, copy: StyleCopy): Promise<CustomStyleView>;
  /** Removes a style the caller made (an install undone when it lost a race). */
  remove(userId: string, styleId: string): Promise<void>;
}

/** What the marketplace asks the render module: a finished render of the space, its room and its picture. */
export interface MarketRenders {
  finished(space: MarketSpace, jobId: string): Promise<{ roomType: RoomType; picture: Buffer } | null>;
}

/** What the marketplace asks the spaces module: the caller's role in a team (null: not a member). */
export interface MarketTeams {
  roleIn(userId: string, teamId: string): Promise<TeamRole | null>;
}

/** What the marketplace asks of accounts: those an admin has disabled (their personal listings are not offered meanwhile). */
export interface MarketPeople {
  disabledIds(): Promise<string[]>;
}

export interface MarketplaceContext extends Pick<Infra, "db" | "clock"> {
  styles: MarketStyles;
  renders: MarketRenders;
  teams: MarketTeams;
  people: MarketPeople;
}

export const spaceKey = (space: MarketSpace) => (space.teamId === null ? `u:${space.userId}` : `t:${space.teamId}`);
