/**
 * Publishing a render (decision 102): who may, the copies the public pages serve (made with sharp,
 * every piece of metadata left behind: no EXIF location, no camera), unpublishing, and the files.
 * A publication's pictures are reachable only while it is published and not hidden: every public
 * read goes through `visiblePublication`.
 */
import sharp from "sharp";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { COMMUNITY, SHARE, publicationIdSchema, type PublicationLayout, type PublishInput } from "../../shared/community";
import { roleMay } from "../../shared/teams";
import { generateSecureRandomString } from "../auth/tokens";
import { MAX_INPUT_PIXELS } from "../images/prepare-upload";
import { isUniqueViolation } from "../db/errors";
import type { Publication } from "../db/schema";
import { DomainError } from "../errors";
import type { CommunityContext } from "./context";

export const publicationNotFound = () => new DomainError("not-found", "publicationNotFound");

/** The publication while it is published and not hidden; not found otherwise (for everyone, its publisher included). */
export async function visiblePublication(deps: Pick<CommunityContext, "db" | "people">, id: string): Promise<Publication> {
  if (!publicationIdSchema.safeParse(id).success) throw publicationNotFound();
  const row = await deps.db.selectFrom("publications").selectAll().where("id", "=", id).where("hidden_at", "is", null).executeTakeFirst();
  if (!row || (await deps.people.disabledIds()).includes(row.user_id)) throw publicationNotFound();
  return row;
}

/**
 * The publishers whose publications are not shown: accounts an admin has disabled (decision 113).
 * A query's `where("user_id", "not in", …)` needs at least one id: a list that matches nobody stands in.
 */
export async function withdrawnPublishers(deps: Pick<CommunityContext, "people">): Promise<string[]> {
  const ids = await deps.people.disabledIds();
  return ids.length > 0 ? ids : [""];
}

export async function isBlocked(deps: Pick<CommunityContext, "db">, userId: string): Promise<boolean> {
  return (await deps.db.selectFrom("publishing_blocks").select("user_id").where("user_id", "=", userId).executeTakeFirst()) !== undefined;
}

/**
 * A copy for the public pages: turned upright, at most COMMUNITY.copyLongEdge a side, a JPEG
 * without any of the source's metadata (sharp keeps none unless asked: no EXIF, no XMP, no ICC).
 */
