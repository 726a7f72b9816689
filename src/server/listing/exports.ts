/**
 * Listing exports, the rows of listing_exports and their three files: the picture with its
 * disclosure (downloaded by the owner), the render and the original as the public page shows them.
 * Only signed-in users export (the router refuses visitors). Revoking keeps the row and removes the
 * files; a deleted render, project or account turns the row's reference to NULL (foreign keys), so
 * the public page answers 404 at once, and sweepListingExports() removes what is left.
 */
import { isBuiltInStyle } from "../../shared/custom-styles";
import { randomBytes, randomUUID } from "node:crypto";
import { UPLOAD_BUCKET, type Language } from "../../shared/constants";
import { defaultDisclosure, LISTING, LISTING_ROUTES } from "../../shared/listing";
import type { RenderMode } from "../../shared/render";
import { fileNamePrefix } from "../../shared/studio";
import type { ListingExportsTable } from "../db/schema";
import type { Selectable } from "kysely";
import { DomainError, notFound } from "../errors";
import { aiEditedXmp, describedXmp } from "../images/provenance";
import { roleMay } from "../../shared/teams";
import { userOwner, type ListingSource } from "../render";
import type { ListingContext } from "./context";
import { paintLabel, previewEngineName, styleName } from "./names";
import { personalSpaceKey, recordSpaceEvent, teamSpaceKey } from "../space-events";
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

/** The XMP description's words per language; names come from names.ts (what users see). */
const XMP_TEXTS: Record<
  Language,
  {
    colon: string;
    previewPhoto: string;
    aiPhoto: string;
    graded: (style: string | null) => string;
    tinted: string;
    repainted: string;
    paintColours: string;
    alterations: Record<RenderMode, string>;
    style: (name: string) => string;
    engine: string;
    model: string;
    upscaled: (model: string, engine: string) => string;
    disclosure: string;
    original: string;
  }
> = {
  en: {
    colon: ": ",
    previewPhoto: "Digitally altered room photo",
    aiPhoto: "Room photo edited with AI",
    graded: (style) => (style ? `colour and light graded in the ${style} style` : "colour and light graded"),
    tinted: "a painted region tinted",
    repainted: "a painted region repainted",
    paintColours: "paint colours",
    alterations: {
      stage: "virtually staged (furniture added)",
      declutter: "objects removed",
      redesign: "finishes and furnishings restyled",
      sky: "sky replaced",
      twilight: "sky and lighting changed to twilight, windows lit",
      garden: "lawn and planting refreshed",
    },
    style: (name) => `${name} style`,
    engine: "Engine",
    model: "model",
    upscaled: (model, engine) => `AI-upscaled with ${model} on ${engine}`,
    disclosure: "Disclosure",
    original: "Unaltered original",
  },
  es: {
    colon: ": ",
    previewPhoto: "Foto de la estancia modificada digitalmente",
    aiPhoto: "Foto de la estancia editada con IA",
    graded: (style) => (style ? `colores y luz ajustados al estilo ${style}` : "colores y luz ajustados"),
    tinted: "una zona pintada teñida",
    repainted: "una zona pintada redibujada",
    paintColours: "colores de pintura",
    alterations: {
      stage: "amueblada virtualmente (muebles añadidos)",
      declutter: "objetos retirados",
      redesign: "acabados y mobiliario rediseñados",
      sky: "cielo reemplazado",
      twilight: "cielo e iluminación cambiados a crepúsculo, ventanas iluminadas",
      garden: "césped y plantas renovados",
    },
    style: (name) => `estilo ${name}`,
    engine: "Motor",
    model: "modelo",
    upscaled: (model, engine) => `ampliada con IA con ${model} en ${engine}`,
    disclosure: "Aviso",
    original: "Original sin modificar",
  },
  fr: {
    colon: "\u00a0: ",
    previewPhoto: "Photo de la pièce modifiée numériquement",
    aiPhoto: "Photo de la pièce retouchée par IA",
    graded: (style) => (style ? `couleurs et lumière ajustées au style ${style}` : "couleurs et lumière ajustées"),
    tinted: "une zone peinte teintée",
    repainted: "une zone peinte redessinée",
    paintColours: "couleurs de peinture",
    alterations: {
      stage: "meublée virtuellement (meubles ajoutés)",
      declutter: "objets retirés",
      redesign: "finitions et mobilier repensés",
      sky: "ciel remplacé",
      twilight: "ciel et éclairage passés au crépuscule, fenêtres éclairées",
      garden: "pelouse et plantations rafraîchies",
    },
    style: (name) => `style ${name}`,
    engine: "Moteur",
    model: "modèle",
    upscaled: (model, engine) => `agrandie par IA avec ${model} sur ${engine}`,
    disclosure: "Mention",
    original: "Original non retouché",
  },
};

