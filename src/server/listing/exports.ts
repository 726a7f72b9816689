/**
 * Listing exports, the rows of listing_exports and their three files: the picture with its
 * disclosure (downloaded by the owner), the render and the original as the public page shows them.
 * Only signed-in users export (the router refuses visitors). Revoking keeps the row and removes the
 * files; a deleted render, project or account turns the row's reference to NULL (foreign keys), so
 * the public page answers 404 at once, and sweepListingExports() removes what is left.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { UPLOAD_BUCKET, type Language } from "../../shared/constants";
import { defaultDisclosure, LISTING, LISTING_ROUTES } from "../../shared/listing";
import type { ListingExportsTable } from "../db/schema";
import type { Selectable } from "kysely";
import { DomainError, notFound } from "../errors";
import { aiEditedXmp, describedXmp } from "../images/provenance";
import { userOwner, type ListingSource } from "../render";
import type { ListingContext } from "./context";
import { alteredForPage, burnDisclosure, originalForPage } from "./picture";

export type ListingExportRow = Selectable<ListingExportsTable>;

/** What the owner sees of an export: links, never storage keys. */
export interface ListingExportView {
  id: string;
  jobId: string;
  disclosure: string;
  language: Language;
  publicUrl: string;
  pictureUrl: string;
  downloadUrl: string;
  width: number;
  height: number;
  createdAt: number;
}

export function exportView(row: ListingExportRow): ListingExportView {
  return {
    id: row.id,
    jobId: row.job_id ?? "",
    disclosure: row.disclosure,
    language: row.language,
    publicUrl: row.public_url,
    pictureUrl: LISTING_ROUTES.picture(row.id),
    downloadUrl: LISTING_ROUTES.download(row.id),
    width: row.width,
    height: row.height,
    createdAt: row.created_at,
  };
}

/** The disclosure as burned in: one line, spaces collapsed; refused when empty or too long. */
export function cleanDisclosure(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters would draw as boxes or break the SVG
  const clean = text.replace(/[\u0000-\u001f\u007f\s]+/g, " ").trim();
  if (clean === "") throw new DomainError("invalid", "listingDisclosureEmpty");
  if ([...clean].length > LISTING.disclosureMax) throw new DomainError("invalid", "listingDisclosureTooLong");
  return clean;
}

const ALTERATIONS: Record<string, string> = {
  stage: "virtually staged (furniture added)",
  declutter: "objects removed",
  redesign: "finishes and furnishings restyled",
};

/**
 * The XMP description: what was changed and where the original is. AI renders also name engine and
 * model and carry IPTC's DigitalSourceType; the Preview engine's only grade colours, and say so.
 */
export function provenanceXmp(source: ListingSource, disclosure: string, publicUrl: string): string {
  const tail = ` Disclosure: "${disclosure}". Unaltered original: ${publicUrl}`;
  const inStyle = source.style ? ` in the ${source.style} style` : "";
  if (!source.engine.isAi) {
    const change = source.kind === "edit" ? "a painted region tinted" : `colour and light grading${inStyle}`;
    return describedXmp(`Digitally altered room photo: ${change} by the ${source.engine.label}.${tail}`);
  }
  const model = source.model ? `, model ${source.model}${source.modelVersion ? ` (${source.modelVersion})` : ""}` : "";
  const upscale = source.upscaleModel ? `; upscaled by ${source.upscaleModel}` : "";
  const alteration = source.kind === "edit" ? "a painted region repainted" : (ALTERATIONS[source.renderMode] ?? "digitally altered");
  const style = source.style ? `, ${source.style} style` : "";
  return aiEditedXmp(`Room photo edited with AI: ${alteration}${style}, by the ${source.engine.label} engine${model}${upscale}.${tail}`);
}

async function readStored(deps: ListingContext, key: string): Promise<Buffer> {
  const stored = await deps.storage.get(UPLOAD_BUCKET, key);
  if (!stored) throw notFound();
  return stored.data;
}

