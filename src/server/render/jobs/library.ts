/**
 * Reading and filing renders: the owner's jobs as views, the share link, moving a
 * render to another project, and the summaries other capabilities show (project cards, profile
 * statistics, the admin's lists). All reads of render_jobs outside the queue live here.
 */
import type { StyleKey } from "../../../shared/custom-styles";
import { sql } from "kysely";
import { UPLOAD_BUCKET } from "../../../shared/constants";
import { DomainError, notFound } from "../../errors";
import { generateSecureRandomString } from "../../auth/tokens";
import type { JobStatus } from "../../../shared/render";
import type { RoomType } from "../../../shared/styles";
import type { RenderContext } from "../context";
import { FILE_ROUTES } from "../links";
import { userOwner, type Owner } from "../owner";
import type { RenderJob } from "../../db/schema";
import { preparedQuery } from "../../db/prepared";
import { olderThan } from "../../db/sql-helpers";
import { findOwnedJob, RUNNING } from "../records";
import { queuePosition } from "./queue";
import type { StyleSnapshot } from "../../../shared/custom-styles";
import { jobView, shareUrlOf, styleNameOf, styleOf, type JobView } from "../views";
import type { JobKind } from "../../../shared/edits";
import { monthIndexOf } from "../../../shared/months";

type Deps = Pick<RenderContext, "db" | "clock" | "teams">;

/** A job's view, with its place in the queue while it waits. */
async function viewWithPosition(deps: Deps, job: RenderJob, labelOf: (providerId: string) => string): Promise<JobView> {
  return jobView(job, labelOf(job.provider), job.status === "queued" ? await queuePosition(deps.db, job) : null);
}

/** The job as its owner sees it. */
export async function ownedJobView(deps: Deps, owner: Owner, jobId: string, labelOf: (providerId: string) => string): Promise<JobView> {
  return viewWithPosition(deps, await findOwnedJob(deps, owner, jobId), labelOf);
}

/** The owner's renders, newest first (optionally of one project). */
export async function listOwnedJobs(
  deps: Deps,
  owner: Owner,
  filter: { projectId?: string; limit?: number; before?: { createdAt: number; id: string } },
  labelOf: (providerId: string) => string,
): Promise<JobView[]> {
  let query = deps.db.selectFrom("render_jobs").selectAll().orderBy("created_at", "desc").orderBy("id", "desc");
  // The space the owner works in (decision 070): a team's work, else the user's personal work, else the visitor's.
  if (owner.teamId !== null) query = query.where("team_id", "=", owner.teamId);
  else if (owner.userId !== null) query = query.where("user_id", "=", owner.userId).where("team_id", "is", null);
  else query = query.where("visitor_id", "=", owner.visitorId);
  if (filter.projectId) query = query.where("project_id", "=", filter.projectId);
  // After a page's last render (keyset pagination: stable while new renders arrive at the top).
  const before = filter.before;
  if (before) query = query.where(olderThan(before));
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  const jobs = await query.execute();
  return Promise.all(jobs.map((job) => viewWithPosition(deps, job, labelOf)));
}

/** A share link anyone may open (the public gallery is the community module's: decision 102). */
export async function setSharing(
  deps: Deps,
  owner: Owner,
  jobId: string,
  choice: { link?: boolean },
): Promise<{ shareUrl: string | null }> {
  const job = await findOwnedJob(deps, owner, jobId);
  if (job.status !== "succeeded") throw new DomainError("conflict", "renderNotFinished");
  const shareToken =
    choice.link === undefined
      ? job.share_token
      : choice.link
        ? (job.share_token ?? `${generateSecureRandomString()}${generateSecureRandomString()}`)
        : null;
  // A new link records who made it (in a team, any member may).
  const sharedBy = shareToken === null ? null : shareToken === job.share_token ? job.shared_by : owner.userId;
  await deps.db
    .updateTable("render_jobs")
    .set({ share_token: shareToken, shared_by: sharedBy, updated_at: deps.clock.now() })
    .where("id", "=", job.id)
    .execute();
  return { shareUrl: shareToken ? shareUrlOf(shareToken) : null };
}

