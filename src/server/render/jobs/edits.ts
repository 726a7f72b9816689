/**
 * The modification studio's edits and versions. An edit is a render job of kind "edit": it repaints
 * the painted region of one version of a photo (the photo itself, a render of it, or an earlier
 * edit) with an instruction, for one credit, through the same queue, events, cancel and refund as a
 * render. Its render_edits row links it to the version it was made from, so the versions of a photo
 * form a tree: the photo, its renders under it, and edits under whatever they were made from.
 */
import type { StyleKey } from "../../../shared/custom-styles";
import { CREDITS, UPLOAD_BUCKET } from "../../../shared/constants";
import { AI_ENGINE_IDS } from "../../../shared/render";
import {
  EDIT,
  studioPictureSize,
  type EditPreset,
  type EditRequestInput,
  type PaintColourNote,
  type PaintRequestInput,
  type VersionNode,
  type VersionTree,
} from "../../../shared/edits";
import type { PaintSurface } from "../../../shared/paint";
import { generateSecureRandomString } from "../../auth/tokens";
import type { RenderJob, Upload } from "../../db/schema";
import { DomainError, notFound } from "../../errors";
import { checkMask, pngFromDataUrl } from "../../images/mask";
import type { RenderContext } from "../context";
import { recordRenderEvent } from "../live";
import { ensureStorageLeft, findOwnedUpload } from "../intake";
import { editMaskKey, FILE_ROUTES } from "../links";
import { mayUse, ownerColumns, ownsRow, rowKey, type Owner } from "../owner";
import { findOwnedJob } from "../records";
import { keepsFreeCredits, lockVersionNumbering, nextVersionNumber, payerFor, queuePosition } from "./queue";
import { styleNameOf, styleOf } from "../views";
import { currentRequestId } from "../../logger";

/** A version an edit can start from: the photo (no parent job) or a finished job of the same photo. */
interface EditSource {
  upload: Upload;
  parent: RenderJob | null;
  /** The picture as the studio shows and masks it. */
  width: number;
  height: number;
}

async function editSource(deps: RenderContext, owner: Owner, input: { sourceJobId?: string; uploadId?: string }): Promise<EditSource> {
  if (input.sourceJobId !== undefined) {
    const parent = await findOwnedJob(deps, owner, input.sourceJobId);
    if (parent.status !== "succeeded" || !parent.result_width || !parent.result_height) {
      throw new DomainError("conflict", "renderNotFinished");
    }
    const upload = await findOwnedUpload(deps, owner, parent.upload_id);
    return { upload, parent, ...studioPictureSize(parent.result_width, parent.result_height) };
  }
  if (input.uploadId === undefined) throw new DomainError("invalid", "missingRequiredFields");
  const upload = await findOwnedUpload(deps, owner, input.uploadId);
  return { upload, parent: null, ...studioPictureSize(upload.width, upload.height) };
}

/**
 * Queues an edit, charged one credit in the same transaction as its row. Refusals (no such
 * picture, not finished, a mask of the wrong size or area, an engine without masks, no credits)
 * cost nothing.
 */
export async function createEditJob(
  deps: RenderContext,
  owner: Owner,
  input: EditRequestInput & { seed?: number; paint?: PaintChoice },
): Promise<{ jobId: string; credits: number }> {
  const edit = await checkedEdit(deps, owner, input);
  return queueEdit(deps, owner, edit, {
    instruction: input.paint ? "" : input.instruction,
    preset: input.paint ? null : (input.preset ?? null),
    paint: input.paint ?? null,
    seed: input.seed,
  });
}

/**
 * The Paint tool (issue 33): the painted region in each of one to three colours, one edit per
 * colour from the same version and mask, so they can be compared side by side. On the Preview
 * engine each costs what the operator set (it may be free); on an AI engine, one credit.
 */
export async function createPaintJobs(
  deps: RenderContext,
  owner: Owner,
  input: PaintRequestInput,
): Promise<{ jobIds: string[]; credits: number }> {
  const edit = await checkedEdit(deps, owner, input);
  const jobIds: string[] = [];
  let credits = 0;
  for (const colour of input.colours) {
    const queued = await queueEdit(deps, owner, edit, {
      instruction: "",
      preset: null,
      paint: { colour, surface: input.surface },
      seed: undefined,
    });
    jobIds.push(queued.jobId);
    credits = queued.credits;
  }
  return { jobIds, credits };
}

/** A paint edit's colour and what it is noted under. */
export interface PaintChoice {
  colour: string;
  surface: PaintSurface;
}

/** An edit that may be queued: the version to edit, the project it is filed in, and its checked mask. */
interface CheckedEdit {
  source: EditSource;
  projectId: string;
  mask: Buffer;
}

