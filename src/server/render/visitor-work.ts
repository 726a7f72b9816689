/**
 * A visitor's work follows them into their account: when a browser that made a free demo render
 * signs in, its uploads and renders (and their event history) become the user's, filed in the
 * user's latest project. Visitors' work nobody claims is removed after RENDER.visitorWorkDays.
 */
import { UPLOAD_BUCKET, type Language } from "../../shared/constants";
import { RENDER } from "../../shared/render";
import type { RenderContext } from "./context";
import { ownerKey, userOwner, visitorOwner } from "./owner";
import { deleteJobRows, removeJobFiles } from "./queue";
import { removeUploadFiles } from "./uploads";

export async function adoptVisitorWork(
  deps: Pick<RenderContext, "db" | "projects">,
  visitorId: string,
  userId: string,
  language: Language,
): Promise<number> {
  const uploads = await deps.db.selectFrom("uploads").select("id").where("visitor_id", "=", visitorId).execute();
  if (uploads.length === 0) return 0;
  const projectId = await deps.projects.projectForUpload(userId, undefined, language);
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
  if (uploads.length === 0) return 0;
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
  if (expired.length)
    deps.log.info("removed visitors' demo pictures nobody claimed", {
      uploads: expired.length,
      renders: expiredJobs.length,
      bucket: UPLOAD_BUCKET,
    });
  return expired.length;
}