/** What the community module needs of a render a signed-in member of its space would publish. */
export interface PublicationSource {
  jobId: string;
  /** The render's author and its team (null: a personal render). */
  userId: string | null;
  teamId: string | null;
  succeeded: boolean;
  style: string;
  styleName: string | null;
  roomType: RoomType;
}

/** A render of one of the user's spaces (any member of a team's), as the community module publishes it; 404 otherwise. */
export async function publicationSource(deps: Deps, userId: string, jobId: string): Promise<PublicationSource> {
  const job = await findOwnedJob(deps, userOwner(userId), jobId);
  return {
    jobId: job.id,
    userId: job.user_id,
    teamId: job.team_id,
    succeeded: job.status === "succeeded",
    style: job.style,
    styleName: styleNameOf(job),
    roomType: job.room_type,
  };
}

/** A finished render's photo and result (medium size), whose copies the community module makes; null when gone. */
export async function publicationPictures(
  deps: Pick<RenderContext, "db" | "storage">,
  jobId: string,
): Promise<{ before: Buffer; after: Buffer } | null> {
  const job = await deps.db
    .selectFrom("render_jobs")
    .select(["input_key", "medium_key", "result_key"])
    .where("id", "=", jobId)
    .where("status", "=", "succeeded")
    .executeTakeFirst();
  const afterKey = job?.medium_key ?? job?.result_key ?? null;
  if (!job?.input_key || !afterKey) return null;
  const [before, after] = await Promise.all([deps.storage.get(UPLOAD_BUCKET, job.input_key), deps.storage.get(UPLOAD_BUCKET, afterKey)]);
  return before && after ? { before: before.data, after: after.data } : null;
}

/** Files a render under another of the user's projects ("Save to project"). */
export async function moveToProject(
  deps: Pick<RenderContext, "db" | "clock" | "projects" | "teams">,
  userId: string,
  jobId: string,
  projectId: string,
) {
  const job = await findOwnedJob(deps, userOwner(userId), jobId);
  // Within its space: a team's render to another of the team's projects, a personal one to another of the user's.
  const target = await deps.projects.projectAccess(userId, projectId);
  if (!target || target.teamId !== job.team_id) throw notFound();
  const now = deps.clock.now();
  // The version and every edit made from it (versions stay with their project).
  const family = sql<{ id: string }>`WITH RECURSIVE family(id) AS (
      SELECT ${job.id}
      UNION SELECT render_edits.job_id FROM render_edits JOIN family ON render_edits.parent_job_id = family.id
    ) SELECT id FROM family`;
  const ids = (await family.execute(deps.db)).rows.map((row) => row.id);
  await deps.db
    .updateTable("render_jobs")
    .set({ project_id: projectId, updated_at: now })
    .where("id", "in", ids)
    .where((eb) =>
      job.team_id !== null ? eb("team_id", "=", job.team_id) : eb.and([eb("user_id", "=", userId), eb("team_id", "is", null)]),
    )
    .execute();
  await deps.projects.touch(projectId, now);
}

/** A render opened through its share link (read-only, no owner needed). */
export async function sharedRender(deps: Deps, token: string) {
  const job = await deps.db
    .selectFrom("render_jobs")
    .selectAll()
    .where("share_token", "=", token)
    .where("status", "=", "succeeded")
    .executeTakeFirst();
  if (!job) throw notFound();
  return {
    kind: job.kind,
    style: styleOf(job.style),
    roomType: job.room_type,
    before: FILE_ROUTES.shared(token, "before"),
    after: FILE_ROUTES.shared(token, "after"),
    width: job.result_width,
    height: job.result_height,
  };
}

/**
 * For project cards: how many renders each project holds, and the thumbnails of its latest four
 * succeeded ones. One statement for any number of projects (decision 044): each project's renders
 * are numbered, succeeded first and latest first, and only the first four come back, with the count.
 */