export async function createExport(
  deps: ListingContext,
  userId: string,
  input: { jobId: string; disclosure?: string; language: Language },
  baseUrl: string,
): Promise<ListingExportView> {
  const source = await deps.render.listingSource(userOwner(userId), input.jobId);
  await deps.diskFloor.ensureRoom();
  const disclosure = cleanDisclosure(input.disclosure ?? defaultDisclosure(input.language, source.renderMode));
  const [result, original] = await Promise.all([readStored(deps, source.resultKey), readStored(deps, source.originalKey)]);

  const id = randomUUID();
  const code = randomBytes((LISTING.codeLength * 6) / 8).toString("base64url");
  const publicUrl = `${baseUrl.replace(/\/+$/, "")}${LISTING_ROUTES.page(code)}`;
  const xmp = provenanceXmp(source, disclosure, publicUrl);
  const [picture, altered, originalJpeg] = await Promise.all([
    burnDisclosure(result, disclosure, publicUrl, xmp),
    alteredForPage(result, xmp),
    originalForPage(original),
  ]);

  const keys = {
    picture_key: `listing/${id}/picture.jpg`,
    altered_key: `listing/${id}/altered.jpg`,
    original_key: `listing/${id}/original.jpg`,
  };
  try {
    await deps.storage.put(UPLOAD_BUCKET, keys.picture_key, picture.data, "image/jpeg");
    await deps.storage.put(UPLOAD_BUCKET, keys.altered_key, altered, "image/jpeg");
    await deps.storage.put(UPLOAD_BUCKET, keys.original_key, originalJpeg.data, "image/jpeg");
    const row = await deps.db
      .insertInto("listing_exports")
      .values({
        id,
        code,
        user_id: userId,
        job_id: source.jobId,
        project_id: source.projectId,
        disclosure,
        language: input.language,
        public_url: publicUrl,
        ...keys,
        width: picture.width,
        height: picture.height,
        original_width: originalJpeg.width,
        original_height: originalJpeg.height,
        file_name: `roomcanvas-listing-${source.style ?? source.kind}-${id.slice(0, 8)}.jpg`,
        created_at: deps.clock.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return exportView(row);
  } catch (error) {
    await removeFiles(deps, keys);
    throw error;
  }
}

/** The current (not revoked) exports of one of the user's renders, newest first. */
export async function exportsOfJob(deps: ListingContext, userId: string, jobId: string): Promise<ListingExportView[]> {
  const rows = await currentRows(deps, userId).where("job_id", "=", jobId).execute();
  return rows.map(exportView);
}

function currentRows(deps: ListingContext, userId: string) {
  return deps.db
    .selectFrom("listing_exports")
    .selectAll()
    .where("user_id", "=", userId)
    .where("job_id", "is not", null)
    .where("revoked_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id");
}

/** One current export of the user, or "Not found". */
export async function ownedExport(deps: ListingContext, userId: string, exportId: string): Promise<ListingExportRow> {
  const row = await currentRows(deps, userId).where("id", "=", exportId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Ends the public page and removes the files; the row stays (what was published, and when it ended). */
export async function revokeExport(deps: ListingContext, userId: string, exportId: string): Promise<void> {
  const row = await ownedExport(deps, userId, exportId);
  await deps.db.updateTable("listing_exports").set({ revoked_at: deps.clock.now() }).where("id", "=", row.id).execute();
  await removeFiles(deps, row);
  await deps.db
    .updateTable("listing_exports")
    .set({ picture_key: null, altered_key: null, original_key: null })
    .where("id", "=", row.id)
    .execute();
}

/** The export a public code names, while it is live: not revoked, and its render and owner still exist. */
export async function publicExport(deps: ListingContext, code: string): Promise<ListingExportRow | null> {
  const row = await deps.db
    .selectFrom("listing_exports")
    .selectAll()
    .where("code", "=", code)
    .where("revoked_at", "is", null)
    .where("job_id", "is not", null)
    .where("user_id", "is not", null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The user's current exports whose render is now in the project (a render can be moved between
 * projects, so the render module says where it is, not the row).
 */
export async function projectExports(deps: ListingContext, userId: string, projectId: string): Promise<ListingExportRow[]> {
  const rows = await currentRows(deps, userId).execute();
  const inProject: ListingExportRow[] = [];
  for (const row of rows) {
    const source = await deps.render.listingSource(userOwner(userId), row.job_id!).catch(() => null);
    if (source?.projectId === projectId) inProject.push(row);
  }
  return inProject.reverse();
}

async function removeFiles(
  deps: ListingContext,
  keys: Pick<ListingExportRow, "picture_key" | "altered_key" | "original_key">,
): Promise<void> {
  for (const key of [keys.picture_key, keys.altered_key, keys.original_key]) {
    if (key)
      await deps.storage
        .remove(UPLOAD_BUCKET, key)
        .catch((error: unknown) => deps.log.warn("could not remove a listing file", { key, error }));
  }
}

/**
 * Removes what deleted renders, projects and accounts left (rows whose reference became NULL, with
 * their files) and the files of revoked exports a crash left behind. Returns the rows removed.
 */
export async function sweepListingExports(deps: ListingContext): Promise<number> {
  const orphans = await deps.db
    .selectFrom("listing_exports")
    .selectAll()
    .where((eb) => eb.or([eb("job_id", "is", null), eb("user_id", "is", null)]))
    .execute();
  for (const row of orphans) await removeFiles(deps, row);
  if (orphans.length)
    await deps.db
      .deleteFrom("listing_exports")
      .where(
        "id",
        "in",
        orphans.map((row) => row.id),
      )
      .execute();
  const revoked = await deps.db
    .selectFrom("listing_exports")
    .selectAll()
    .where("revoked_at", "is not", null)
    .where("picture_key", "is not", null)
    .execute();
  for (const row of revoked) {
    await removeFiles(deps, row);
    await deps.db
      .updateTable("listing_exports")
      .set({ picture_key: null, altered_key: null, original_key: null })
      .where("id", "=", row.id)
      .execute();
  }
  return orphans.length;
}