/** The version to edit and the mask checked against it (size and area); refusals cost nothing. */
async function checkedEdit(
  deps: RenderContext,
  owner: Owner,
  input: { sourceJobId?: string; uploadId?: string; mask: string },
): Promise<CheckedEdit> {
  if (owner.userId === null) throw new DomainError("unauthenticated", "notAuthenticated");
  if (!deps.capabilities.masks) throw new DomainError("invalid", "engineCannot");
  const source = await editSource(deps, owner, input);
  const projectId = source.parent?.project_id ?? source.upload.project_id;
  if (!projectId) throw notFound();
  const checked = await checkMask(pngFromDataUrl(input.mask), source);
  if (!checked.ok) throw new DomainError("invalid", checked.reason);
  return { source, projectId, mask: checked.mask };
}

/** Stores the mask and queues one edit with its charge, in one transaction. */
async function queueEdit(
  deps: RenderContext,
  owner: Owner,
  { source, projectId, mask }: CheckedEdit,
  order: { instruction: string; preset: EditPreset | null; paint: PaintChoice | null; seed: number | undefined },
): Promise<{ jobId: string; credits: number }> {
  const userId = owner.userId!;
  const id = generateSecureRandomString();
  const maskKey = editMaskKey(id);
  await deps.diskFloor.ensureRoom();
  await deps.storage.put(UPLOAD_BUCKET, maskKey, mask, "image/png");

  await ensureStorageLeft(deps, userId);
  // An edit of a team's picture is the team's, charged to the team (decision 070).
  const teamId = source.upload.team_id;
  const payer = await payerFor(deps, userId, teamId);
  const keepFreeCredits = teamId === null && (await keepsFreeCredits(deps, userId));
  // A paint is priced by the engine that will make it: the Preview engine's recolour as the operator set.
  const price = order.paint ? deps.paintPrice() : CREDITS.perRender;
  const now = deps.clock.now();
  let credits = 0;
  try {
    const event = await deps.db.transaction().execute(async (trx) => {
      await lockVersionNumbering(trx, source.upload.id);
      const job = await trx
        .insertInto("render_jobs")
        .values({
          id,
          ...ownerColumns(owner),
          team_id: teamId,
          project_id: projectId,
          upload_id: source.upload.id,
          kind: "edit",
          style: source.parent?.style ?? "",
          // An edit of a render in a custom style is named after the style as that render used it.
          style_snapshot: source.parent?.style_snapshot ?? null,
          room_type: source.upload.room_type,
          mode: source.upload.mode,
          note: order.instruction || null,
          render_mode: source.parent?.render_mode ?? "redesign",
          requested_seed: order.seed ?? null,
          // An edit is a version from the moment it is queued (the history shows it working).
          version_number: nextVersionNumber(source.upload.id),
          provider: deps.providerId,
          request_id: currentRequestId() ?? null,
          status: "queued",
          credits_charged: price,
          stored_bytes: mask.length,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("render_edits")
        .values({
          job_id: id,
          parent_job_id: source.parent?.id ?? null,
          mask_key: maskKey,
          instruction: order.instruction,
          preset: order.preset,
          paint_colour: order.paint?.colour ?? null,
          paint_surface: order.paint?.surface ?? null,
        })
        .execute();
      if (price > 0) await deps.credits.chargeForJob(trx, payer, id, now, { keepFreeCredits });
      credits = await deps.credits.balance(trx, payer);
      return recordRenderEvent(trx, rowKey({ ...ownerColumns(owner), team_id: teamId }), {
        type: "queued",
        jobId: id,
        at: now,
        position: await queuePosition(trx, job),
      });
    });
    deps.events.publish([event]);
  } catch (error) {
    await deps.storage.remove(UPLOAD_BUCKET, maskKey).catch(() => undefined);
    throw error;
  }
  await deps.projects.touch(projectId, now);
  deps.signals.jobAdded();
  return { jobId: id, credits };
}

/** The same edit again (same version, mask and instruction), with a new seed or the same one: the studio's re-roll. */
export async function repeatEdit(
  deps: RenderContext,
  owner: Owner,
  job: RenderJob,
  seed: number | undefined,
): Promise<{ jobs: Array<{ id: string; style: StyleKey | null; variation: number }>; credits: number }> {
  const edit = await deps.db.selectFrom("render_edits").selectAll().where("job_id", "=", job.id).executeTakeFirst();
  const mask = edit ? (await deps.storage.get(UPLOAD_BUCKET, edit.mask_key))?.data : undefined;
  if (!edit || !mask) throw notFound();
  const source = edit.parent_job_id ? { sourceJobId: edit.parent_job_id } : { uploadId: job.upload_id };
  const created = await createEditJob(deps, owner, {
    ...source,
    mask: `data:image/png;base64,${mask.toString("base64")}`,
    instruction: edit.instruction,
    ...(edit.preset ? { preset: edit.preset } : {}),
    ...(edit.paint_colour && edit.paint_surface ? { paint: { colour: edit.paint_colour, surface: edit.paint_surface } } : {}),
    ...(seed !== undefined ? { seed } : {}),
  });
  return { jobs: [{ id: created.jobId, style: styleOf(job.style), variation: 1 }], credits: created.credits };
}

/** What the worker needs to run an edit: the version's picture, the mask and the instruction. */
export interface EditWork {
  /** The picture to edit, as stored (the parent's result, or the photo). */
  sourceKey: string;
  /** The studio picture's size: the engine gets the source at exactly this size, the mask's. */
  width: number;
  height: number;
  mask: Buffer;
  instruction: string;
  preset: EditPreset | null;
  /** A paint edit's colour and surface (issue 33); null for other edits. */
  paint: PaintChoice | null;
  /** The thumbnail of the version edited, for the structure check. */
  sourceThumbKey: string;
}

export async function editWork(deps: Pick<RenderContext, "db" | "storage">, job: RenderJob): Promise<EditWork | null> {
  const edit = await deps.db.selectFrom("render_edits").selectAll().where("job_id", "=", job.id).executeTakeFirst();
  if (!edit) return null;
  const mask = (await deps.storage.get(UPLOAD_BUCKET, edit.mask_key))?.data;
  if (!mask) return null;
  const paint = edit.paint_colour && edit.paint_surface ? { colour: edit.paint_colour, surface: edit.paint_surface } : null;
  const parent = edit.parent_job_id
    ? await deps.db.selectFrom("render_jobs").selectAll().where("id", "=", edit.parent_job_id).executeTakeFirst()
    : undefined;
  if (parent?.result_key && parent.thumb_key && parent.result_width && parent.result_height) {
    return {
      // The largest picture there is: an edit of an upscaled render keeps its size.
      sourceKey: parent.upscaled_key ?? parent.result_key,
      ...studioPictureSize(parent.result_width, parent.result_height),
      mask,
      instruction: edit.instruction,
      preset: edit.preset,
      paint,
      sourceThumbKey: parent.thumb_key,
    };
  }
  // The version it was made from is gone (deleted mid-queue): the edit cannot run.
  if (edit.parent_job_id) return null;
  const upload = await deps.db.selectFrom("uploads").selectAll().where("id", "=", job.upload_id).executeTakeFirst();
  if (!upload) return null;
  return {
    sourceKey: upload.original_key,
    ...studioPictureSize(upload.width, upload.height),
    mask,
    instruction: edit.instruction,
    preset: edit.preset,
    paint,
    sourceThumbKey: upload.thumb_key,
  };
}

/** Edits made from a version that have not finished (they cannot run once it is gone). */
export async function unfinishedChildEdits(deps: Pick<RenderContext, "db">, jobId: string): Promise<string[]> {
  const rows = await deps.db
    .selectFrom("render_edits")
    .innerJoin("render_jobs", "render_jobs.id", "render_edits.job_id")
    .select("render_jobs.id")
    .where("render_edits.parent_job_id", "=", jobId)
    .where("render_jobs.status", "in", ["queued", "preprocessing", "rendering", "saving"])
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Before a version is deleted: its children hang from its own parent instead, so the tree stays
 * whole and each child keeps its own pictures.
 */
export async function relinkChildren(deps: Pick<RenderContext, "db">, jobId: string): Promise<void> {
  const own = await deps.db.selectFrom("render_edits").select("parent_job_id").where("job_id", "=", jobId).executeTakeFirst();
  await deps.db
    .updateTable("render_edits")
    .set({ parent_job_id: own?.parent_job_id ?? null })
    .where("parent_job_id", "=", jobId)
    .execute();
}

/**
 * The versions of the photo a picture belongs to, for the studio: the photo, its renders and every
 * edit, each with the version it came from. `pictureId` is an upload's or a job's id.
 */
export async function versionTree(deps: RenderContext, owner: Owner, pictureId: string): Promise<VersionTree> {
  const job = await deps.db.selectFrom("render_jobs").selectAll().where("id", "=", pictureId).executeTakeFirst();
  const uploadId = job && (await mayUse(deps, owner, job)) ? job.upload_id : pictureId;
  const upload = await findOwnedUpload(deps, owner, uploadId);
  const jobs = await deps.db
    .selectFrom("render_jobs")
    .leftJoin("render_edits", "render_edits.job_id", "render_jobs.id")
    .selectAll("render_jobs")
    .select(["render_edits.parent_job_id", "render_edits.instruction", "render_edits.paint_colour", "render_edits.paint_surface"])
    .where("render_jobs.upload_id", "=", upload.id)
    .orderBy("render_jobs.created_at", "asc")
    .limit(EDIT.versionsMax)
    .execute();
  // A team's photo: every member's versions (access was checked on the photo); a personal one: the owner's.
  const sameSpace = (row: RenderJob) => (upload.team_id !== null ? row.team_id === upload.team_id : ownsRow(owner, row));
  const visible = jobs.filter((row) => sameSpace(row) && (row.kind === "edit" || row.status === "succeeded"));
  // Every version was numbered when it became one; should one lack its number, it is shown after the rest (not stored).
  let unnumbered = Math.max(1, ...visible.map((row) => row.version_number ?? 0));
  const photo: VersionNode = {
    id: upload.id,
    number: 1,
    kind: "photo",
    engine: null,
    parentId: null,
    status: "succeeded",
    instruction: null,
    paint: null,
    style: null,
    styleName: null,
    renderMode: null,
    createdAt: upload.created_at,
    picture: FILE_ROUTES.upload(upload.id, "original"),
    thumb: FILE_ROUTES.upload(upload.id, "thumb"),
    ...studioPictureSize(upload.width, upload.height),
  };
  const nodes = visible.map((row): VersionNode => {
    const finished = row.status === "succeeded" && row.result_width !== null && row.result_height !== null;
    return {
      id: row.id,
      number: row.version_number ?? ++unnumbered,
      kind: row.kind,
      engine: { id: row.provider, isAi: AI_ENGINE_IDS.includes(row.provider) },
      // Renders hang under the photo; edits under the version they were made from (the photo when null).
      parentId: row.kind === "edit" ? (row.parent_job_id ?? upload.id) : upload.id,
      status: row.status,
      instruction: row.instruction ?? null,
      paint: row.paint_colour && row.paint_surface ? { colour: row.paint_colour, surface: row.paint_surface } : null,
      style: styleOf(row.style),
      styleName: styleNameOf(row),
      renderMode: row.render_mode,
      createdAt: row.created_at,
      picture: finished ? FILE_ROUTES.render(row.id, "medium") : null,
      thumb: finished ? FILE_ROUTES.render(row.id, "thumb") : null,
      ...(finished ? studioPictureSize(row.result_width!, row.result_height!) : { width: null, height: null }),
    };
  });
  return { uploadId: upload.id, projectId: upload.project_id, nodes: [photo, ...nodes] };
}

/**
 * The colours a project's paint edits used (issue 33): each surface and colour once, with the
 * finished versions painted in it, the latest first. For callers that have checked access to the
 * project (the studio, the client review, listing exports).
 */
export async function paintColoursOf(deps: Pick<RenderContext, "db">, projectId: string): Promise<PaintColourNote[]> {
  const rows = await deps.db
    .selectFrom("render_edits")
    .innerJoin("render_jobs", "render_jobs.id", "render_edits.job_id")
    .select(["render_jobs.id", "render_jobs.updated_at", "render_edits.paint_colour", "render_edits.paint_surface"])
    .where("render_jobs.project_id", "=", projectId)
    .where("render_jobs.status", "=", "succeeded")
    .where("render_edits.paint_colour", "is not", null)
    .orderBy("render_jobs.updated_at", "desc")
    .orderBy("render_jobs.id")
    .limit(EDIT.versionsMax)
    .execute();
  const notes = new Map<string, PaintColourNote>();
  for (const row of rows) {
    if (!row.paint_colour || !row.paint_surface) continue;
    const key = `${row.paint_surface} ${row.paint_colour}`;
    const note = notes.get(key) ?? { surface: row.paint_surface, colour: row.paint_colour, jobIds: [], lastUsedAt: row.updated_at };
    note.jobIds.push(row.id);
    notes.set(key, note);
  }
  return [...notes.values()];
}

/**
 * The paint colours in each picture's making (issue 33): its own, if it is a paint edit, and those of
 * the versions it was edited from, oldest first. For listing exports' manifests.
 */
export async function paintsInMaking(deps: Pick<RenderContext, "db">, jobIds: readonly string[]): Promise<Map<string, PaintChoice[]>> {
  const paints = new Map<string, PaintChoice[]>();
  for (const jobId of jobIds) {
    const chain: PaintChoice[] = [];
    let current: string | null = jobId;
    // A version tree is at most EDIT.versionsMax deep; the bound also stops a (corrupt) loop.
    for (let depth = 0; current !== null && depth < EDIT.versionsMax; depth++) {
      const edit = await deps.db
        .selectFrom("render_edits")
        .select(["parent_job_id", "paint_colour", "paint_surface"])
        .where("job_id", "=", current)
        .executeTakeFirst();
      if (!edit) break;
      if (edit.paint_colour && edit.paint_surface) chain.unshift({ colour: edit.paint_colour, surface: edit.paint_surface });
      current = edit.parent_job_id;
    }
    paints.set(jobId, chain);
  }
  return paints;
}
