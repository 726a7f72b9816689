/**
 * Client review links (issue 28, decision 073): the limits, choices, schemas and views both sides
 * share. A designer sends a client a link to a project's pictures; the client, without an account,
 * comments on each picture and approves it or asks for changes.
 */
import { z } from "zod";
import type { ArMeasureView, PhotoMeasures } from "./measures";
import { MESSAGES } from "./messages";
import type { PaintSurface } from "./paint";

export const REVIEW = {
  /** How long a new link works, in days (the choices offered), and the default. */
  expiryDays: [1, 7, 30, 90] as const,
  defaultExpiryDays: 30,
  commentMax: 2000,
  authorNameMax: 80,
  labelMax: 100,
  /** A link's comments per client address: at most this many in this many minutes. */
  commentsPerWindow: 20,
  commentWindowMinutes: 10,
  /** The client's name, kept on their device once given. */
  nameStorageKey: "review-author-name",
} as const;

export type ReviewExpiryDays = (typeof REVIEW.expiryDays)[number];

/** A picture's state under a link: no decision yet, or its latest decision. */
export const REVIEW_STATES = ["awaiting", "approved", "changes-requested"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
export type ReviewDecisionState = Exclude<ReviewState, "awaiting">;

/** Tokens are 24 characters of lower-case base32 (120 random bits). */
export const REVIEW_TOKEN_PATTERN = /^[a-z2-7]{24}$/;

export const REVIEW_ROUTES = {
  page: (token: string) => `/review/${token}`,
  /**
   * The pictures, served under the link's token; `state` changes the address when the watermark may
   * change, and the page adds `&lang=` (the watermark's word in the client's language).
   */
  picture: (token: string, jobId: string, side: "before" | "after", state?: ReviewState) =>
    `/files/review/${token}/${encodeURIComponent(jobId)}/${side}${state ? `?state=${state}` : ""}`,
} as const;

const id = z.string().min(1).max(64);
const token = z.string().min(1).max(64);

export const reviewAuthorSchema = z
  .string()
  .trim()
  .min(1, { error: MESSAGES.reviewNameMissing })
  .max(REVIEW.authorNameMax, { error: MESSAGES.reviewNameTooLong });

export const reviewCommentTextSchema = z
  .string()
  .trim()
  .min(1, { error: MESSAGES.reviewCommentEmpty })
  .max(REVIEW.commentMax, { error: MESSAGES.reviewCommentTooLong });

export const reviewCreateInputSchema = z.object({
  projectId: id,
  expiresInDays: z.literal(REVIEW.expiryDays).default(REVIEW.defaultExpiryDays),
  /** Null or absent: every finished picture of the project, now and later. */
  jobIds: z.array(id).min(1).max(200).nullable().optional(),
  watermark: z.boolean().default(false),
  label: z.string().trim().max(REVIEW.labelMax, { error: MESSAGES.reviewLabelTooLong }).optional(),
});
export type ReviewCreateInput = z.input<typeof reviewCreateInputSchema>;

export const reviewCommentInputSchema = z.object({ token, jobId: id, author: reviewAuthorSchema, text: reviewCommentTextSchema });
export const reviewDecisionInputSchema = z.object({
  token,
  jobId: id,
  author: reviewAuthorSchema,
  state: z.enum(["approved", "changes-requested"]),
});

export interface ReviewComment {
  id: number;
  author: string;
  /** Plain text as the client wrote it: shown escaped, never as HTML. */
  text: string;
  at: number;
}

export interface ReviewDecision {
  id: number;
  state: ReviewDecisionState;
  author: string;
  at: number;
}

/** A picture as the client's page shows it. */
export interface ReviewPagePicture {
  jobId: string;
  style: string | null;
  kind: string;
  width: number | null;
  height: number | null;
  before: string;
  after: string;
  state: ReviewState;
  comments: ReviewComment[];
  decisions: ReviewDecision[];
  /** Measures marked on the picture's photo in the studio, read-only (null: none). */
  measures: PhotoMeasures | null;
  /** The exact paint colour of a painted picture (issue 33); null for other pictures. */
  paint: { colour: string; surface: PaintSurface } | null;
}

export interface ReviewPageView {
  title: string;
  expiresAt: number;
  watermark: boolean;
  pictures: ReviewPagePicture[];
  /** Lengths measured in AR in the project's rooms (decision 092), read-only; empty: none. */
  roomMeasures: ArMeasureView[];
  /** The paint colours of the link's pictures, each once ("Walls: #e8e2d6"); empty: none painted. */
  colours: Array<{ colour: string; surface: PaintSurface }>;
}

/** A link as the studio's panel shows it (the token is shown once, when the link is made). */
export interface ReviewLinkView {
  id: string;
  label: string | null;
  createdAt: number;
  createdBy: string | null;
  expiresAt: number;
  revokedAt: number | null;
  /** Neither revoked nor expired. */
  active: boolean;
  watermark: boolean;
  /** Null: every finished picture of the project. */
  jobIds: string[] | null;
  pictures: Array<{ jobId: string; state: ReviewState; comments: ReviewComment[]; decisions: ReviewDecision[] }>;
}

/** What the studio's panel hears live, as it happens. */
export type ReviewEvent =
  | { type: "comment"; linkId: string; jobId: string; comment: ReviewComment }
  | { type: "decision"; linkId: string; jobId: string; decision: ReviewDecision };

/** The state a picture's decisions give it: the latest one, or awaiting review. */
export function reviewStateOf(decisions: readonly ReviewDecision[]): ReviewState {
  return decisions.at(-1)?.state ?? "awaiting";
}
