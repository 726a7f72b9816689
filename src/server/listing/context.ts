/** What the parts of the listing module share: the adapters, and the one thing it asks of the render module. */
import type { Infra } from "../infra";
import type { RenderModule } from "../render";
import type { TeamRole } from "../../shared/teams";

export interface ListingContext extends Pick<Infra, "db" | "clock" | "storage" | "diskFloor" | "log"> {
  render: Pick<RenderModule, "listingSource" | "setPictures" | "paintsInMaking">;
  /** A caller's role in a team (the spaces module): a team render's exports are its Owner's and Admins' to revoke too. */
  teams?: { roleIn(userId: string, teamId: string): Promise<TeamRole | null> };
  /** The studio's name in force: exported files are named after it. */
  brandName: () => string;
}
