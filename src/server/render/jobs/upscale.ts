/**
 * The optional AI upscale of a finished render to the photo's size, with the engine's upscaler
 * (capabilities.upscale). Made once on request and kept, recorded as an upscale (its model and
 * size), never passed off as the original resolution.
 */
import { sql } from "kysely";
import { UPLOAD_BUCKET } from "../../../shared/constants";
import { DomainError } from "../../errors";
import { EXTENSIONS, MIME_TYPES } from "../../images/variants";
import type { RenderContext } from "../context";
import type { Owner } from "../owner";
import { ensureStorageLeft } from "../intake";
import { PermanentRenderError, RetryableRenderError, type RenderProvider } from "../engines";
import { findOwnedJob } from "../records";
import sharp from "sharp";

/** Upscales in progress, by job: a second click waits for the first instead of paying twice. */
const running = new Map<string, Promise<{ width: number; height: number }>>();

export async function upscaleJob(
  deps: RenderContext,
  provider: RenderProvider,
  owner: Owner,
  jobId: string,
): Promise<{ width: number; height: number }> {
  const job = await findOwnedJob(deps, owner, jobId);
  if (job.status !== "succeeded" || !job.result_key || !job.result_width || !job.result_height)
    throw new DomainError("conflict", "renderNotFinished");
  if (job.upscaled_key && job.upscaled_width && job.upscaled_height) return { width: job.upscaled_width, height: job.upscaled_height };
  if (!provider.capabilities.upscale || !provider.upscale) throw new DomainError("invalid", "engineCannot");
  const upload = await deps.db.selectFrom("uploads").select(["width", "height"]).where("id", "=", job.upload_id).executeTakeFirst();
  if (!upload || (job.result_width >= upload.width && job.result_height >= upload.height))
    throw new DomainError("conflict", "upscaleNotNeeded");
  await deps.diskFloor.ensureRoom();
  if (owner.userId !== null) await ensureStorageLeft(deps, owner.userId);
  const upscale = provider.upscale.bind(provider);
  const { result_key: resultKey, result_width: width, result_height: height } = job;

  const existing = running.get(job.id);
  if (existing) return existing;
  const work = (async () => {
    const stored = await deps.storage.get(UPLOAD_BUCKET, resultKey);
    if (!stored) throw new DomainError("not-found", "notFound");
    let result;
    try {
      result = await upscale({
        image: stored.data,
        width,
        height,
        targetWidth: upload.width,
        targetHeight: upload.height,
        signal: AbortSignal.timeout(deps.env.RENDER_DEADLINE_MS),
      });
    } catch (error) {
      if (
        error instanceof PermanentRenderError ||
        error instanceof RetryableRenderError ||
        (error instanceof Error && error.name === "TimeoutError")
      ) {
        deps.log.warn("upscale failed", { jobId, error });
        // The engine refused or failed (a model file missing on the box, say): its words, since trying again will not help.
        if (error instanceof PermanentRenderError) {
          throw new DomainError("unavailable", "upscaleEngineStopped", { cause: error, params: { detail: error.message } });
        }
        throw new DomainError("unavailable", "upscaleFailed", { cause: error });
      }
      throw error;
    }
    const metadata = await sharp(result.image).metadata();
    const format = metadata.format === "png" || metadata.format === "webp" ? metadata.format : "jpeg";
    if (!metadata.width || !metadata.height) throw new DomainError("unavailable", "upscaleFailed");
    const key = `renders/${jobId}/upscaled.${EXTENSIONS[format]}`;
    // Checked again: the engine may have taken minutes, and others wrote meanwhile.
    await deps.diskFloor.ensureRoom();
    await deps.storage.put(UPLOAD_BUCKET, key, result.image, MIME_TYPES[format]);
    const updated = await deps.db
      .updateTable("render_jobs")
      .set({
        upscaled_key: key,
        upscaled_width: metadata.width,
        upscaled_height: metadata.height,
        upscale_model: result.model,
        upscale_provider: provider.id,
        stored_bytes: sql`stored_bytes + ${result.image.length}`,
        updated_at: deps.clock.now(),
      })
      .where("id", "=", jobId)
      .executeTakeFirst();
    // Deleted while upscaling: the file belongs to nobody.
    if (Number(updated.numUpdatedRows) === 0) await deps.storage.remove(UPLOAD_BUCKET, key);
    return { width: metadata.width, height: metadata.height };
  })();
  running.set(job.id, work);
  try {
    return await work;
  } finally {
    running.delete(job.id);
  }
}
