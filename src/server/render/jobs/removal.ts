/**
 * Removing a user's pictures: the uploads and renders of one project, or all of them ("delete
 * all my images", account deletion). Rows go first, then files, so nothing serves a half-deleted
 * picture. The credit ledger keeps its rows (it explains the balance), without the pictures.
 */
import { isFinalStatus } from "../../../shared/render";
import type { RenderContext } from "../context";
import { deleteJobRows, removeJobFiles, removeUploadFiles, RUNNING } from "../records";
import { markCanceled } from "./queue";

export async function deleteUserImages(
  deps: RenderContext,
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
    await markCanceled(deps, job.id, ["queued", ...RUNNING], deps.clock.now());
    deps.signals.abortRunning(job.id);
  }
  await deps.db.transaction().execute(async (trx) => {
    await deleteJobRows(
      trx,
      allJobs.map((job) => job.id),
    );
    if (uploadIds.length) await trx.deleteFrom("uploads").where("id", "in", uploadIds).execute();
  });
  await removeJobFiles(deps, allJobs);
  await removeUploadFiles(deps, uploads);
  return { deletedRenders: allJobs.length, deletedUploads: uploads.length };
}
