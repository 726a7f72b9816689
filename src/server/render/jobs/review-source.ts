/**
 * What client review links (src/server/review, decision 073) need of a project's renders: its
 * finished pictures, each with the stored "before" (the engine's input) and the medium-size
 * result. The review module has checked who made the link and which project it shows; this reads
 * by project, whoever of the project's members made each render.
 */
import type { StyleKey } from "../../../shared/custom-styles";
import type { JobKind } from "../../../shared/edits";
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
    .select([
      "id",
      "upload_id",
      "kind",
      "style",
      "style_snapshot",
      "input_key",
      "medium_key",
      "result_width",
      "result_height",
      "created_at",
    ])
    .where("project_id", "=", projectId)
    .where("status", "=", "succeeded");
  if (jobIds) query = query.where("id", "in", [...jobIds]);
  const rows = await query.orderBy("created_at", "asc").orderBy("id", "asc").execute();
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
          },
        ]
      : [],
  );
}
