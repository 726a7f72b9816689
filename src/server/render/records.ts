/**
 * The rows and files of uploads and render jobs as every part of the render module finds and
 * removes them: the one place that knows a job's files and which states count as running.
 */
import type { Transaction } from "kysely";
import { UPLOAD_BUCKET } from "../../shared/constants";
import type { JobStatus } from "../../shared/render";
import type { AppDatabase } from "../db/client";
import type { Database, RenderJob, Upload } from "../db/schema";
import { notFound } from "../errors";
import type { RenderContext } from "./context";
import { editMaskKey, styleReferenceKey } from "./links";
import { isCustomStyleKey } from "../../shared/custom-styles";
import { mayUse, type Owner } from "./owner";

type Db = AppDatabase | Transaction<Database>;

export const RUNNING: readonly JobStatus[] = ["preprocessing", "rendering", "saving"];

export async function findOwnedJob(deps: Pick<RenderContext, "db" | "teams">, owner: Owner, jobId: string): Promise<RenderJob> {
  const job = await deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
  if (!job || !(await mayUse(deps, owner, job))) throw notFound();
  return job;
}

export async function deleteJobRows(db: Db, jobIds: string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await db.deleteFrom("render_events").where("job_id", "in", jobIds).execute();
  await db.deleteFrom("render_jobs").where("id", "in", jobIds).execute();
}

export async function removeJobFiles(
  deps: Pick<RenderContext, "storage" | "log">,
  jobs: Array<
    Pick<RenderJob, "id" | "kind" | "style" | "input_key" | "result_key" | "medium_key" | "thumb_key" | "high_key" | "upscaled_key">
  >,
): Promise<void> {
  for (const job of jobs) {
    const mask = job.kind === "edit" ? editMaskKey(job.id) : null;
    // A render in a custom style may keep the style's reference picture for its engine (decision 103).
    const styleReference = job.kind === "render" && isCustomStyleKey(job.style) ? styleReferenceKey(job.id) : null;
    for (const key of [
      job.input_key,
      job.result_key,
      job.medium_key,
      job.thumb_key,
      job.high_key,
      job.upscaled_key,
      mask,
      styleReference,
    ]) {
      if (key)
        await deps.storage
          .remove(UPLOAD_BUCKET, key)
          .catch((error: unknown) => deps.log.warn("could not remove a stored file", { key, error }));
    }
  }
}

export async function removeUploadFiles(
  deps: Pick<RenderContext, "storage" | "log">,
  uploads: Array<Pick<Upload, "original_key" | "thumb_key">>,
): Promise<void> {
  for (const upload of uploads) {
    for (const key of [upload.original_key, upload.thumb_key]) {
      await deps.storage
        .remove(UPLOAD_BUCKET, key)
        .catch((error: unknown) => deps.log.warn("could not remove a stored file", { key, error }));
    }
  }
}