/**
 * The XMP description, in the export's language with the names users see (the style's display
 * name, the engine as the app names it): what was changed and where the original is. AI renders
 * also name the model and carry IPTC's DigitalSourceType; the Preview engine only grades colours,
 * says so, and is never called AI (no DigitalSourceType, no "AI" in its words).
 */
/** An engine as the export's language names it (the Preview engine's name is translated). */
const engineName = (engine: { id: string; label: string }, language: Language) =>
  engine.id === "local" ? previewEngineName(language) : engine.label;

export function provenanceXmp(
  source: ListingSource,
  disclosure: string,
  publicUrl: string,
  language: Language,
  /** The exact paint colours in the picture's making, as named in the export's language (issue 33). */
  paints: readonly string[] = [],
): string {
  const words = XMP_TEXTS[language];
  const painted = paints.length ? ` (${words.paintColours}${words.colon}${paints.join(", ")})` : "";
  const said = (label: string, value: string) => `${label}${words.colon}${value}`;
  const style =
    source.style === null ? null : (source.styleName ?? (isBuiltInStyle(source.style) ? styleName(source.style, language) : null));
  const tail = ` ${said(words.disclosure, `"${disclosure}"`)}. ${said(words.original, publicUrl)}`;
  const upscale = source.upscale ? `; ${words.upscaled(source.upscale.model, engineName(source.upscale.engine, language))}` : "";
  if (!source.engine.isAi) {
    const change = source.kind === "edit" ? `${words.tinted}${painted}` : words.graded(style);
    const text = `${said(words.previewPhoto, change)}. ${said(words.engine, `${previewEngineName(language)}${upscale}`)}.${tail}`;
    // The Preview engine is not AI; an AI upscale of its picture is, and says so.
    return source.upscale?.engine.isAi ? aiEditedXmp(text) : describedXmp(text);
  }
  // ComfyUI's label already names its checkpoint: the model is said once.
  const model =
    source.model && !source.engine.label.includes(source.model)
      ? `, ${words.model} ${source.model}${source.modelVersion ? ` (${source.modelVersion})` : ""}`
      : "";
  const alteration = source.kind === "edit" ? `${words.repainted}${painted}` : words.alterations[source.renderMode];
  const styled = style ? `, ${words.style(style)}` : "";
  return aiEditedXmp(
    `${said(words.aiPhoto, `${alteration}${styled}`)}. ${said(words.engine, `${source.engine.label}${model}${upscale}`)}.${tail}`,
  );
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
  baseUrl: string | null,
): Promise<ListingExportView> {
  if (baseUrl === null) {
    // The QR code is printed and followed for years: never to a host named only by the request's Host header.
    deps.log.warn(
      "a listing export was refused: the request came for a host this server does not know; set PUBLIC_URL (or ALLOWED_HOSTS) to the address users reach it at",
    );
    throw new DomainError("not-configured", "listingNoPublicAddress");
  }
  const source = await deps.render.listingSource(userOwner(userId), input.jobId);
  await deps.diskFloor.ensureRoom();
  const disclosure = cleanDisclosure(input.disclosure ?? defaultDisclosure(input.language, source.renderMode));
  const [result, original] = await Promise.all([readStored(deps, source.resultKey), readStored(deps, source.originalKey)]);

  const id = randomUUID();
  const code = randomBytes((LISTING.codeLength * 6) / 8).toString("base64url");
  const publicUrl = `${baseUrl.replace(/\/+$/, "")}${LISTING_ROUTES.page(code)}`;
  const paints = (await deps.render.paintsInMaking([source.jobId])).get(source.jobId) ?? [];
  const xmp = provenanceXmp(
    source,
    disclosure,
    publicUrl,
    input.language,
    paints.map((paint) => paintLabel(paint, input.language)),
  );
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
    // The export and its space event (listing.created webhooks: decision 098) exist together or not at all.
    const row = await deps.db.transaction().execute(async (trx) => {
      const made = await trx
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
          file_name: `${fileNamePrefix(deps.brandName())}-listing-${source.style ?? source.kind}-${id.slice(0, 8)}.jpg`,
          created_at: deps.clock.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const space = source.teamId ? teamSpaceKey(source.teamId) : personalSpaceKey(userId);
      await recordSpaceEvent(trx, space, { type: "listing.created", teamId: source.teamId ?? null, exportId: id }, made.created_at);
      return made;
    });
    return exportView(row);
  } catch (error) {
    await removeFiles(deps, keys);
    throw error;
  }
}

