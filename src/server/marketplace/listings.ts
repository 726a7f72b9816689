/**
 * Listings (decision 104): published, browsed, read, published again as a new version, unpublished.
 * A listing is its space's (a team's: its Owner and Admins, the right manageStyles, publish and change
 * it; a personal one: its keeper). Everything shown is a copy made at publication: the styles' content
 * and pictures, the cover and the examples. Any signed-in user browses and reads every listing.
 */
import { sql } from "kysely";
import { STYLE_TONES, type CustomStyleId } from "../../shared/custom-styles";
import {
  MARKETPLACE,
  type MarketplaceBrowseInput,
  type MarketplaceListingSummary,
  type OwnMarketplaceListing,
  type MarketplaceListingView,
  type MarketplacePage,
  type MarketplacePublishInput,
  marketplaceBrowseSchema,
} from "../../shared/marketplace";
import { ROOM_TYPES, type RoomType } from "../../shared/styles";
import { roleMay } from "../../shared/teams";
import { generateSecureRandomString } from "../auth/tokens";
import { lockName } from "../db/locking";
import type { Database } from "../db/schema";
import { DomainError, notFound } from "../errors";
import { asBuffer, listingNotFound, listingRow, paletteOf, SUMMARY_COLUMNS, toneOf, type ListingRow } from "./rows";
import type { Transaction } from "kysely";
import type { MarketSpace, MarketplaceContext, StyleCopy } from "./context";
import { installOf } from "./installs";
import { copyPicture, type MarketPicture } from "./pictures";

const roomOf = (room: string): RoomType => ((ROOM_TYPES as readonly string[]).includes(room) ? (room as RoomType) : ROOM_TYPES[0]);

/** Lets the caller publish in the space: their personal one always; a team's with the right manageStyles. */
async function enterSpace(deps: MarketplaceContext, space: MarketSpace): Promise<void> {
  if (space.teamId === null) return;
  const role = await deps.teams.roleIn(space.userId, space.teamId);
  if (role === null) throw notFound();
  if (!roleMay(role, "manageStyles")) throw new DomainError("forbidden", "teamRightMissing");
}

/** Whether the caller may publish a new version of the listing or unpublish it. */
async function mayManage(deps: MarketplaceContext, userId: string, row: Pick<ListingRow, "team_id" | "user_id">): Promise<boolean> {
  if (row.team_id === null) return row.user_id === userId;
  const role = await deps.teams.roleIn(userId, row.team_id);
  return role !== null && roleMay(role, "manageStyles");
}

/** The listing for its manager: 404 for anyone who may not see it as theirs (a team's Member sees 403). */
async function managedListing(deps: MarketplaceContext, userId: string, listingId: string): Promise<ListingRow> {
  const row = await listingRow(deps, listingId);
  if (row.team_id === null) {
    if (row.user_id !== userId) throw listingNotFound();
    return row;
  }
  const role = await deps.teams.roleIn(userId, row.team_id);
  if (role === null) throw listingNotFound();
  if (!roleMay(role, "manageStyles")) throw new DomainError("forbidden", "teamRightMissing");
  return row;
}

interface Prepared {
  styles: Array<StyleCopy & { sourceId: string }>;
  cover: MarketPicture;
  examples: Array<MarketPicture & { roomType: RoomType }>;
}

/** The copies a publication keeps: the space's styles, and its finished renders' pictures made clean. */
async function prepare(deps: MarketplaceContext, space: MarketSpace, input: MarketplacePublishInput): Promise<Prepared> {
  const styles = [];
  for (const id of input.styleIds) styles.push({ ...(await deps.styles.read(space, id)), sourceId: id });
  const render = async (jobId: string) => {
    const found = await deps.renders.finished(space, jobId);
    const picture = found ? await copyPicture(found.picture) : null;
    if (!found || !picture) throw new DomainError("invalid", "marketplaceRenderNotUsable");
    return { ...picture, roomType: found.roomType };
  };
  const cover = await render(input.coverJobId);
  const examples = [];
  for (const id of input.exampleJobIds) examples.push(await render(id));
  return { styles, cover: { data: cover.data, width: cover.width, height: cover.height }, examples };
}

