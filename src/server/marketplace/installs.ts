/**
 * Installs (decision 104): a listing copied into a space (the caller's personal one, or a team's where
 * they have the right manageStyles), once per space. The copies are ordinary styles of that space, made
 * by the styles module through a port; the install remembers the listing, the version copied and the
 * copies' ids. A newer version is offered as an update: accepted, the listing's content is written over
 * the copies (a copy since deleted is made again, a style the new version added is made); kept, the
 * space's copies stay as they are and that version is offered no more.
 */
import type { MarketplaceInstallView } from "../../shared/marketplace";
import { roleMay } from "../../shared/teams";
import { generateSecureRandomString } from "../auth/tokens";
import { lockName } from "../db/locking";
import { DomainError, notFound } from "../errors";
import { spaceKey, type MarketSpace, type MarketplaceContext } from "./context";
import { listingCopies, listingRow, type ListingRow } from "./rows";

function idsOf(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map((id) => (typeof id === "string" ? id : "")) : [];
  } catch {
    return [];
  }
}

/** The caller may see the space's installs: their personal space, or a team they are a member of (404 otherwise). */
async function enterSpace(deps: MarketplaceContext, space: MarketSpace, right?: "manageStyles"): Promise<void> {
  if (space.teamId === null) return;
  const role = await deps.teams.roleIn(space.userId, space.teamId);
  if (role === null) throw notFound();
  if (right && !roleMay(role, right)) throw new DomainError("forbidden", "teamRightMissing");
}

async function installRow(deps: Pick<MarketplaceContext, "db">, listingId: string, space: MarketSpace) {
  return deps.db
    .selectFrom("marketplace_installs")
    .selectAll()
    .where("listing_id", "=", listingId)
    .where("space_key", "=", spaceKey(space))
    .executeTakeFirst();
}

/** What the space has of the listing (null: not installed); the space must be one of the caller's. */
export async function installOf(
  deps: MarketplaceContext,
  space: MarketSpace,
  listing: Pick<ListingRow, "id" | "version">,
): Promise<MarketplaceInstallView | null> {
  await enterSpace(deps, space);
  const row = await installRow(deps, listing.id, space);
  if (!row) return null;
  return {
    teamId: row.team_id,
    version: row.version,
    updateAvailable: listing.version > row.version && row.kept_version !== listing.version,
    styleIds: idsOf(row.style_ids).filter((id) => id.length > 0),
    installedAt: row.installed_at,
  };
}

/** Copies the listing's styles into the space, once; the listing's install count counts the space. */
export async function install(deps: MarketplaceContext, space: MarketSpace, listingId: string): Promise<MarketplaceInstallView> {
  await enterSpace(deps, space, "manageStyles");
  const listing = await listingRow(deps, listingId);
  if (await installRow(deps, listingId, space)) throw new DomainError("conflict", "marketplaceAlreadyInstalled");
  const copies = await listingCopies(deps, listingId);
  // The styles module checks the right and the space's 50 again, all or nothing.
  const made = await deps.styles.insertCopies(space, copies);
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await lockName(trx, `marketplace_install:${listingId}:${spaceKey(space)}`);
      const already = await trx
        .selectFrom("marketplace_installs")
        .select("id")
        .where("listing_id", "=", listingId)
        .where("space_key", "=", spaceKey(space))
        .executeTakeFirst();
      if (already) throw new DomainError("conflict", "marketplaceAlreadyInstalled");
      await trx
        .insertInto("marketplace_installs")
        .values({
          id: `mi_${generateSecureRandomString()}`,
          listing_id: listingId,
          space_key: spaceKey(space),
          team_id: space.teamId,
          user_id: space.teamId === null ? space.userId : null,
          installed_by: space.userId,
          version: listing.version,
          kept_version: null,
          style_ids: JSON.stringify(made.map((style) => style.id)),
          installed_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .updateTable("marketplace_listings")
        .set((eb) => ({ install_count: eb("install_count", "+", 1) }))
        .where("id", "=", listingId)
        .execute();
    });
  } catch (error) {
    // Another install into this space won the race (or the listing went): the copies made here go.
    for (const style of made) await deps.styles.remove(space.userId, style.id).catch(() => undefined);
    if (error instanceof DomainError) throw error;
    throw new DomainError("conflict", "marketplaceAlreadyInstalled", { cause: error });
  }
  return (await installOf(deps, space, listing))!;
}

