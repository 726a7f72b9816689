/**
 * The marketplace of styles (issue 32, decision 104). It owns marketplace_listings and the listings'
 * copies (styles, examples, facets) and marketplace_installs. It asks the styles module (reading a
 * space's style, making and overwriting copies), the render module (a finished render's room and
 * picture) and the spaces module (a caller's role) through ports boot.ts hands in. Routers and the
 * pictures' route call this surface only; every function takes the acting user.
 */
import type {
  MarketplaceBrowseInput,
  MarketplaceInstallView,
  OwnMarketplaceListing,
  MarketplaceListingView,
  MarketplacePage,
  MarketplacePublishInput,
} from "../../shared/marketplace";
import type { Infra } from "../infra";
import type { MarketPeople, MarketplaceContext, MarketRenders, MarketStyles, MarketTeams } from "./context";
import { acceptUpdate, install, installsOf, keepOwn } from "./installs";
import { browse, listingPicture, listingView, publish, republish, spaceListings, unpublish } from "./listings";

export type { MarketRenders, MarketSpace, MarketStyles, MarketTeams, StyleCopy } from "./context";

export function createMarketplaceModule(
  infra: Pick<Infra, "db" | "clock">,
  ports: { styles: MarketStyles; renders: MarketRenders; teams: MarketTeams; people: MarketPeople },
) {
  const deps: MarketplaceContext = { db: infra.db, clock: infra.clock, ...ports };
  return {
    /** Listings, newest or most installed, by room type and tone, a page at a time (any signed-in user). */
    browse: (userId: string, input: MarketplaceBrowseInput): Promise<MarketplacePage> => browse(deps, userId, input),
    /** A listing's page, with what the space `teamId` (null: personal) has of it. */
    get: (userId: string, listingId: string, teamId: string | null): Promise<MarketplaceListingView> =>
      listingView(deps, userId, listingId, teamId),
    /** The space's own listings (what it published), newest first. */
    mine: (userId: string, teamId: string | null): Promise<OwnMarketplaceListing[]> => spaceListings(deps, { userId, teamId }),
    /** Publishes styles of the space (right manageStyles) with a cover and examples from its finished renders. */
    publish: (userId: string, teamId: string | null, input: MarketplacePublishInput): Promise<MarketplaceListingView> =>
      publish(deps, { userId, teamId }, input),
    /** A new version of a listing of the caller's space: installers are offered it as an update. */
    republish: (userId: string, listingId: string, input: MarketplacePublishInput): Promise<MarketplaceListingView> =>
      republish(deps, userId, listingId, input),
    unpublish: (userId: string, listingId: string): Promise<void> => unpublish(deps, userId, listingId),
    /** A copy of the listing's styles in the space (right manageStyles), once per space. */
    install: (userId: string, teamId: string | null, listingId: string): Promise<MarketplaceInstallView> =>
      install(deps, { userId, teamId }, listingId),
    acceptUpdate: (userId: string, teamId: string | null, listingId: string): Promise<MarketplaceInstallView> =>
      acceptUpdate(deps, { userId, teamId }, listingId),
    keepOwn: (userId: string, teamId: string | null, listingId: string): Promise<MarketplaceInstallView> =>
      keepOwn(deps, { userId, teamId }, listingId),
    /** The space's installs, with whether an update waits for each. */
    installs: (userId: string, teamId: string | null) => installsOf(deps, { userId, teamId }),
    /** A listing's cover or example picture (a clean JPEG), for any signed-in user. */
    picture: (listingId: string, picture: "cover" | number): Promise<Buffer> => listingPicture(deps, listingId, picture),
  };
}

export type MarketplaceModule = ReturnType<typeof createMarketplaceModule>;
