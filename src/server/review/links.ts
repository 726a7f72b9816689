/**
 * Review links: made from a project the caller can see (the projects service answers that), for
 * every finished picture of the project or chosen ones, expiring after a chosen number of days,
 * revocable. Only a SHA-256 of the token is stored: the link's address is shown once, when made.
 * A revoked or expired link is as if it never existed (404).
 */
import { UPLOAD_BUCKET, type Language } from "../../shared/constants";
import {
  REVIEW_ROUTES,
  REVIEW_TOKEN_PATTERN,
  reviewStateOf,
  type ReviewComment,
  type ReviewDecision,
  type ReviewLinkView,
  type ReviewPageView,
} from "../../shared/review";
import { generateSecureRandomString, hashSecret } from "../auth/tokens";
import type { ReviewLinksTable } from "../db/schema";
import { DomainError, notFound } from "../errors";
import type { Selectable } from "kysely";
import type { ReviewContext } from "./context";
import { DRAFT_WORD, watermarked } from "./watermark";

export type ReviewLinkRow = Selectable<ReviewLinksTable>;

const DAY_MS = 86_400_000;

export interface CreateLinkInput {
  projectId: string;
  expiresInDays: number;
  jobIds?: string[] | null;
  watermark: boolean;
  label?: string;
}

