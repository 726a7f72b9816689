/**
 * Removing a user's pictures: the uploads and renders of one project, or all of them ("delete
 * all my images", account deletion). Rows go first, then files, so nothing serves a half-deleted
 * picture. The credit ledger keeps its rows (it explains the balance), without the pictures.
 */
import { isFinalStatus } from "../../../shared/render";
import type { RenderContext } from "../context";
import { deleteJobRows, removeJobFiles, removeUploadFiles, RUNNING } from "../records";
import { markCanceled } from "./queue";

/**
 * Which pictures: a user's personal ones (all, or one personal project's); every picture of one
 * project, whoever made it (a team project); or every picture of a team (the team is deleted).
 * A user's pictures in a team stay the team's (decision 070).
 */
export type ImagesToDelete = { userId: string; projectId?: string } | { projectId: string; userId?: undefined } | { teamId: string };

export async function deleteUserImages(
  deps: RenderContext,
  filter: ImagesToDelete,
): Promise<{ deletedRenders: number; deletedUploads: number }> {
  let jobsQuery = deps.db.selectFrom("render_jobs").selectAll();
  let uploadsQuery = deps.db.selectFrom("uploads").selectAll();
  if ("teamId" in filter) {
    jobsQuery = jobsQuery.where("team_id", "=", filter.teamId);
    uploadsQuery = uploadsQuery.where("team_id", "=", filter.teamId);
  } else {
    if (filter.userId !== undefined) {
      jobsQuery = jobsQuery.where("user_id", "=", filter.userId).where("team_id", "is", null);
      uploadsQuery = uploadsQuery.where("user_id", "=", filter.userId).where("team_id", "is", null);
    }
    if (filter.projectId) {
      jobsQuery = jobsQuery.where("project_id", "=", filter.projectId);
      uploadsQuery = uploadsQuery.where("project_id", "=", filter.projectId);
    }
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

/** Files a personal project's pictures (uploads, renders, edits) in a team: they become the team's. */
export async function movePicturesToTeam(deps: Pick<RenderContext, "db" | "clock">, projectId: string, teamId: string): Promise<number> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const uploads = await trx.updateTable("uploads").set({ team_id: teamId }).where("project_id", "=", projectId).executeTakeFirst();
    // Renders filed in the project, and every render of its photos (filed elsewhere or not).
    await trx
      .updateTable("render_jobs")
      .set({ team_id: teamId, updated_at: now })
      .where((eb) =>
        eb.or([
          eb("project_id", "=", projectId),
          eb("upload_id", "in", eb.selectFrom("uploads").select("id").where("project_id", "=", projectId)),
        ]),
      )
      .execute();
    return Number(uploads.numUpdatedRows);
  });
}

/**
 * A deleted account's pictures in a team stay the team's (decision 070): they pass to `toUserId`
 * (the team's Owner), since a row needs an author and the account is gone.
 */
export async function handOverTeamPictures(
  deps: Pick<RenderContext, "db">,
  fromUserId: string,
  teamId: string,
  toUserId: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable("uploads").set({ user_id: toUserId }).where("user_id", "=", fromUserId).where("team_id", "=", teamId).execute();
    await trx
      .updateTable("render_jobs")
      .set({ user_id: toUserId })
      .where("user_id", "=", fromUserId)
      .where("team_id", "=", teamId)
      .execute();
  });
}
