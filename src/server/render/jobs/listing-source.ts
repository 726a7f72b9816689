/**
 * What the listing export needs of one finished render of its owner: the stored result (the
 * largest there is), the upload's original photo, which engine and model made it, and in which
 * mode. Edits of the modification studio are render_jobs rows too, so they answer the same way.
 */
import type { StyleKey } from "../../../shared/custom-styles";
import { DomainError } from "../../errors";
import { AI_ENGINE_IDS, ENGINE_NAMES, type RenderMode } from "../../../shared/render";
import type { RenderContext } from "../context";
import type { Owner } from "../owner";
import { findOwnedJob } from "../records";
import { styleNameOf, styleOf } from "../views";
import type { JobKind } from "../../../shared/edits";

export interface ListingSource {
  jobId: string;
  projectId: string | null;
  /** The team whose render it is (null: a personal render). */
  teamId: string | null;
  /** "edit": a region repainted in the modification studio. */
  kind: JobKind;
  /** Null for an edit made from the photo itself. */
  style: StyleKey | null;
  /** A custom style's name as the render used it (null: a built-in style). */
  styleName: string | null;
  renderMode: RenderMode;
  /** Storage keys (bucket UPLOAD_BUCKET): the render's largest picture and the upload's original. */
  resultKey: string;
  originalKey: string;
  engine: { id: string; label: string; isAi: boolean };
  model: string | null;
  modelVersion: string | null;
  /** The AI upscale the result is (null: the engine's own output): its model and the engine that ran it. */
  upscale: { model: string; engine: { id: string; label: string; isAi: boolean } } | null;
  createdAt: number;
  finishedAt: number | null;
}

export async function listingSource(deps: RenderContext, owner: Owner, jobId: string, currentLabel: string): Promise<ListingSource> {
  const job = await findOwnedJob(deps, owner, jobId);
  const engineOf = (id: string) => ({
    id,
    label: id === deps.providerId ? currentLabel : (ENGINE_NAMES[id] ?? id),
    isAi: AI_ENGINE_IDS.includes(id),
  });
  const resultKey = job.upscaled_key ?? job.result_key;
  if (job.status !== "succeeded" || !resultKey) throw new DomainError("conflict", "renderNotFinished");
  const upload = await deps.db.selectFrom("uploads").select("original_key").where("id", "=", job.upload_id).executeTakeFirst();
  if (!upload) throw new DomainError("not-found", "notFound");
  return {
    jobId: job.id,
    projectId: job.project_id,
    teamId: job.team_id,
    kind: job.kind,
    style: styleOf(job.style),
    styleName: styleNameOf(job),
    renderMode: job.render_mode,
    resultKey,
    originalKey: upload.original_key,
    engine: engineOf(job.provider),
    model: job.model,
    modelVersion: job.model_version,
    upscale: job.upscaled_key ? { model: job.upscale_model ?? "", engine: engineOf(job.upscale_provider ?? job.provider) } : null,
    createdAt: job.created_at,
    finishedAt: job.finished_at,
  };
}
