/**
 * A visitor's work follows them into their account: when a browser that made a free demo render
 * signs in, its uploads and renders (and their event history) become the user's, filed in the
 * user's latest project. Visitors' work nobody claims is removed after RENDER.visitorWorkDays.
 */
import { UPLOAD_BUCKET, type Language } from "../../../shared/constants";
import { RENDER } from "../../../shared/render";
import type { Upload } from "../../db/schema";
import type { RenderContext } from "../context";
import { ownerKey, userOwner, visitorOwner } from "../owner";
import { deleteJobRows, removeJobFiles, removeUploadFiles } from "../records";

export async function adoptVisitorWork(
  deps: Pick<RenderContext, "db" | "projects">,
  visitorId: string,
  userId: string,
  language: Language,
): Promise<number> {
  const uploads = await deps.db.selectFrom("uploads").select("id").where("visitor_id", "=", visitorId).execute();
  if (uploads.length === 0) return 0;
  // Into the user's personal space: a visitor's demo was never a team's.
  const projectId = (await deps.projects.projectForUpload(userId, undefined, language, null))?.id ?? null;
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("uploads")
      .set({ user_id: userId, visitor_id: null, project_id: projectId })
      .where("visitor_id", "=", visitorId)
      .execute();
    await trx
      .updateTable("render_jobs")
      .set({ user_id: userId, visitor_id: null, project_id: projectId })
      .where("visitor_id", "=", visitorId)
      .execute();
    await trx
      .updateTable("render_events")
      .set({ owner: ownerKey(userOwner(userId)) })
      .where("owner", "=", ownerKey(visitorOwner(visitorId)))
      .execute();
  });
  return uploads.length;
}

/** Removes visitors' uploads and renders older than RENDER.visitorWorkDays, with their files. */
export async function purgeExpiredVisitorWork(deps: Pick<RenderContext, "db" | "clock" | "storage" | "log">): Promise<number> {
  const before = deps.clock.now() - RENDER.visitorWorkDays * 86_400_000;
  const uploads = await deps.db
    .selectFrom("uploads")
    .selectAll()
    .where("visitor_id", "is not", null)
    .where("created_at", "<", before)
    .execute();
  const removed = await removeVisitorUploads(deps, uploads);
  if (removed.uploads) deps.log.info("removed visitors' demo pictures nobody claimed", { ...removed, bucket: UPLOAD_BUCKET });
  return removed.uploads;
}

/**
 * Makes room on a disk that runs low: visitors' unclaimed demo pictures go, oldest first, until the
 * free space is back above DISK_FREE_FLOOR_MB. True when it is (or the store cannot tell). With the
 * files in a bucket the disk measured is not theirs, and nothing is removed.
 */
export async function reclaimVisitorSpace(deps: Pick<RenderContext, "db" | "env" | "storage" | "diskFloor" | "log">): Promise<boolean> {
  let removed = { uploads: 0, renders: 0 };
  let enough = await deps.diskFloor.hasRoom();
  // Files in a bucket (decision 076): removing pictures would free nothing on the disk measured.
  if (!deps.diskFloor.coversStoredFiles) return enough;
  let before = Number.MIN_SAFE_INTEGER;
  while (!enough) {
    // One at a time, so no more goes than the floor needs; the cursor steps past one still rendering.
    const oldest = await deps.db
      .selectFrom("uploads")
      .selectAll()
      .where("visitor_id", "is not", null)
      .where("created_at", ">=", before)
      .orderBy("created_at")
      .orderBy("id")
      .limit(1)
      .execute();
    if (oldest.length === 0) break;
    const batch = await removeVisitorUploads(deps, oldest);
    removed = { uploads: removed.uploads + batch.uploads, renders: removed.renders + batch.renders };
    const last = oldest.at(-1);
    if (batch.uploads === 0 && last) before = last.created_at + 1;
    enough = await deps.diskFloor.hasRoom();
  }
  if (removed.uploads) deps.log.warn("disk space is low: removed visitors' oldest unclaimed demo pictures", removed);
  if (!enough)
    deps.log.error(
      `disk space is below DISK_FREE_FLOOR_MB (${deps.env.DISK_FREE_FLOOR_MB} MB): uploads, renders, edits, upscales, listing exports and backups are refused until there is room`,
    );
  return enough;
}

/** Removes these visitor uploads with their renders and files; one whose render is still running stays. */
async function removeVisitorUploads(
  deps: Pick<RenderContext, "db" | "storage" | "log">,
  uploads: Upload[],
): Promise<{ uploads: number; renders: number }> {
  if (uploads.length === 0) return { uploads: 0, renders: 0 };
  const uploadIds = uploads.map((upload) => upload.id);
  // Only finished renders go; a render still running is left for the next purge.
  const jobs = await deps.db.selectFrom("render_jobs").selectAll().where("upload_id", "in", uploadIds).execute();
  const busy = new Set(jobs.filter((job) => !["succeeded", "failed", "canceled"].includes(job.status)).map((job) => job.upload_id));
  const expired = uploads.filter((upload) => !busy.has(upload.id));
  const expiredJobs = jobs.filter((job) => !busy.has(job.upload_id));
  await deps.db.transaction().execute(async (trx) => {
    await deleteJobRows(
      trx,
      expiredJobs.map((job) => job.id),
    );
    if (expired.length)
      await trx
        .deleteFrom("uploads")
        .where(
          "id",
          "in",
          expired.map((upload) => upload.id),
        )
        .execute();
  });
  await removeJobFiles(deps, expiredJobs);
  await removeUploadFiles(deps, expired);
  return { uploads: expired.length, renders: expiredJobs.length };
}