/** Writes a publication's copies and facets for the listing (its old ones removed first). */
async function writeCopies(trx: Transaction<Database>, listingId: string, prepared: Prepared): Promise<void> {
  await trx.deleteFrom("marketplace_listing_styles").where("listing_id", "=", listingId).execute();
  await trx.deleteFrom("marketplace_listing_examples").where("listing_id", "=", listingId).execute();
  await trx.deleteFrom("marketplace_listing_facets").where("listing_id", "=", listingId).execute();
  for (const [position, style] of prepared.styles.entries()) {
    await trx
      .insertInto("marketplace_listing_styles")
      .values({
        listing_id: listingId,
        position,
        source_style_id: style.sourceId,
        name: style.input.name,
        description: style.input.description,
        avoid: style.input.avoid,
        palette: JSON.stringify(style.input.palette),
        tone: style.input.tone,
        reference: style.reference?.data ?? null,
        reference_width: style.reference?.width ?? null,
        reference_height: style.reference?.height ?? null,
      })
      .execute();
  }
  for (const [position, example] of prepared.examples.entries()) {
    await trx
      .insertInto("marketplace_listing_examples")
      .values({
        listing_id: listingId,
        position,
        room_type: example.roomType,
        picture: example.data,
        width: example.width,
        height: example.height,
      })
      .execute();
  }
  const facets = new Set([
    ...prepared.styles.map((style) => `tone:${style.input.tone}`),
    ...prepared.examples.map((example) => `room:${example.roomType}`),
  ]);
  for (const facet of facets) await trx.insertInto("marketplace_listing_facets").values({ listing_id: listingId, facet }).execute();
}

/** A new listing of the space's styles (version 1). At most MARKETPLACE.perSpaceMax per space, counted under a lock. */
export async function publish(
  deps: MarketplaceContext,
  space: MarketSpace,
  input: MarketplacePublishInput,
): Promise<MarketplaceListingView> {
  await enterSpace(deps, space);
  const prepared = await prepare(deps, space, input);
  const now = deps.clock.now();
  const id = `${MARKETPLACE.idPrefix}${generateSecureRandomString()}`;
  await deps.db.transaction().execute(async (trx) => {
    await lockName(trx, `marketplace_listings:${space.teamId === null ? `u:${space.userId}` : `t:${space.teamId}`}`);
    const { count } = await trx
      .selectFrom("marketplace_listings")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where((eb) => (space.teamId === null ? eb("user_id", "=", space.userId) : eb("team_id", "=", space.teamId)))
      .executeTakeFirstOrThrow();
    if (Number(count) >= MARKETPLACE.perSpaceMax) throw new DomainError("conflict", "tooManyMarketplaceListings");
    await trx
      .insertInto("marketplace_listings")
      .values({
        id,
        team_id: space.teamId,
        user_id: space.teamId === null ? space.userId : null,
        created_by: space.userId,
        title: input.title,
        version: 1,
        install_count: 0,
        cover: prepared.cover.data,
        cover_width: prepared.cover.width,
        cover_height: prepared.cover.height,
        published_at: now,
        updated_at: now,
      })
      .execute();
    await writeCopies(trx, id, prepared);
  });
  return listingView(deps, space.userId, id, space.teamId);
}

/** A new version of the listing: everything replaced by new copies; installers are offered the update. */
export async function republish(
  deps: MarketplaceContext,
  userId: string,
  listingId: string,
  input: MarketplacePublishInput,
): Promise<MarketplaceListingView> {
  const row = await managedListing(deps, userId, listingId);
  const space = { userId, teamId: row.team_id };
  const prepared = await prepare(deps, space, input);
  await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("marketplace_listings")
      .set((eb) => ({
        title: input.title,
        version: eb("version", "+", 1),
        cover: prepared.cover.data,
        cover_width: prepared.cover.width,
        cover_height: prepared.cover.height,
        updated_at: deps.clock.now(),
      }))
      .where("id", "=", listingId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw listingNotFound();
    await writeCopies(trx, listingId, prepared);
  });
  return listingView(deps, userId, listingId, row.team_id);
}

