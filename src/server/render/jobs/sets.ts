/**
 * "Apply to the whole project" (issue 30): the chosen photos of a project rendered in one style and
 * mode with one seed, each with its room type, all queued and charged (one credit per photo) in one
 * transaction, so a set is asked for whole or not at all. A finished render of the project may be
 * named as the reference whose look the others follow; its seed becomes the set's.
 */
import { randomInt } from "node:crypto";
import { UPLOAD_BUCKET } from "../../../shared/constants";
import { RENDER, renderModesFor, type RenderSetRequest, type RenderSetView } from "../../../shared/render";
import { isCustomStyleKey } from "../../../shared/custom-styles";
import type { RoomType } from "../../../shared/styles";
import { generateSecureRandomString } from "../../auth/tokens";
import { DomainError, notFound } from "../../errors";
import type { RenderContext } from "../context";
import { ensureStorageLeft } from "../intake";
import { FILE_ROUTES } from "../links";
import { styleNameOf } from "../views";
import type { StoredRenderEvent } from "../live";
import { mayUse, type Owner } from "../owner";
import { findOwnedJob } from "../records";
import { keepsFreeCredits, payerFor, queueJob, removeUnqueuedFiles, takeCustomStyle } from "./queue";

/** A project the owner may work in (their own, or their team's), else not found. */
async function requireProject(deps: RenderContext, owner: Owner, projectId: string): Promise<{ teamId: string | null }> {
  const project = owner.userId === null ? null : await deps.projects.projectAccess(owner.userId, projectId);
  if (!project) throw notFound();
  return project;
}

export async function createRenderSet(
  deps: RenderContext,
  owner: Owner,
  input: RenderSetRequest,
  ipAddress: string,
): Promise<{ setId: string; jobs: Array<{ id: string; uploadId: string }>; credits: number }> {
  const userId = owner.userId;
  if (userId === null) throw new DomainError("unauthenticated", "notAuthenticated");
  const project = await requireProject(deps, owner, input.projectId);
  // One picture per photo, in the order chosen.
  const photos = [...new Map(input.photos.map((photo) => [photo.imageId, photo])).values()];
  if (photos.length === 0) throw new DomainError("invalid", "setNoPhotos");
  if (photos.length > RENDER.maxSetPhotos) throw new DomainError("invalid", "setTooManyPhotos");
  const uploads = await deps.db
    .selectFrom("uploads")
    .selectAll()
    .where(
      "id",
      "in",
      photos.map((photo) => photo.imageId),
    )
    .where("project_id", "=", input.projectId)
    .execute();
  const byId = new Map(uploads.map((upload) => [upload.id, upload]));
  for (const photo of photos) {
    const upload = byId.get(photo.imageId);
    if (!upload || !(await mayUse(deps, owner, upload))) throw notFound();
  }
  const renderMode = input.renderMode ?? "redesign";
  // What one photo of the set cannot have, none is asked for: refused before any charge.
  for (const upload of uploads) {
    if (upload.mode === "floor-plan" && deps.capabilities.floorPlan === "none") throw new DomainError("invalid", "floorPlanUnsupported");
    if (!renderModesFor(deps.capabilities, upload.mode, upload.room_type).includes(renderMode))
      throw new DomainError("invalid", "engineCannot");
  }
  let seed: number | null = deps.capabilities.seeds ? randomInt(0, RENDER.maxSeed) : null;
  if (input.referenceJobId !== undefined) {
    const reference = await findOwnedJob(deps, owner, input.referenceJobId);
    if (reference.status !== "succeeded" || reference.project_id !== input.projectId)
      throw new DomainError("invalid", "setReferenceNotInProject");
    if (deps.capabilities.seeds && reference.seed !== null) seed = reference.seed;
  }
  await deps.diskFloor.ensureRoom();
  await ensureStorageLeft(deps, userId);
  const payer = await payerFor(deps, userId, project.teamId);
  // A custom style of the project's space, as it is now: every picture of the set keeps this snapshot.
  // A set that follows one of its renders sends that render as the reference, not the style's picture.
  const customStyle = isCustomStyleKey(input.style)
    ? await takeCustomStyle(deps, { userId, teamId: project.teamId }, input.style, { reference: input.referenceJobId === undefined })
    : null;
  const keepFreeCredits = payer.teamId === null && (await keepsFreeCredits(deps, userId));

  const now = deps.clock.now();
  const setId = generateSecureRandomString();
  const events: StoredRenderEvent[] = [];
  const jobs: Array<{ id: string; uploadId: string }> = [];
  let credits = 0;
  const files: string[] = [];
  await deps.db
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto("render_sets")
        .values({
          id: setId,
          project_id: input.projectId,
          user_id: userId,
          style: input.style,
          render_mode: renderMode,
          seed,
          reference_job_id: input.referenceJobId ?? null,
          created_at: now,
        })
        .execute();
      for (const photo of photos) {
        const upload = byId.get(photo.imageId)!;
        const {
          id,
          event,
          files: written,
        } = await queueJob(trx, deps, owner, payer, {
          upload,
          projectId: input.projectId,
          style: input.style,
          styleSnapshot: customStyle?.snapshot ?? null,
          styleReference: customStyle?.reference ?? null,
          roomType: photo.roomType,
          note: null,
          renderMode,
          structure: "normal",
          seed,
          variation: null,
          setId,
          keepFreeCredits,
          ipAddress,
          now,
        });
        files.push(...written);
        events.push(event);
        jobs.push({ id, uploadId: upload.id });
      }
      credits = await deps.credits.balance(trx, payer);
    })
    .catch(async (error: unknown) => {
      await removeUnqueuedFiles(deps, files);
      throw error;
    });
  deps.events.publish(events);
  deps.signals.jobAdded();
  return { setId, jobs, credits };
}

