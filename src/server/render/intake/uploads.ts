/**
 * Storing an upload: checked and cleaned by prepareUpload (content, size, pixels, metadata),
 * kept with a thumbnail under generated keys, and filed in the user's project (a visitor's
 * upload belongs to their anonymous id).
 */
import { UPLOAD_BUCKET, type Language } from "../../../shared/constants";
import type { MessageName } from "../../../shared/messages";
import { RENDER } from "../../../shared/render";
import type { InputMode, RoomType } from "../../../shared/styles";
import { generateSecureRandomString } from "../../auth/tokens";
import type { Upload } from "../../db/schema";
import { DomainError, notFound, type DomainErrorKind } from "../../errors";
import { prepareUpload, type PreparedUpload, type UploadRefusal } from "../../images/prepare-upload";
import { thumbnail } from "../../images/variants";
import type { RenderContext } from "../context";
import { mayUse, ownerColumns, type Owner } from "../owner";
import { ensureStorageLeft, returnVisitorUploadBudget, takeVisitorUploadBudget } from "./upload-budgets";
import { reclaimVisitorSpace } from "./visitor-work";

type PreparedPicture = Extract<PreparedUpload, { ok: true }>;

const REFUSALS: Record<UploadRefusal, { kind: DomainErrorKind; message: MessageName }> = {
  "unsupported-type": { kind: "unsupported-media", message: "uploadUnsupportedType" },
  "too-large": { kind: "too-large", message: "uploadTooLarge" },
  "too-many-pixels": { kind: "unsupported-media", message: "uploadTooManyPixels" },
  "too-small": { kind: "unsupported-media", message: "uploadTooSmall" },
  "too-narrow": { kind: "unsupported-media", message: "uploadTooNarrow" },
  unreadable: { kind: "unsupported-media", message: "uploadUnreadable" },
};

export interface UploadChoices {
  mode: InputMode;
  roomType: RoomType;
  projectId?: string;
}

/**
 * Checks, cleans and stores the file; a refusal is a DomainError naming what is wrong with it, or
 * which limit it meets: a visitor's or their address's daily budget, the account's storage quota,
 * or a disk too full even once visitors' unclaimed pictures are gone.
 */
export async function saveUpload(
  deps: Pick<RenderContext, "db" | "clock" | "env" | "storage" | "diskFloor" | "log" | "projects">,
  owner: Owner,
  bytes: Buffer,
  choices: UploadChoices,
  language: Language,
  address: string,
): Promise<Upload> {
  if (bytes.length === 0) throw new DomainError("invalid", "uploadEmpty");
  let project: { id: string; teamId: string | null } | null = null;
  if (owner.userId !== null) {
    project = await deps.projects.projectForUpload(owner.userId, choices.projectId, language, owner.teamId);
    if (!project) throw notFound();
  } else if (choices.projectId && choices.projectId !== RENDER.demoProjectId) {
    throw notFound();
  }

  // Visitors' unclaimed demo pictures make room first; then the floor every writer respects.
  await reclaimVisitorSpace(deps);
  await deps.diskFloor.ensureRoom();

  const prepared = await prepareUpload(bytes);
  if (!prepared.ok) throw new DomainError(REFUSALS[prepared.reason].kind, REFUSALS[prepared.reason].message);
  const thumb = await thumbnail(prepared.data);
  const size = prepared.data.length + thumb.data.length;
  if (owner.userId !== null) {
    await ensureStorageLeft(deps, owner.userId, size);
  } else {
    const spent = await takeVisitorUploadBudget(deps, owner.visitorId, address, size);
    if (spent) throw new DomainError("rate-limited", spent);
  }
  try {
    return await storeUpload(deps, owner, prepared, thumb.data, choices, project);
  } catch (error) {
    if (owner.visitorId !== null) await returnVisitorUploadBudget(deps, owner.visitorId, address, size);
    throw error;
  }
}

async function storeUpload(
  deps: Pick<RenderContext, "db" | "clock" | "storage" | "projects">,
  owner: Owner,
  prepared: PreparedPicture,
  thumb: Buffer,
  choices: UploadChoices,
  project: { id: string; teamId: string | null } | null,
): Promise<Upload> {
  const projectId = project?.id ?? null;
  const id = generateSecureRandomString();
  const extension = prepared.format === "jpeg" ? "jpg" : "png";
  const originalKey = `uploads/${id}/original.${extension}`;
  const thumbKey = `uploads/${id}/thumb.jpg`;
  await deps.storage.put(UPLOAD_BUCKET, originalKey, prepared.data, `image/${prepared.format}`);
  await deps.storage.put(UPLOAD_BUCKET, thumbKey, thumb, "image/jpeg");
  const now = deps.clock.now();
  const upload = await deps.db
    .insertInto("uploads")
    .values({
      id,
      ...ownerColumns(owner),
      // A team project's pictures are the team's (decision 070).
      team_id: project?.teamId ?? null,
      project_id: projectId,
      mode: choices.mode,
      room_type: choices.roomType,
      format: prepared.format,
      original_key: originalKey,
      thumb_key: thumbKey,
      width: prepared.width,
      height: prepared.height,
      bytes: prepared.data.length,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (projectId) await deps.projects.touch(projectId, now);
  return upload;
}

export async function findOwnedUpload(deps: Pick<RenderContext, "db" | "teams">, owner: Owner, id: string): Promise<Upload> {
  const upload = await deps.db.selectFrom("uploads").selectAll().where("id", "=", id).executeTakeFirst();
  if (!upload || !(await mayUse(deps, owner, upload))) throw notFound();
  return upload;
}