export async function strippedCopy(data: Buffer): Promise<Buffer> {
  return sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({ width: COMMUNITY.copyLongEdge, height: COMMUNITY.copyLongEdge, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Ids are lower case (generateSecureRandomString; migration 0044's random hex), as storage keys must be. */
const copyKey = (id: string, variant: "before" | "after" | "card") => `community/${id}/${variant}.jpg`;

/**
 * The share card (decision 106): 1200×630, what Open Graph and Twitter's large card show. Before and
 * after side by side (each half cover-cropped, a thin white line between), or the after picture alone.
 * Made from the stripped copies, so it carries no metadata either.
 */
async function shareCard(after: Buffer, before: Buffer | null): Promise<Buffer> {
  const { cardWidth: width, cardHeight: height } = SHARE;
  const cover = (data: Buffer, w: number) => sharp(data).resize({ width: w, height, fit: "cover", position: "centre" }).toBuffer();
  // Each half loses two pixels to the line between them.
  const half = width / 2 - 2;
  const layers = before
    ? [
        { input: await cover(before, half), left: 0, top: 0 },
        { input: await cover(after, half), left: width - half, top: 0 },
      ]
    : [{ input: await cover(after, width), left: 0, top: 0 }];
  return sharp({ create: { width, height, channels: 3, background: "#ffffff" } })
    .composite(layers)
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Makes and stores the publication's copies from its render; the keys, or null when the render's pictures are gone. */
async function makeCopies(
  deps: CommunityContext,
  id: string,
  jobId: string,
  layout: PublicationLayout,
): Promise<{ before_key: string | null; after_key: string } | null> {
  const pictures = await deps.renders.pictures(jobId);
  if (!pictures) return null;
  const after = await strippedCopy(pictures.after);
  const before = layout === "before-after" ? await strippedCopy(pictures.before) : null;
  await deps.storage.put(UPLOAD_BUCKET, copyKey(id, "after"), after, "image/jpeg");
  if (before) await deps.storage.put(UPLOAD_BUCKET, copyKey(id, "before"), before, "image/jpeg");
  return { before_key: before ? copyKey(id, "before") : null, after_key: copyKey(id, "after") };
}

async function removeCopies(deps: Pick<CommunityContext, "storage" | "log">, keys: Array<string | null>): Promise<void> {
  for (const key of keys) {
    if (key) {
      await deps.storage
        .remove(UPLOAD_BUCKET, key)
        .catch((error: unknown) => deps.log.warn("could not remove a published copy", { key, error }));
    }
  }
}

/** Whether the user may publish (and unpublish) in the space: their own, or a team's with the right publishWork. */
async function mayPublishIn(deps: CommunityContext, userId: string, space: { userId: string | null; teamId: string | null }) {
  if (space.teamId === null) return space.userId === userId;
  return roleMay(await deps.spaces.roleIn(userId, space.teamId), "publishWork");
}

export async function publish(deps: CommunityContext, userId: string, input: PublishInput): Promise<{ id: string }> {
  if (await isBlocked(deps, userId)) throw new DomainError("forbidden", "publishingBlocked");
  const source = await deps.renders.source(userId, input.jobId);
  if (!(await mayPublishIn(deps, userId, source))) throw new DomainError("forbidden", "teamRightMissing");
  if (!source.succeeded || source.style === "") throw new DomainError("conflict", "publicationNotPossible");
  const existing = await deps.db.selectFrom("publications").select("id").where("job_id", "=", source.jobId).executeTakeFirst();
  if (existing) throw new DomainError("conflict", "alreadyPublished");
  const id = `${COMMUNITY.idPrefix}${generateSecureRandomString()}`;
  const copies = await makeCopies(deps, id, source.jobId, input.layout);
  if (!copies) throw new DomainError("conflict", "publicationNotPossible");
  try {
    await deps.db
      .insertInto("publications")
      .values({
        id,
        job_id: source.jobId,
        user_id: userId,
        team_id: source.teamId,
        title: input.title,
        layout: input.layout,
        show_name: input.showName ? 1 : 0,
        style: source.style,
        style_name: source.styleName,
        room_type: source.roomType,
        before_key: copies.before_key,
        after_key: copies.after_key,
        published_at: deps.clock.now(),
        hidden_at: null,
        hidden_by: null,
      })
      .execute();
  } catch (error) {
    await removeCopies(deps, [copies.before_key, copies.after_key]);
    // Published meanwhile by another request.
    if (isUniqueViolation(error)) throw new DomainError("conflict", "alreadyPublished");
    throw error;
  }
  return { id };
}

/** Removes the publication at once (its likes, saves and reports with it) and deletes its copies. */
export async function unpublish(deps: CommunityContext, userId: string, id: string): Promise<void> {
  if (!publicationIdSchema.safeParse(id).success) throw publicationNotFound();
  const row = await deps.db.selectFrom("publications").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw publicationNotFound();
  if (!(await mayPublishIn(deps, userId, { userId: row.user_id, teamId: row.team_id }))) {
    // A member of the team who may not publish is refused; anybody else learns nothing.
    if (row.team_id !== null && (await deps.spaces.roleIn(userId, row.team_id)) !== null) {
      throw new DomainError("forbidden", "teamRightMissing");
    }
    throw publicationNotFound();
  }
  await deps.db.deleteFrom("publications").where("id", "=", id).execute();
  await removeCopies(deps, [row.before_key, row.after_key, copyKey(row.id, "card")]);
}

/** Passes a member's publications of the team's work to another member (its Owner), as their work passes (decision 070). */
export async function handOverTeamPublications(
  deps: Pick<CommunityContext, "db">,
  fromUserId: string,
  teamId: string,
  toUserId: string,
): Promise<void> {
  await deps.db
    .updateTable("publications")
    .set({ user_id: toUserId })
    .where("user_id", "=", fromUserId)
    .where("team_id", "=", teamId)
    .execute();
}

/** A render's publication as its publish dialog shows it, and whether the caller may publish it. */
export async function publicationOfRender(deps: CommunityContext, userId: string, jobId: string) {
  const source = await deps.renders.source(userId, jobId);
  const row = await deps.db.selectFrom("publications").selectAll().where("job_id", "=", source.jobId).executeTakeFirst();
  return {
    mayPublish: await mayPublishIn(deps, userId, source),
    blocked: await isBlocked(deps, userId),
    publishable: source.succeeded && source.style !== "",
    /** A team's render: "show the name" shows the studio's. */
    teamRender: source.teamId !== null,
    publication: row
      ? {
          id: row.id,
          title: row.title,
          layout: row.layout as PublicationLayout,
          showName: row.show_name === 1,
          hidden: row.hidden_at !== null,
        }
      : null,
  };
}

/**
 * A published picture's bytes (a JPEG), for the public file route; not found when the publication is
 * not published, is hidden, or has no "before" (after only). The gallery's renders moved by migration
 * 0044 have their copies made here, on the first request.
 */
export async function publicationFile(deps: CommunityContext, id: string, variant: string): Promise<Buffer> {
  if (variant !== "before" && variant !== "after" && variant !== "card") throw publicationNotFound();
  let row = await visiblePublication(deps, id);
  if (variant === "before" && row.layout !== "before-after") throw publicationNotFound();
  if (row.after_key === null) {
    const copies = await makeCopies(deps, row.id, row.job_id, row.layout as PublicationLayout);
    if (!copies) throw publicationNotFound();
    const updated = await deps.db
      .updateTable("publications")
      .set(copies)
      .where("id", "=", row.id)
      .where("after_key", "is", null)
      .executeTakeFirst();
    // Another request made them first (same keys, same content) or the publication went meanwhile.
    if (Number(updated.numUpdatedRows) === 0) {
      const now = await deps.db.selectFrom("publications").selectAll().where("id", "=", row.id).executeTakeFirst();
      if (!now) {
        await removeCopies(deps, [copies.before_key, copies.after_key]);
        throw publicationNotFound();
      }
    }
    row = await visiblePublication(deps, id);
  }
  if (variant === "card") return card(deps, row);
  const key = variant === "before" ? row.before_key : row.after_key;
  const stored = key ? await deps.storage.get(UPLOAD_BUCKET, key) : null;
  if (!stored) throw publicationNotFound();
  return stored.data;
}

/** The publication's share card, made on its first request and kept with its copies (removed with them). */
async function card(deps: CommunityContext, row: Publication): Promise<Buffer> {
  const key = copyKey(row.id, "card");
  const stored = await deps.storage.get(UPLOAD_BUCKET, key);
  if (stored) return stored.data;
  const after = row.after_key ? await deps.storage.get(UPLOAD_BUCKET, row.after_key) : null;
  const before = row.layout === "before-after" && row.before_key ? await deps.storage.get(UPLOAD_BUCKET, row.before_key) : null;
  if (!after || (row.layout === "before-after" && !before)) throw publicationNotFound();
  const made = await shareCard(after.data, before?.data ?? null);
  // Two first requests at once make the same card; the second write changes nothing.
  await deps.storage.put(UPLOAD_BUCKET, key, made, "image/jpeg");
  // Unpublished while it was being made: its copies were removed before this card was stored.
  const still = await deps.db.selectFrom("publications").select("id").where("id", "=", row.id).executeTakeFirst();
  if (!still) {
    await removeCopies(deps, [key]);
    throw publicationNotFound();
  }
  return made;
}

const DAY_MS = 86_400_000;

/**
 * Copies whose publication is gone without its files being removed (its render was deleted, which
 * removes the publication with it; a crash between the row and the files), once a day old.
 */
export async function removeOrphanCopies(deps: Pick<CommunityContext, "db" | "clock" | "storage" | "log">): Promise<number> {
  if (!deps.storage.list) return 0;
  const before = deps.clock.now() - DAY_MS;
  const byId = new Map<string, string[]>();
  for await (const object of deps.storage.list(UPLOAD_BUCKET)) {
    const [folder, id] = object.key.split("/");
    if (folder !== "community" || !id || object.modifiedAt >= before) continue;
    byId.set(id, [...(byId.get(id) ?? []), object.key]);
  }
  if (byId.size === 0) return 0;
  const known = new Set<string>();
  const ids = [...byId.keys()];
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await deps.db
      .selectFrom("publications")
      .select("id")
      .where("id", "in", ids.slice(start, start + 500))
      .execute();
    for (const row of rows) known.add(row.id);
  }
  let removed = 0;
  for (const [id, keys] of byId) {
    if (known.has(id)) continue;
    await removeCopies(deps, keys);
    removed += keys.length;
  }
  return removed;
}