/**
 * The current (not revoked) exports of a render, newest first: the user's own, or every member's of a
 * team's render; none of a render they may not use (someone else's, or a team's they left: decision 070).
 */
export async function exportsOfJob(deps: ListingContext, userId: string, jobId: string): Promise<ListingExportView[]> {
  const source = await sourceFor(deps, userId, jobId);
  if (source === "none") return [];
  // A team's render: every member sees its exports, whoever made them (decision 070).
  const rows = await currentRows(deps, source?.teamId ? null : userId)
    .where("job_id", "=", jobId)
    .execute();
  return rows.map(exportView);
}

/** Current exports (of one author, or of anyone with null), newest first. */
function currentRows(deps: ListingContext, userId: string | null) {
  let query = deps.db.selectFrom("listing_exports").selectAll();
  if (userId !== null) query = query.where("user_id", "=", userId);
  return query.where("job_id", "is not", null).where("revoked_at", "is", null).orderBy("created_at", "desc").orderBy("id");
}

/** The render as the user may see it; "none" when they may not; null when it cannot be read now (not finished). */
async function sourceFor(deps: ListingContext, userId: string, jobId: string): Promise<ListingSource | "none" | null> {
  return deps.render.listingSource(userOwner(userId), jobId).then(
    (source) => source,
    (error: unknown) => (error instanceof DomainError && error.kind === "not-found" ? ("none" as const) : null),
  );
}

/**
 * One current export the user may manage, or "Not found": their own, or, for a team's render they
 * still may use, any member's when they are its Owner or an Admin (so a departed member's page can
 * be taken down).
 */
export async function ownedExport(deps: ListingContext, userId: string, exportId: string): Promise<ListingExportRow> {
  const row = await currentRows(deps, null).where("id", "=", exportId).executeTakeFirst();
  if (!row) throw notFound();
  const source = await sourceFor(deps, userId, row.job_id!);
  if (source === "none") throw notFound();
  if (row.user_id === userId) return row;
  const teamId = source?.teamId ?? null;
  const role = teamId && deps.teams ? await deps.teams.roleIn(userId, teamId) : null;
  if (!roleMay(role, "manageMembers")) throw notFound();
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
/**
 * A listing export of every finished picture of a set ("Apply to the whole project"), in one
 * language with one disclosure (each picture's default when none is given). Returns the exports
 * made; the set's zip holds them.
 */
export async function createSetExports(
  deps: ListingContext,
  userId: string,
  input: { setId: string; disclosure?: string; language: Language },
  baseUrl: string | null,
): Promise<ListingExportView[]> {
  const { jobIds } = await deps.render.setPictures(userOwner(userId), input.setId);
  if (jobIds.length === 0) throw new DomainError("conflict", "renderNotFinished");
  const made: ListingExportView[] = [];
  for (const jobId of jobIds) made.push(await createExport(deps, userId, { ...input, jobId }, baseUrl));
  return made;
}

/** The current exports of a set's pictures (the newest of each picture), for the set's zip. */
export async function setExports(deps: ListingContext, userId: string, setId: string): Promise<ListingExportRow[]> {
  const { projectId, jobIds } = await deps.render.setPictures(userOwner(userId), setId);
  const newest = new Map<string, ListingExportRow>();
  for (const row of await projectExports(deps, userId, projectId)) {
    if (row.job_id && jobIds.includes(row.job_id) && (newest.get(row.job_id)?.created_at ?? -1) < row.created_at)
      newest.set(row.job_id, row);
  }
  return jobIds.flatMap((jobId) => newest.get(jobId) ?? []);
}

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