/** Takes the listing's newest version: its content written over the space's copies. */
export async function acceptUpdate(deps: MarketplaceContext, space: MarketSpace, listingId: string): Promise<MarketplaceInstallView> {
  await enterSpace(deps, space, "manageStyles");
  const listing = await listingRow(deps, listingId);
  const row = await installRow(deps, listingId, space);
  if (!row) throw new DomainError("not-found", "marketplaceNotInstalled");
  if (row.version >= listing.version) throw new DomainError("conflict", "marketplaceNoUpdate");
  const copies = await listingCopies(deps, listingId);
  const ids = idsOf(row.style_ids);
  const result: string[] = [];
  const missing: number[] = [];
  for (const [position, copy] of copies.entries()) {
    const id = ids[position];
    if (id) {
      try {
        result[position] = (await deps.styles.overwrite(space.userId, id, copy)).id;
        continue;
      } catch (error) {
        // A copy the space deleted (or moved out of reach) is made again.
        if (!(error instanceof DomainError) || error.kind !== "not-found") throw error;
      }
    }
    missing.push(position);
  }
  if (missing.length > 0) {
    const made = await deps.styles.insertCopies(
      space,
      missing.map((position) => copies[position]!),
    );
    for (const [index, position] of missing.entries()) result[position] = made[index]!.id;
  }
  // Copies of styles the new version no longer has stay the space's, outside the install.
  await deps.db
    .updateTable("marketplace_installs")
    .set({ version: listing.version, kept_version: null, style_ids: JSON.stringify(result), updated_at: deps.clock.now() })
    .where("id", "=", row.id)
    .execute();
  return (await installOf(deps, space, listing))!;
}

/** Keeps the space's copies as they are: the listing's newest version is not offered again. */
export async function keepOwn(deps: MarketplaceContext, space: MarketSpace, listingId: string): Promise<MarketplaceInstallView> {
  await enterSpace(deps, space, "manageStyles");
  const listing = await listingRow(deps, listingId);
  const row = await installRow(deps, listingId, space);
  if (!row) throw new DomainError("not-found", "marketplaceNotInstalled");
  if (row.version >= listing.version) throw new DomainError("conflict", "marketplaceNoUpdate");
  await deps.db
    .updateTable("marketplace_installs")
    .set({ kept_version: listing.version, updated_at: deps.clock.now() })
    .where("id", "=", row.id)
    .execute();
  return (await installOf(deps, space, listing))!;
}

/** The space's installs, newest first, with the listing's title and whether an update waits. */
export async function installsOf(
  deps: MarketplaceContext,
  space: MarketSpace,
): Promise<Array<MarketplaceInstallView & { listingId: string; title: string; listingVersion: number }>> {
  await enterSpace(deps, space);
  const disabled = await deps.people.disabledIds();
  const rows = await deps.db
    .selectFrom("marketplace_installs as i")
    .innerJoin("marketplace_listings as l", "l.id", "i.listing_id")
    .select([
      "i.listing_id",
      "i.team_id",
      "i.version",
      "i.kept_version",
      "i.style_ids",
      "i.installed_at",
      "l.title",
      "l.version as listing_version",
    ])
    .where("i.space_key", "=", spaceKey(space))
    // A disabled account's personal listing is not offered meanwhile (decision 113); its copies stay in the space.
    .$if(disabled.length > 0, (q) => q.where((eb) => eb.or([eb("l.user_id", "is", null), eb("l.user_id", "not in", disabled)])))
    .orderBy("i.installed_at", "desc")
    .orderBy("i.id", "desc")
    .execute();
  return rows.map((row) => ({
    listingId: row.listing_id,
    title: row.title,
    listingVersion: row.listing_version,
    teamId: row.team_id,
    version: row.version,
    updateAvailable: row.listing_version > row.version && row.kept_version !== row.listing_version,
    styleIds: idsOf(row.style_ids).filter((id) => id.length > 0),
    installedAt: row.installed_at,
  }));
}