/** Takes the listing off the marketplace: its copies go with it; installers keep the styles they installed. */
export async function unpublish(deps: MarketplaceContext, userId: string, listingId: string): Promise<void> {
  const row = await managedListing(deps, userId, listingId);
  await deps.db.deleteFrom("marketplace_listings").where("id", "=", row.id).execute();
}

type Cursor = { value: number; id: string };

function readCursor(text: string | null, sort: "newest" | "installs"): Cursor | null {
  if (!text) return null;
  const match = /^([ni]):(\d{1,16}):(ml_[a-z0-9]{20,40})$/.exec(text);
  if (!match || match[1] !== (sort === "newest" ? "n" : "i")) return null;
  return { value: Number(match[2]), id: match[3]! };
}

/** Summaries of these rows, in their order: styles, tones and rooms read in two queries for the page. */
async function summaries(deps: MarketplaceContext, userId: string, rows: ListingRow[]): Promise<MarketplaceListingSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const styles = await deps.db
    .selectFrom("marketplace_listing_styles")
    .select(["listing_id", "name", "tone", "palette"])
    .where("listing_id", "in", ids)
    .orderBy("listing_id")
    .orderBy("position")
    .execute();
  const facets = await deps.db
    .selectFrom("marketplace_listing_facets")
    .select(["listing_id", "facet"])
    .where("listing_id", "in", ids)
    .execute();
  const roles = new Map<string, boolean>();
  for (const teamId of new Set(rows.flatMap((row) => (row.team_id ? [row.team_id] : [])))) {
    roles.set(teamId, await mayManage(deps, userId, { team_id: teamId, user_id: null }));
  }
  return rows.map((row) => {
    const own = facets.filter((facet) => facet.listing_id === row.id).map((facet) => facet.facet);
    return {
      id: row.id,
      title: row.title,
      version: row.version,
      styles: styles
        .filter((style) => style.listing_id === row.id)
        .map((style) => ({ name: style.name, tone: toneOf(style.tone), palette: paletteOf(style.palette) })),
      tones: STYLE_TONES.filter((tone) => own.includes(`tone:${tone}`)),
      roomTypes: ROOM_TYPES.filter((room) => own.includes(`room:${room}`)),
      installCount: row.install_count,
      publishedAt: row.published_at,
      updatedAt: row.updated_at,
      mine: row.team_id === null ? row.user_id === userId : (roles.get(row.team_id) ?? false),
      teamId: row.team_id,
    };
  });
}

/** A page of listings, newest (latest version first) or most installed, filtered by room type and tone; keyset pages. */
export async function browse(deps: MarketplaceContext, userId: string, request: MarketplaceBrowseInput): Promise<MarketplacePage> {
  const { roomType, tone, sort, cursor: cursorText } = marketplaceBrowseSchema.parse(request);
  const column = sort === "newest" ? "updated_at" : "install_count";
  const cursor = readCursor(cursorText, sort);
  // A disabled account's personal listings are not offered while it is (decision 113); a team's stay the team's.
  const disabled = await deps.people.disabledIds();
  let query = deps.db
    .selectFrom("marketplace_listings")
    .select(SUMMARY_COLUMNS)
    .$if(disabled.length > 0, (q) => q.where((eb) => eb.or([eb("user_id", "is", null), eb("user_id", "not in", disabled)])));
  for (const facet of [roomType ? `room:${roomType}` : null, tone ? `tone:${tone}` : null]) {
    if (!facet) continue;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("marketplace_listing_facets as f")
          .select(sql<number>`1`.as("one"))
          .whereRef("f.listing_id", "=", "marketplace_listings.id")
          .where("f.facet", "=", facet),
      ),
    );
  }
  if (cursor) {
    query = query.where((eb) => eb.or([eb(column, "<", cursor.value), eb.and([eb(column, "=", cursor.value), eb("id", "<", cursor.id)])]));
  }
  const rows = await query
    .orderBy(column, "desc")
    .orderBy("id", "desc")
    .limit(MARKETPLACE.pageSize + 1)
    .execute();
  const page = rows.slice(0, MARKETPLACE.pageSize);
  const last = page.at(-1);
  const next = rows.length > MARKETPLACE.pageSize && last ? `${sort === "newest" ? "n" : "i"}:${last[column]}:${last.id}` : null;
  return { listings: await summaries(deps, userId, page), next };
}

