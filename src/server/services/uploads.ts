/**
 * Storing an upload: checked and cleaned by prepareUpload (content, size, pixels, metadata),
 * kept with a thumbnail under generated keys, and filed in the user's project (a visitor's
 * upload belongs to their anonymous id).
 */
import { TRPCError } from "@trpc/server";
import { UPLOAD_BUCKET, type Language } from "../../shared/constants";
import { MESSAGES, type MessageName } from "../../shared/messages";
import { RENDER } from "../../shared/render";
import type { InputMode, RoomType } from "../../shared/styles";
import { generateSecureRandomString } from "../auth/tokens";
import type { Upload } from "../db/schema";
import type { AppDeps } from "../deps";
import { prepareUpload, type UploadRefusal } from "../images/prepare-upload";
import { thumbnail } from "../images/variants";
import { ownerColumns, type Owner } from "../render/owner";

const REFUSAL_MESSAGES: Record<UploadRefusal, MessageName> = {
  "unsupported-type": "uploadUnsupportedType",
  "too-large": "uploadTooLarge",
  "too-many-pixels": "uploadTooManyPixels",
  unreadable: "uploadUnreadable",
};

/** The project a user's upload goes to when none is chosen, named in their language. */
const FIRST_PROJECT_NAME: Record<Language, string> = { en: "My first project", es: "Mi primer proyecto", fr: "Mon premier projet" };

export type SaveUploadResult = { ok: true; upload: Upload } | { ok: false; status: number; message: MessageName };

export async function projectFor(
  deps: Pick<AppDeps, "db" | "clock">,
  userId: string,
  projectId: string | undefined,
  language: Language,
): Promise<string | null> {
  if (projectId) {
    const project = await deps.db
      .selectFrom("projects")
      .select("id")
      .where("id", "=", projectId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return project?.id ?? null;
  }
  const latest = await deps.db
    .selectFrom("projects")
    .select("id")
    .where("user_id", "=", userId)
    .orderBy("updated_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (latest) return latest.id;
  const now = deps.clock.now();
  const id = generateSecureRandomString();
  await deps.db
    .insertInto("projects")
    .values({
      id,
      user_id: userId,
      name: FIRST_PROJECT_NAME[language],
      project_type: "room_rendering",
      settings: "{}",
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function saveUpload(
  deps: Pick<AppDeps, "db" | "clock" | "storage">,
  owner: Owner,
  bytes: Buffer,
  choices: { mode: InputMode; roomType: RoomType; projectId?: string },
  language: Language,
): Promise<SaveUploadResult> {
  if (bytes.length === 0) return { ok: false, status: 400, message: "uploadEmpty" };
  let projectId: string | null = null;
  if (owner.userId !== null) {
    projectId = await projectFor(deps, owner.userId, choices.projectId, language);
    if (!projectId) return { ok: false, status: 404, message: "notFound" };
  } else if (choices.projectId && choices.projectId !== RENDER.demoProjectId) {
    return { ok: false, status: 404, message: "notFound" };
  }

  const prepared = await prepareUpload(bytes);
  if (!prepared.ok) return { ok: false, status: prepared.reason === "too-large" ? 413 : 415, message: REFUSAL_MESSAGES[prepared.reason] };
  const thumb = await thumbnail(prepared.data);

  const id = generateSecureRandomString();
  const extension = prepared.format === "jpeg" ? "jpg" : "png";
  const originalKey = `uploads/${id}/original.${extension}`;
  const thumbKey = `uploads/${id}/thumb.jpg`;
  await deps.storage.put(UPLOAD_BUCKET, originalKey, prepared.data, `image/${prepared.format}`);
  await deps.storage.put(UPLOAD_BUCKET, thumbKey, thumb.data, "image/jpeg");
  const now = deps.clock.now();
  const upload = await deps.db
    .insertInto("uploads")
    .values({
      id,
      ...ownerColumns(owner),
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
  if (projectId) await deps.db.updateTable("projects").set({ updated_at: now }).where("id", "=", projectId).execute();
  return { ok: true, upload };
}

export async function findOwnedUpload(deps: Pick<AppDeps, "db">, owner: Owner, id: string): Promise<Upload> {
  const upload = await deps.db.selectFrom("uploads").selectAll().where("id", "=", id).executeTakeFirst();
  const owned = upload && (owner.userId !== null ? upload.user_id === owner.userId : upload.visitor_id === owner.visitorId);
  if (!upload || !owned) throw new TRPCError({ code: "NOT_FOUND", message: MESSAGES.notFound });
  return upload;
}

export async function removeUploadFiles(
  deps: Pick<AppDeps, "storage" | "log">,
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
