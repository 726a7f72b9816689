/**
 * Intake: what comes in before a render. Uploaded photos and plans are checked, prepared and
 * stored; each account's storage and each visitor's daily upload budget are kept; and a visitor's
 * demo work is adopted when they sign up, or cleared when nobody claims it.
 *
 * The rest of the render module imports this file only (lint: render-intake-behind-its-index).
 */
import type { Language } from "../../../shared/constants";
import { RENDER } from "../../../shared/render";
import type { RenderContext } from "../context";
import type { Owner } from "../owner";
import { uploadView, type UploadView } from "../views";
import { storageQuota, storageUsed, storageUsedByAll } from "./upload-budgets";
import { findOwnedUpload, saveUpload, type UploadChoices } from "./uploads";
import { adoptVisitorWork } from "./visitor-work";

export { findOwnedUpload, type UploadChoices } from "./uploads";
export { ensureStorageLeft, forgetOldUploadBudgets } from "./upload-budgets";
export { purgeExpiredVisitorWork, reclaimVisitorSpace } from "./visitor-work";

/** The intake part of the render module's surface. */
export function createIntake(deps: RenderContext) {
  return {
    /** Checks and stores an uploaded file; refusals are DomainErrors (type, size, pixels, unreadable, empty). */
    async saveUpload(owner: Owner, bytes: Buffer, choices: UploadChoices, language: Language, address: string): Promise<UploadView> {
      return uploadView(await saveUpload(deps, owner, bytes, choices, language, address), RENDER.demoProjectId);
    },
    async upload(owner: Owner, uploadId: string): Promise<UploadView> {
      return uploadView(await findOwnedUpload(deps, owner, uploadId), RENDER.demoProjectId);
    },
    /** What the account's photos and renders take, and its quota (null: none). */
    async storageUse(userId: string): Promise<{ usedBytes: number; quotaBytes: number | null }> {
      return { usedBytes: await storageUsed(deps.db, userId), quotaBytes: storageQuota(deps.env) };
    },
    /** Bytes of every photo and render file as the database records them (status pages with files in a bucket). */
    storedBytes: () => storageUsedByAll(deps.db),
    /** A visitor's demo work becomes the user's when they sign in from the same browser. */
    adoptVisitorWork: (visitorId: string, userId: string, language: Language) => adoptVisitorWork(deps, visitorId, userId, language),
  };
}