/** A project's sets, newest first, each photo's before and after side by side. */
export async function projectRenderSets(deps: RenderContext, owner: Owner, projectId: string): Promise<RenderSetView[]> {
  await requireProject(deps, owner, projectId);
  const sets = await deps.db
    .selectFrom("render_sets")
    .selectAll()
    .where("project_id", "=", projectId)
    .orderBy("created_at", "desc")
    .execute();
  if (sets.length === 0) return [];
  const jobs = await deps.db
    .selectFrom("render_jobs")
    .select(["id", "set_id", "upload_id", "room_type", "status", "input_key", "medium_key", "created_at", "style_snapshot"])
    .where(
      "set_id",
      "in",
      sets.map((set) => set.id),
    )
    .where("project_id", "=", projectId)
    .orderBy("queue_seq")
    .execute();
  return sets.flatMap((set): RenderSetView[] => {
    const setJobs = jobs.filter((job) => job.set_id === set.id);
    const pictures = setJobs.map((job) => ({
      jobId: job.id,
      uploadId: job.upload_id,
      roomType: job.room_type,
      status: job.status,
      before: job.input_key ? FILE_ROUTES.render(job.id, "before") : FILE_ROUTES.upload(job.upload_id, "thumb"),
      after: job.status === "succeeded" && job.medium_key ? FILE_ROUTES.render(job.id, "medium") : null,
    }));
    // A set whose pictures were all deleted is not shown.
    if (pictures.length === 0) return [];
    return [
      {
        id: set.id,
        style: set.style,
        styleName: styleNameOf(setJobs[0]!),
        renderMode: set.render_mode,
        seed: set.seed,
        referenceJobId: set.reference_job_id,
        createdAt: set.created_at,
        pictures,
      },
    ];
  });
}

/**
 * The render a set's picture follows, and its medium picture (1024 px, what an engine's input is);
 * undefined when the set has none, it is this job, or it is gone.
 */
export async function setReference(
  deps: Pick<RenderContext, "db" | "storage">,
  setId: string,
  jobId: string,
): Promise<{ jobId: string; picture: Buffer } | undefined> {
  const reference = await deps.db
    .selectFrom("render_sets")
    .innerJoin("render_jobs", "render_jobs.id", "render_sets.reference_job_id")
    .select(["render_jobs.id", "render_jobs.status", "render_jobs.medium_key"])
    .where("render_sets.id", "=", setId)
    .executeTakeFirst();
  if (!reference || reference.id === jobId || reference.status !== "succeeded" || !reference.medium_key) return undefined;
  const picture = (await deps.storage.get(UPLOAD_BUCKET, reference.medium_key))?.data;
  return picture ? { jobId: reference.id, picture } : undefined;
}

/** A project's photos (not its plans), oldest first, as the set dialog lists them. */
export async function projectPhotos(
  deps: RenderContext,
  owner: Owner,
  projectId: string,
): Promise<Array<{ imageId: string; thumb: string; roomType: RoomType; width: number; height: number }>> {
  await requireProject(deps, owner, projectId);
  const uploads = await deps.db
    .selectFrom("uploads")
    .select(["id", "room_type", "width", "height"])
    .where("project_id", "=", projectId)
    .where("mode", "=", "room-photo")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return uploads.map((upload) => ({
    imageId: upload.id,
    thumb: FILE_ROUTES.upload(upload.id, "thumb"),
    roomType: upload.room_type,
    width: upload.width,
    height: upload.height,
  }));
}

/** A set's finished pictures (their job ids, in the set's order) and its project, for a listing export of the set. */
export async function setPictures(deps: RenderContext, owner: Owner, setId: string): Promise<{ projectId: string; jobIds: string[] }> {
  const set = await deps.db.selectFrom("render_sets").select("project_id").where("id", "=", setId).executeTakeFirst();
  if (!set) throw notFound();
  await requireProject(deps, owner, set.project_id);
  const jobs = await deps.db
    .selectFrom("render_jobs")
    .select("id")
    .where("set_id", "=", setId)
    .where("project_id", "=", set.project_id)
    .where("status", "=", "succeeded")
    .orderBy("queue_seq")
    .execute();
  return { projectId: set.project_id, jobIds: jobs.map((job) => job.id) };
}