/** The space's own listings (any member sees them), newest version first. */
export async function spaceListings(deps: MarketplaceContext, space: MarketSpace): Promise<OwnMarketplaceListing[]> {
  if (space.teamId !== null && (await deps.teams.roleIn(space.userId, space.teamId)) === null) throw notFound();
  const rows = await deps.db
    .selectFrom("marketplace_listings")
    .select(SUMMARY_COLUMNS)
    .where((eb) => (space.teamId === null ? eb("user_id", "=", space.userId) : eb("team_id", "=", space.teamId)))
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const sources = rows.length
    ? await deps.db
        .selectFrom("marketplace_listing_styles")
        .select(["listing_id", "source_style_id"])
        .where(
          "listing_id",
          "in",
          rows.map((row) => row.id),
        )
        .orderBy("listing_id")
        .orderBy("position")
        .execute()
    : [];
  const own = await summaries(deps, space.userId, rows);
  return own.map((summary) => ({
    ...summary,
    sourceStyleIds: sources.filter((source) => source.listing_id === summary.id).map((source) => source.source_style_id as CustomStyleId),
  }));
}

/** A listing's page: its styles, examples and install count, and what the space asked about has of it. */
export async function listingView(
  deps: MarketplaceContext,
  userId: string,
  listingId: string,
  teamId: string | null,
): Promise<MarketplaceListingView> {
  const row = await listingRow(deps, listingId);
  const [summary] = await summaries(deps, userId, [row]);
  const styles = await deps.db
    .selectFrom("marketplace_listing_styles")
    .select(["name", "description", "avoid", "palette", "tone", "reference_width"])
    .where("listing_id", "=", listingId)
    .orderBy("position")
    .execute();
  const examples = await deps.db
    .selectFrom("marketplace_listing_examples")
    .select(["position", "room_type", "width", "height"])
    .where("listing_id", "=", listingId)
    .orderBy("position")
    .execute();
  return {
    ...summary!,
    styles: styles.map((style) => ({
      name: style.name,
      description: style.description,
      avoid: style.avoid,
      palette: paletteOf(style.palette),
      tone: toneOf(style.tone),
      hasReference: style.reference_width !== null,
    })),
    examples: examples.map((example) => ({
      number: example.position + 1,
      roomType: roomOf(example.room_type),
      width: example.width,
      height: example.height,
    })),
    installed: await installOf(deps, { userId, teamId }, row),
  };
}

/** A listing's cover, or its example number `number` (1 to 6), for any signed-in user; 404 otherwise. */
export async function listingPicture(deps: MarketplaceContext, listingId: string, picture: "cover" | number): Promise<Buffer> {
  // The listing as anyone may see it (not found when gone, or while its account is disabled).
  await listingRow(deps, listingId);
  if (picture === "cover") {
    const row = await deps.db.selectFrom("marketplace_listings").select("cover").where("id", "=", listingId).executeTakeFirst();
    if (!row) throw listingNotFound();
    return asBuffer(row.cover);
  }
  const row = await deps.db
    .selectFrom("marketplace_listing_examples")
    .select("picture")
    .where("listing_id", "=", listingId)
    .where("position", "=", picture - 1)
    .executeTakeFirst();
  if (!row) throw notFound();
  return asBuffer(row.picture);
}
