/**
 * Projects and the user's own data: deleting a project removes its uploads and renders with their
 * files; "delete all my images" does the same for everything the user uploaded or rendered.
 * The credit ledger keeps its rows (it explains the balance), without the pictures.
 */
import { isFinalStatus } from "../../shared/render";
import type { AppDeps } from "../deps";
import { deleteJobRows, markCanceled, removeJobFiles } from "./render-jobs";
import { removeUploadFiles } from "./uploads";

type Deps = Pick<AppDeps, "db" | "storage" | "log" | "renderWorker" | "renderEvents" | "clock">;

/** Deletes uploads and jobs matching the filter (rows first, then files, so nothing serves a half-deleted picture). */
async function deleteImages(
  deps: Deps,
  filter: { userId: string; projectId?: string },
): Promise<{ deletedRenders: number; deletedUploads: number }> {
  let jobsQuery = deps.db.selectFrom("render_jobs").selectAll().where("user_id", "=", filter.userId);
  let uploadsQuery = deps.db.selectFrom("uploads").selectAll().where("user_id", "=", filter.userId);
  if (filter.projectId) {
    jobsQuery = jobsQuery.where("project_id", "=", filter.projectId);
    uploadsQuery = uploadsQuery.where("project_id", "=", filter.projectId);
  }
  const jobs = await jobsQuery.execute();
  const uploads = await uploadsQuery.execute();
  const uploadIds = uploads.map((upload) => upload.id);
  // Jobs of these uploads filed elsewhere (moved to another project) go with their picture.
  const dependent = uploadIds.length
    ? await deps.db.selectFrom("render_jobs").selectAll().where("upload_id", "in", uploadIds).execute()
    : [];
  const allJobs = [...new Map([...jobs, ...dependent].map((job) => [job.id, job])).values()];
  // Unfinished renders are canceled and refunded first; a running one would write files after they are gone.
  for (const job of allJobs.filter((row) => !isFinalStatus(row.status))) {
    deps.renderWorker.abort(job.id);
    await markCanceled(deps, job.id, ["queued", "preprocessing", "rendering", "saving"], deps.clock.now());
  }
  await deps.db.transaction().execute(async (trx) => {
    await deleteJobRows(
      trx,
      allJobs.map((job) => job.id),
    );
    if (uploadIds.length) await trx.deleteFrom("uploads").where("id", "in", uploadIds).execute();
    if (filter.projectId)
      await trx.deleteFrom("projects").where("id", "=", filter.projectId).where("user_id", "=", filter.userId).execute();
  });
  await removeJobFiles(deps, allJobs);
  await removeUploadFiles(deps, uploads);
  return { deletedRenders: allJobs.length, deletedUploads: uploads.length };
}

export function deleteProject(deps: Deps, userId: string, projectId: string) {
  return deleteImages(deps, { userId, projectId });
}

export function deleteAllImages(deps: Deps, userId: string) {
  return deleteImages(deps, { userId });
}