export async function createLink(deps: ReviewContext, userId: string, input: CreateLinkInput, language: Language) {
  const { project, renders } = await deps.projects.get(userId, input.projectId);
  let jobIds: string[] | null = null;
  if (input.jobIds) {
    jobIds = [...new Set(input.jobIds)];
    const finished = new Set(renders.filter((job) => job.status === "succeeded").map((job) => job.id));
    if (jobIds.some((jobId) => !finished.has(jobId))) throw new DomainError("invalid", "reviewPicturesNotInProject");
  }
  const pictures = await deps.render.reviewPictures(project.id, jobIds ?? undefined);
  if (pictures.length === 0) throw new DomainError("conflict", "reviewNoPictures");
  const token = generateSecureRandomString();
  const now = deps.clock.now();
  const row = await deps.db
    .insertInto("review_links")
    .values({
      id: generateSecureRandomString(),
      token_hash: hashSecret(token),
      project_id: project.id,
      team_id: project.teamId ?? null,
      created_by: userId,
      label: input.label || null,
      project_name: project.name,
      job_ids: jobIds ? JSON.stringify(jobIds) : null,
      watermark: input.watermark ? 1 : 0,
      language,
      expires_at: now + input.expiresInDays * DAY_MS,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const [view] = await linkViews(deps, [row]);
  return { link: view!, token, path: REVIEW_ROUTES.page(token) };
}

const isActive = (row: ReviewLinkRow, now: number) => row.revoked_at === null && row.expires_at > now;
const jobIdsOf = (row: ReviewLinkRow): string[] | null => (row.job_ids ? (JSON.parse(row.job_ids) as string[]) : null);

/** The link of this token while it works; null when there is none, or it was revoked or has expired. */
export async function liveLink(deps: Pick<ReviewContext, "db" | "clock">, token: string): Promise<ReviewLinkRow | null> {
  if (!REVIEW_TOKEN_PATTERN.test(token)) return null;
  const row = await deps.db.selectFrom("review_links").selectAll().where("token_hash", "=", hashSecret(token)).executeTakeFirst();
  return row && isActive(row, deps.clock.now()) ? row : null;
}

export async function requireLiveLink(deps: Pick<ReviewContext, "db" | "clock">, token: string): Promise<ReviewLinkRow> {
  const row = await liveLink(deps, token);
  if (!row) throw notFound();
  return row;
}

/** Comments and decisions of these links, by link and picture, oldest first. */
async function feedbackOf(deps: ReviewContext, linkIds: string[]) {
  const byPicture = new Map<string, { comments: ReviewComment[]; decisions: ReviewDecision[] }>();
  if (linkIds.length === 0) return byPicture;
  const entry = (linkId: string, jobId: string) => {
    const key = `${linkId}/${jobId}`;
    let found = byPicture.get(key);
    if (!found) byPicture.set(key, (found = { comments: [], decisions: [] }));
    return found;
  };
  const [comments, decisions] = await Promise.all([
    deps.db.selectFrom("review_comments").selectAll().where("link_id", "in", linkIds).orderBy("id", "asc").execute(),
    deps.db.selectFrom("review_decisions").selectAll().where("link_id", "in", linkIds).orderBy("id", "asc").execute(),
  ]);
  for (const row of comments) {
    entry(row.link_id, row.job_id).comments.push({ id: row.id, author: row.author_name, text: row.text, at: row.created_at });
  }
  for (const row of decisions) {
    entry(row.link_id, row.job_id).decisions.push({ id: row.id, state: row.state, author: row.author_name, at: row.created_at });
  }
  return byPicture;
}

async function linkViews(deps: ReviewContext, rows: ReviewLinkRow[]): Promise<ReviewLinkView[]> {
  const feedback = await feedbackOf(
    deps,
    rows.map((row) => row.id),
  );
  const names = await deps.people.people(rows.flatMap((row) => (row.created_by ? [row.created_by] : [])));
  const now = deps.clock.now();
  const views: ReviewLinkView[] = [];
  for (const row of rows) {
    const jobIds = jobIdsOf(row);
    const pictures = await deps.render.reviewPictures(row.project_id, jobIds ?? undefined);
    views.push({
      id: row.id,
      label: row.label,
      createdAt: row.created_at,
      createdBy: row.created_by ? (names.get(row.created_by)?.name ?? null) : null,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      active: isActive(row, now),
      watermark: row.watermark === 1,
      jobIds,
      pictures: pictures.map((picture) => {
        const found = feedback.get(`${row.id}/${picture.jobId}`) ?? { comments: [], decisions: [] };
        return { jobId: picture.jobId, state: reviewStateOf(found.decisions), ...found };
      }),
    });
  }
  return views;
}

/** The project's links, newest first, with each picture's state, comments and decisions. */
export async function projectLinks(deps: ReviewContext, userId: string, projectId: string): Promise<ReviewLinkView[]> {
  const { project } = await deps.projects.get(userId, projectId);
  const rows = await deps.db
    .selectFrom("review_links")
    .selectAll()
    .where("project_id", "=", project.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return linkViews(deps, rows);
}

export async function revokeLink(deps: ReviewContext, userId: string, linkId: string): Promise<void> {
  const row = await deps.db.selectFrom("review_links").select(["id", "project_id"]).where("id", "=", linkId).executeTakeFirst();
  if (!row) throw notFound();
  await deps.projects.get(userId, row.project_id);
  await deps.db
    .updateTable("review_links")
    .set({ revoked_at: deps.clock.now() })
    .where("id", "=", row.id)
    .where("revoked_at", "is", null)
    .execute();
}

/** The client's page: the link's pictures with their state, comments and decisions. */
export async function reviewPage(deps: ReviewContext, token: string): Promise<ReviewPageView> {
  const row = await requireLiveLink(deps, token);
  const [view] = await linkViews(deps, [row]);
  const pictures = await deps.render.reviewPictures(row.project_id, jobIdsOf(row) ?? undefined);
  const byJob = new Map(view!.pictures.map((picture) => [picture.jobId, picture]));
  // Measures marked on the pictures' photos, shown read-only (those with a reference and at least one measure).
  const [measured, roomMeasures] = await Promise.all([
    deps.measures.ofPhotos(pictures.flatMap((picture) => (picture.photo ? [picture.photo] : []))),
    // Lengths measured in AR in the project's rooms (decision 092).
    deps.measures.arOf(row.project_id),
  ]);
  const measuresOf = new Map(
    measured.filter((photo) => photo.reference && photo.measures.length > 0).map((photo) => [photo.uploadId, photo]),
  );
  return {
    title: row.label ?? row.project_name,
    expiresAt: row.expires_at,
    watermark: row.watermark === 1,
    pictures: pictures.map((picture) => {
      const feedback = byJob.get(picture.jobId)!;
      return {
        jobId: picture.jobId,
        style: picture.style,
        kind: picture.kind,
        width: picture.width,
        height: picture.height,
        before: REVIEW_ROUTES.picture(token, picture.jobId, "before"),
        after: REVIEW_ROUTES.picture(token, picture.jobId, "after", feedback.state),
        state: feedback.state,
        comments: feedback.comments,
        decisions: feedback.decisions,
        measures: (picture.photo && measuresOf.get(picture.photo.uploadId)) || null,
        paint: picture.paint,
      };
    }),
    roomMeasures,
    // The colours the shown pictures were painted in, each once, newest first.
    colours: [
      ...new Map(
        pictures
          .toReversed()
          .flatMap((picture) => (picture.paint ? [[`${picture.paint.surface} ${picture.paint.colour}`, picture.paint] as const] : [])),
      ).values(),
    ],
  };
}

/** A picture of the link that is still shown (chosen, finished, not deleted); null otherwise. */
export async function pictureOfLink(deps: ReviewContext, row: ReviewLinkRow, jobId: string) {
  const chosen = jobIdsOf(row);
  if (chosen && !chosen.includes(jobId)) return null;
  const [picture] = await deps.render.reviewPictures(row.project_id, [jobId]);
  return picture ?? null;
}

/**
 * A picture's file under a live link: the "before", or the medium-size "after", which carries the
 * "Draft" watermark while it is not approved when the link asks for it. Null: 404.
 */
export async function pictureFile(
  deps: ReviewContext,
  token: string,
  jobId: string,
  side: string,
  language: Language,
): Promise<Buffer | null> {
  if (side !== "before" && side !== "after") return null;
  const row = await liveLink(deps, token);
  const picture = row ? await pictureOfLink(deps, row, jobId) : null;
  if (!row || !picture) return null;
  const stored = await deps.storage.get(UPLOAD_BUCKET, side === "before" ? picture.beforeKey : picture.afterKey);
  if (!stored) return null;
  if (side === "before" || row.watermark !== 1) return stored.data;
  const latest = await deps.db
    .selectFrom("review_decisions")
    .select("state")
    .where("link_id", "=", row.id)
    .where("job_id", "=", jobId)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return latest?.state === "approved" ? stored.data : watermarked(stored.data, DRAFT_WORD[language]);
}
