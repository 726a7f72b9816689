/** What the parts of the listing module share: the adapters, and the one thing it asks of the render module. */
import type { Infra } from "../infra";
import type { RenderModule } from "../render";

export interface ListingContext extends Pick<Infra, "db" | "clock" | "storage" | "diskFloor" | "log"> {
  render: Pick<RenderModule, "listingSource">;
  /** The studio's name in force: exported files are named after it. */
  brandName: () => string;
}