export async function projectRenderSummaries(
  deps: Deps,
  projectIds: string[],
): Promise<Map<string, { renderCount: number; thumbs: string[] }>> {
  const summaries = new Map<string, { renderCount: number; thumbs: string[] }>();
  if (projectIds.length === 0) return summaries;
  const ranked = deps.db
    .selectFrom("render_jobs")
    .select((eb) => [
      "id",
      "project_id",
      "status",
      eb.fn
        .countAll<number>()
        .over((over) => over.partitionBy("project_id"))
        .as("n"),
      sql<number>`row_number() over (partition by project_id order by status = 'succeeded' desc, finished_at desc)`.as("rank"),
    ])
    .where("project_id", "in", projectIds)
    .as("ranked");
  const rows = await deps.db.selectFrom(ranked).selectAll().where("rank", "<=", 4).orderBy("project_id").orderBy("rank").execute();
  for (const row of rows) {
    const summary = summaries.get(row.project_id!) ?? { renderCount: Number(row.n), thumbs: [] };
    if (row.status === "succeeded") summary.thumbs.push(FILE_ROUTES.render(row.id, "thumb"));
    summaries.set(row.project_id!, summary);
  }
  return summaries;
}

// Compiled once: the profile page reads them on each visit (decision 044).
const rendersByOutcome = preparedQuery((db, userId: string) =>
  db
    .selectFrom("render_jobs")
    .select((eb) => [
      eb.fn.countAll<number>().as("total"),
      eb.fn.sum<number>(eb.case().when("status", "=", "succeeded").then(1).else(0).end()).as("succeeded"),
      eb.fn.sum<number>(eb.case().when("status", "=", "failed").then(1).else(0).end()).as("failed"),
    ])
    .where("user_id", "=", userId),
);
const favouriteStyles = preparedQuery((db, userId: string) =>
  db
    .selectFrom("render_jobs")
    // A custom style's renders each keep a snapshot of it: any one of them names it (the latest change's, usually).
    .select((eb) => ["style", eb.fn.countAll<number>().as("count"), eb.fn.max("style_snapshot").as("style_snapshot")])
    .where("user_id", "=", userId)
    .where("status", "=", "succeeded")
    // An edit made from the photo itself has no style.
    .where("style", "!=", "")
    .groupBy("style")
    .orderBy("count", "desc")
    .limit(5),
);

/** For /profile: the user's renders by outcome, and the styles they used most. */
export async function userRenderStatistics(deps: Deps, userId: string) {
  const [outcomes, styles] = await Promise.all([rendersByOutcome(deps.db, userId), favouriteStyles(deps.db, userId)]);
  // An aggregate without GROUP BY always answers one row.
  const renders = outcomes[0]!;
  return {
    renders: { total: Number(renders.total), succeeded: Number(renders.succeeded ?? 0), failed: Number(renders.failed ?? 0) },
    favouriteStyles: styles.map((row) => {
      const snapshot = row.style_snapshot === null ? null : (JSON.parse(row.style_snapshot) as StyleSnapshot);
      return { style: row.style, count: Number(row.count), styleName: snapshot?.name ?? null, palette: snapshot?.palette ?? null };
    }),
  };
}

/**
 * A team's work per member and calendar month (a month index, src/shared/months.ts) since `since`: renders and
 * edits asked for (whatever became of them), for the team page's use table.
 */
export async function teamWorkByMonth(deps: Deps, teamId: string, since: number) {
  const rows = await deps.db
    .selectFrom("render_jobs")
    .select(["user_id", "kind", "created_at"])
    .where("team_id", "=", teamId)
    .where("created_at", ">=", since)
    .execute();
  const work = new Map<string, { userId: string | null; month: number; renders: number; edits: number }>();
  for (const row of rows) {
    const month = monthIndexOf(row.created_at);
    const key = `${row.user_id ?? ""}:${month}`;
    const entry = work.get(key) ?? { userId: row.user_id, month, renders: 0, edits: 0 };
    if (row.kind === "edit") entry.edits += 1;
    else entry.renders += 1;
    work.set(key, entry);
  }
  return [...work.values()];
}

