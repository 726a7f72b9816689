/**
 * What client review links (src/server/review, decision 073) need of a project's renders: its
 * finished pictures, each with the stored "before" (the engine's input) and the medium-size
 * result. The review module has checked who made the link and which project it shows; this reads
 * by project, whoever of the project's members made each render.
 */
import type { StyleKey } from "../../../shared/custom-styles";
import type { JobKind } from "../../../shared/edits";
import type { PaintSurface } from "../../../shared/paint";
import type { RenderContext } from "../context";
import { styleNameOf, styleOf } from "../views";

export interface ReviewPicture {
  jobId: string;
  kind: JobKind;
  /** Null for an edit made from the photo itself. */
  style: StyleKey | null;
  /** A custom style's name as the render used it (null: a built-in style). */
  styleName: string | null;
  /** Storage keys (bucket UPLOAD_BUCKET). */
  beforeKey: string;
  afterKey: string;
  width: number | null;
  height: number | null;
  createdAt: number;
  /** The photo it was made from, with its size (measures marked on the photo are fractions of it). */
  photo: { uploadId: string; width: number; height: number } | null;
  /** A paint edit's colour and surface (issue 33); null for other pictures. */
  paint: { colour: string; surface: PaintSurface } | null;
}

/** The project's succeeded renders and edits with both pictures stored, oldest first (of `jobIds` only, when given). */
export async function reviewPictures(
  deps: Pick<RenderContext, "db">,
  projectId: string,
  jobIds?: readonly string[],
): Promise<ReviewPicture[]> {
  if (jobIds && jobIds.length === 0) return [];
  let query = deps.db
    .selectFrom("render_jobs")
    .leftJoin("render_edits", "render_edits.job_id", "render_jobs.id")
    .select([
      "render_jobs.id",
      "render_jobs.upload_id",
      "render_jobs.kind",
      "render_jobs.style",
      "render_jobs.style_snapshot",
      "render_jobs.input_key",
      "render_jobs.medium_key",
      "render_jobs.result_width",
      "render_jobs.result_height",
      "render_jobs.created_at",
      "render_edits.paint_colour",
      "render_edits.paint_surface",
    ])
    .where("render_jobs.project_id", "=", projectId)
    .where("render_jobs.status", "=", "succeeded");
  if (jobIds) query = query.where("render_jobs.id", "in", [...jobIds]);
  const rows = await query.orderBy("render_jobs.created_at", "asc").orderBy("render_jobs.id", "asc").execute();
  const uploadIds = [...new Set(rows.map((row) => row.upload_id))];
  const photos = new Map(
    uploadIds.length === 0
      ? []
      : (await deps.db.selectFrom("uploads").select(["id", "width", "height"]).where("id", "in", uploadIds).execute()).map((upload) => [
          upload.id,
          { uploadId: upload.id, width: upload.width, height: upload.height },
        ]),
  );
  return rows.flatMap((row) =>
    row.input_key && row.medium_key
      ? [
          {
            jobId: row.id,
            kind: row.kind,
            style: styleOf(row.style),
            styleName: styleNameOf(row),
            beforeKey: row.input_key,
            afterKey: row.medium_key,
            width: row.result_width,
            height: row.result_height,
            createdAt: row.created_at,
            photo: photos.get(row.upload_id) ?? null,
            paint: row.paint_colour && row.paint_surface ? { colour: row.paint_colour, surface: row.paint_surface } : null,
          },
        ]
      : [],
  );
}
