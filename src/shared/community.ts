/**
 * The community hub (issue 32, decision 102): renders their owners publish, on /gallery (public) and
 * /community (signed in). Limits, the publish form's schema and the report reasons, read by the
 * server (src/server/community) and the client alike.
 */
import { z } from "zod";
import { MESSAGES } from "./messages";
import { ROOM_TYPES } from "./styles";

export const PUBLICATION_LAYOUTS = ["before-after", "after-only"] as const;
export type PublicationLayout = (typeof PUBLICATION_LAYOUTS)[number];

export const COMMUNITY = {
  titleMax: 80,
  reportNoteMax: 500,
  /** Publications on one page of /community. */
  pageSize: 24,
  pageSizeMax: 48,
  /** Publications /gallery shows (newest first). */
  galleryMax: 60,
  /** The user's own publications the social hub lists. */
  mineMax: 200,
  /** The long edge of a published copy, in pixels. */
  copyLongEdge: 1600,
  /** Every publication's id starts so. */
  idPrefix: "pub_",
  /** Likes, saves and follows one address may send a minute; reports a minute. */
  reactionsPerMinute: 120,
  reportsPerMinute: 10,
} as const;

export const REPORT_REASONS = ["spam", "offensive", "not-mine", "personal-information", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const COMMUNITY_SORTS = ["newest", "liked"] as const;
export type CommunitySort = (typeof COMMUNITY_SORTS)[number];

export const publicationIdSchema = z.string().regex(/^pub_[A-Za-z0-9]{16,40}$/, { error: MESSAGES.publicationNotFound });

export const publicationTitleSchema = z
  .string()
  .trim()
  .min(1, { error: MESSAGES.publicationTitleRequired })
  .max(COMMUNITY.titleMax, { error: MESSAGES.publicationTitleTooLong });

export const publishInputSchema = z.object({
  jobId: z.string().min(1).max(64),
  title: publicationTitleSchema,
  layout: z.enum(PUBLICATION_LAYOUTS),
  showName: z.boolean().default(false),
});
export type PublishInput = z.infer<typeof publishInputSchema>;

export const reportInputSchema = z.object({
  id: publicationIdSchema,
  reason: z.enum(REPORT_REASONS),
  note: z.string().trim().max(COMMUNITY.reportNoteMax, { error: MESSAGES.reportNoteTooLong }).default(""),
});

/** Where to continue a feed: after the last item of a page (keyset, stable while new ones arrive). */
export const feedCursorSchema = z.object({
  likes: z.number().int().min(0),
  at: z.number().int().min(0),
  id: z.string().max(64),
});
export type FeedCursor = z.infer<typeof feedCursorSchema>;

export const feedInputSchema = z.object({
  sort: z.enum(COMMUNITY_SORTS).default("newest"),
  /** A built-in style's id, or a custom style's name as its publications carry it. */
  style: z.string().trim().min(1).max(64).optional(),
  roomType: z.enum(ROOM_TYPES).optional(),
  /** Only what the caller saved, or only what designers and studios they follow published. */
  view: z.enum(["all", "saved", "following"]).default("all"),
  cursor: feedCursorSchema.optional(),
  limit: z.number().int().min(1).max(COMMUNITY.pageSizeMax).default(COMMUNITY.pageSize),
});
export type FeedInput = z.input<typeof feedInputSchema>;

/** A designer (a user) or a studio (a team): who a publication is shown as, and whom one follows. */
export interface CommunityAuthor {
  kind: "user" | "team";
  id: string;
  name: string;
  /** The handle of their portfolio page (/p/<handle>, decision 105), when they have a visible one. */
  portfolio: string | null;
}

/** A publication as the public pages show it. */
export interface PublicationView {
  id: string;
  title: string;
  layout: PublicationLayout;
  /** Built-in style id or a custom style's id; styleName for a custom one. */
  style: string;
  styleName: string | null;
  /** Whether "use this style" applies (a built-in style: another space's custom styles are theirs). */
  builtInStyle: boolean;
  roomType: string;
  /** null for "after only". */
  before: string | null;
  after: string;
  /** Only when the publisher chose to show it. */
  author: CommunityAuthor | null;
  likes: number;
  publishedAt: number;
}

/** A publication in the signed-in feed: what the caller did with it. */
export interface FeedItem extends PublicationView {
  liked: boolean;
  saved: boolean;
  followingAuthor: boolean;
  /** The caller published it (or may unpublish it). */
  mine: boolean;
}

/** The public files of a publication: the only URLs that serve its pictures ("card": the share card, decision 106). */
export const publicationFile = (id: string, variant: "before" | "after" | "card") => `/files/published/${id}/${variant}`;

/** Share links, cards and embeds (decision 106). */
export const SHARE = {
  /** The share card's size: what Open Graph and Twitter's large card expect. */
  cardWidth: 1200,
  cardHeight: 630,
  /** The embed snippet's frame. */
  embedWidth: 800,
  embedHeight: 500,
} as const;

/** A publication's public page, and its embeddable slider (the one page other sites may frame). */
export const SHARE_ROUTES = {
  page: (id: string) => `/s/${id}`,
  embed: (id: string) => `/embed/${id}`,
} as const;

const escapeAttribute = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

/** The <iframe> a studio pastes into its own website (origin: where this server is reached, no trailing slash). */
export function embedSnippet(origin: string, id: string, title: string): string {
  const src = `${origin.replace(/\/+$/, "")}${SHARE_ROUTES.embed(id)}`;
  return (
    `<iframe src="${escapeAttribute(src)}" width="${SHARE.embedWidth}" height="${SHARE.embedHeight}" ` +
    `style="border:0;max-width:100%" title="${escapeAttribute(title)}" loading="lazy" allowfullscreen></iframe>`
  );
}
