/** The listings' rows as the module's parts read them. */
import { STYLE_TONES, type StyleTone } from "../../shared/custom-styles";
import { marketplaceListingIdSchema } from "../../shared/marketplace";
import type { MarketplaceListingsTable } from "../db/schema";
import { DomainError } from "../errors";
import type { MarketplaceContext, StyleCopy } from "./context";

export const listingNotFound = () => new DomainError("not-found", "marketplaceListingNotFound");

export const SUMMARY_COLUMNS = [
  "id",
  "team_id",
  "user_id",
  "created_by",
  "title",
  "version",
  "install_count",
  "published_at",
  "updated_at",
] as const;
export type ListingRow = Pick<MarketplaceListingsTable, (typeof SUMMARY_COLUMNS)[number]>;

export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function paletteOf(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((colour): colour is string => typeof colour === "string") : [];
  } catch {
    return [];
  }
}
export const toneOf = (tone: string): StyleTone => ((STYLE_TONES as readonly string[]).includes(tone) ? (tone as StyleTone) : "neutral");

export async function listingRow(deps: Pick<MarketplaceContext, "db" | "people">, listingId: string): Promise<ListingRow> {
  if (!marketplaceListingIdSchema.safeParse(listingId).success) throw listingNotFound();
  const row = await deps.db.selectFrom("marketplace_listings").select(SUMMARY_COLUMNS).where("id", "=", listingId).executeTakeFirst();
  if (!row || (row.user_id !== null && (await deps.people.disabledIds()).includes(row.user_id))) throw listingNotFound();
  return row;
}

/** A listing's styles as copies to install (content and pictures), in order. */
export async function listingCopies(deps: Pick<MarketplaceContext, "db">, listingId: string): Promise<StyleCopy[]> {
  const rows = await deps.db
    .selectFrom("marketplace_listing_styles")
    .selectAll()
    .where("listing_id", "=", listingId)
    .orderBy("position")
    .execute();
  return rows.map((row) => ({
    input: { name: row.name, description: row.description, avoid: row.avoid, palette: paletteOf(row.palette), tone: toneOf(row.tone) },
    reference:
      row.reference && row.reference_width !== null && row.reference_height !== null
        ? { data: asBuffer(row.reference), width: row.reference_width, height: row.reference_height }
        : null,
  }));
}
