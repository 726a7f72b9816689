/**
 * The marketplace of styles (issue 32, decision 104): a style's owner publishes one style, or a pack
 * of several, with a title, a cover and up to six example renders of their own; others browse by room
 * and tone and install a copy into their space. A new version published by the author comes to each
 * installer as an update they may accept or keep theirs instead. Paid styles are out of scope.
 */
import { z } from "zod";
import { customStyleIdSchema, STYLE_TONES, type CustomStyleId, type StyleTone } from "./custom-styles";
import { MESSAGES } from "./messages";
import { ROOM_TYPES, type RoomType } from "./styles";

export const MARKETPLACE = {
  titleMax: 60,
  /** Styles in one listing: one, or a pack of up to this many. */
  stylesMax: 10,
  /** Example renders shown on a listing. */
  examplesMax: 6,
  /** Listings one space may have published at once. */
  perSpaceMax: 20,
  /** Listings on one page of the browse. */
  pageSize: 24,
  /** The cover's and examples' longest side, as kept. */
  pictureLongEdge: 1280,
  idPrefix: "ml_",
} as const;

export const marketplaceListingIdSchema = z.string().regex(/^ml_[a-z0-9]{20,40}$/, { error: MESSAGES.marketplaceListingNotFound });

/** A render job's id, as the render module writes them. */
const jobIdSchema = z.string().min(1).max(64);

/** What the author sends to publish, and again to publish a new version. */
export const marketplacePublishSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, { error: MESSAGES.marketplaceTitleRequired })
    .max(MARKETPLACE.titleMax, { error: MESSAGES.marketplaceTitleTooLong }),
  /** The author's own styles, all of one space. */
  styleIds: z
    .array(customStyleIdSchema)
    .min(1, { error: MESSAGES.marketplaceStylesInvalid })
    .max(MARKETPLACE.stylesMax, { error: MESSAGES.marketplaceStylesInvalid })
    .refine((ids) => new Set(ids).size === ids.length, { error: MESSAGES.marketplaceStylesInvalid }),
  /** A finished render of the space whose picture becomes the cover. */
  coverJobId: jobIdSchema,
  /** Up to six finished renders of the space, shown as examples (their room types are the listing's rooms). */
  exampleJobIds: z
    .array(jobIdSchema)
    .max(MARKETPLACE.examplesMax, { error: MESSAGES.marketplaceExamplesInvalid })
    .refine((ids) => new Set(ids).size === ids.length, { error: MESSAGES.marketplaceExamplesInvalid }),
});
export type MarketplacePublishInput = z.infer<typeof marketplacePublishSchema>;

export const MARKETPLACE_SORTS = ["newest", "installs"] as const;
export type MarketplaceSort = (typeof MARKETPLACE_SORTS)[number];

export const marketplaceBrowseSchema = z.object({
  roomType: z.enum(ROOM_TYPES).nullable().default(null),
  tone: z.enum(STYLE_TONES).nullable().default(null),
  sort: z.enum(MARKETPLACE_SORTS).default("newest"),
  /** The page after this one (what the previous page answered as `next`). */
  cursor: z.string().max(200).nullable().default(null),
});
export type MarketplaceBrowseInput = z.input<typeof marketplaceBrowseSchema>;

/** Where a listing's cover and examples are read (signed in): GET, a JPEG. */
export const marketplacePicturePath = (listingId: string, picture: "cover" | number) =>
  `/api/marketplace/${encodeURIComponent(listingId)}/${picture === "cover" ? "cover" : `examples/${picture}`}`;

export interface MarketplaceStyleView {
  name: string;
  description: string;
  avoid: string;
  palette: string[];
  tone: StyleTone;
  hasReference: boolean;
}

/** A listing as the browse shows it. */
export interface MarketplaceListingSummary {
  id: string;
  title: string;
  /** The version installers have (1 at first, one more at each new version). */
  version: number;
  styles: Array<Pick<MarketplaceStyleView, "name" | "tone" | "palette">>;
  tones: StyleTone[];
  roomTypes: RoomType[];
  /** Spaces that installed it (each counted once). */
  installCount: number;
  publishedAt: number;
  updatedAt: number;
  /** Whether the caller may publish a new version or unpublish it (its space's Owner and Admins, or its author). */
  mine: boolean;
  /** The team whose listing it is; null: its author's personal one. */
  teamId: string | null;
}

/** A listing of the caller's space, with the space's styles it was made from (to publish a new version of it). */
export interface OwnMarketplaceListing extends MarketplaceListingSummary {
  /** The space's styles it copies, in order (one deleted since may be among them: the form offers only those that exist). */
  sourceStyleIds: CustomStyleId[];
}

/** What the caller's space has of a listing. */
export interface MarketplaceInstallView {
  teamId: string | null;
  version: number;
  /** The listing has a newer version the space has neither accepted nor chosen to keep theirs over. */
  updateAvailable: boolean;
  /** The copies in the space, in the listing's order (a copy since deleted is left out). */
  styleIds: string[];
  installedAt: number;
}

/** A listing's own page. */
export interface MarketplaceListingView extends MarketplaceListingSummary {
  styles: MarketplaceStyleView[];
  examples: Array<{ number: number; roomType: RoomType; width: number; height: number }>;
  /** The install in the space asked about, or null. */
  installed: MarketplaceInstallView | null;
}

export interface MarketplacePage {
  listings: MarketplaceListingSummary[];
  /** The cursor of the next page; null: this was the last. */
  next: string | null;
}