/** How many renders a team's members asked for in it (the dashboard of the team's space). */
export async function teamRenderCount(deps: Deps, teamId: string): Promise<number> {
  const renders = await deps.db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("team_id", "=", teamId)
    .executeTakeFirstOrThrow();
  return Number(renders.n);
}

/** For the admin's user list: how many renders the user asked for. */
export async function userRenderCount(deps: Deps, userId: string): Promise<number> {
  const renders = await deps.db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(renders.n);
}

/** For the admin's user list: how many renders each user asked for, in one statement (users without renders are left out). */
export async function userRenderCounts(deps: Deps, userIds: readonly string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await deps.db
    .selectFrom("render_jobs")
    .select((eb) => ["user_id", eb.fn.countAll<number>().as("n")])
    .where("user_id", "in", userIds)
    .groupBy("user_id")
    .execute();
  return new Map(rows.map((row) => [row.user_id!, Number(row.n)]));
}

/** Finished renders' engine, kind, input mode and credits, for the metrics (by id). */
export async function jobFacts(deps: Deps, jobIds: readonly string[]) {
  if (jobIds.length === 0) return [];
  return deps.db
    .selectFrom("render_jobs")
    .select(["id", "provider", "kind", "mode", "credits_charged"])
    .where("id", "in", [...jobIds])
    .execute();
}

/** Jobs waiting and running now. */
export async function queueCounts(deps: Deps): Promise<{ queued: number; running: number }> {
  const queue = await deps.db
    .selectFrom("render_jobs")
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when("status", "=", "queued").then(1).else(0).end()).as("queued"),
      eb.fn.sum<number>(eb.case().when("status", "in", RUNNING).then(1).else(0).end()).as("running"),
    ])
    .executeTakeFirstOrThrow();
  return { queued: Number(queue.queued ?? 0), running: Number(queue.running ?? 0) };
}

export interface AdminJobRow {
  id: string;
  userId: string | null;
  /** Null for an edit made from the photo itself. */
  style: StyleKey | null;
  /** A custom style's name as the render used it (null: a built-in style). */
  styleName: string | null;
  kind: JobKind;
  status: JobStatus;
  provider: string;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  durationMs: number | null;
  error: string | null;
  attempts: number;
}

/** Every owner's jobs, newest first, for /admin. */
export async function listAllJobs(
  deps: Deps,
  filter: { status?: JobStatus; limit: number; offset: number },
): Promise<{ total: number; jobs: AdminJobRow[] }> {
  let query = deps.db.selectFrom("render_jobs");
  if (filter.status) query = query.where("status", "=", filter.status);
  const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await query
    .select([
      "id",
      "user_id",
      "style",
      "style_snapshot",
      "kind",
      "status",
      "provider",
      "created_at",
      "started_at",
      "finished_at",
      "error",
      "attempts",
    ])
    .orderBy("created_at", "desc")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return {
    total: Number(total.n),
    jobs: rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      style: styleOf(row.style),
      styleName: styleNameOf(row),
      kind: row.kind,
      status: row.status,
      provider: row.provider,
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      durationMs: row.started_at !== null && row.finished_at !== null ? row.finished_at - row.started_at : null,
      error: row.error,
      attempts: row.attempts,
    })),
  };
}

/** The owner of any job (admin actions); null when there is no such job. */
export async function jobOwnerOf(
  deps: Deps,
  jobId: string,
): Promise<{ user_id: string | null; visitor_id: string | null; team_id: string | null } | null> {
  return (
    (await deps.db.selectFrom("render_jobs").select(["user_id", "visitor_id", "team_id"]).where("id", "=", jobId).executeTakeFirst()) ??
    null
  );
}
