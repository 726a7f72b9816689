/**
 * Style packs (decision 104, docs/style-pack-format.md): a space's styles exported as a zip of
 * manifest.json and their reference pictures, and such a zip imported into a space, all or nothing.
 * Reading a pack checks, in this order, what costs least first: its size, the number of entries (the
 * zip's end record), each entry's path and declared size, the manifest (schema: the limits of styles
 * made by hand), then each picture, unpacked with a counter and prepared exactly as a reference picture
 * sent on its own (sniffed, decoded by sharp within the uploads' pixel limit, kept as a clean JPEG).
 * Every refusal is a DomainError with a stylePack* message: 400, or 413 for sizes; never a 500.
 */
import {
  STYLE_PACK_PICTURE,
  STYLE_PACKS,
  stylePackManifestSchema,
  stylePackStyleSchema,
  type StylePackStyle,
} from "../../shared/style-packs";
import type { CustomStyleInput } from "../../shared/custom-styles";
import { DomainError } from "../errors";
import { listZip, readZipEntry, writeZip, ZipRefused, type ZipEntry, type ZipFile } from "./pack-zip";
import { prepareReference, type PreparedReference } from "./reference";

/** A style read from a pack, ready to keep: its fields and its prepared picture (null: none). */
export interface PackedStyle {
  input: CustomStyleInput;
  reference: Extract<PreparedReference, { ok: true }> | null;
}

const refusal = (reason: ZipRefused["reason"]) =>
  ({
    unreadable: new DomainError("invalid", "stylePackUnreadable"),
    "too-many-entries": new DomainError("invalid", "stylePackTooManyEntries"),
    "too-large": new DomainError("too-large", "stylePackTooLargeUnpacked"),
  })[reason];

/** A name a pack may hold: the manifest, a picture's name, or the pictures/ folder itself. */
function pathAllowed(name: string): boolean {
  return name === STYLE_PACKS.manifestName || name === "pictures/" || STYLE_PACK_PICTURE.test(name);
}

/**
 * The pack's entries by name, after the checks that need no unpacking: the number of entries, every
 * path (no "..", no absolute path, no backslash, nothing but the manifest and pictures/), declared sizes.
 */
function entriesOf(zip: Buffer): Map<string, ZipEntry> {
  let listed: ZipEntry[];
  try {
    listed = listZip(zip, {
      maxEntries: STYLE_PACKS.maxEntries,
      maxEntryBytes: STYLE_PACKS.pictureMaxBytes,
      maxTotalBytes: STYLE_PACKS.totalMaxBytes,
    });
  } catch (error) {
    if (error instanceof ZipRefused) throw refusal(error.reason);
    throw error;
  }
  const entries = new Map<string, ZipEntry>();
  for (const entry of listed) {
    // Two entries of one name: which one is meant is not ours to guess.
    if (!pathAllowed(entry.name) || entries.has(entry.name) || (entry.name === "pictures/" && entry.size > 0))
      throw new DomainError("invalid", "stylePackPathRefused");
    entries.set(entry.name, entry);
  }
  return entries;
}

async function unpack(zip: Buffer, entry: ZipEntry): Promise<Buffer> {
  try {
    return await readZipEntry(zip, entry);
  } catch (error) {
    if (error instanceof ZipRefused) throw refusal(error.reason);
    throw error;
  }
}

/** The manifest's styles, each checked as a style made by hand would be, with its picture's name. */
async function manifestOf(zip: Buffer, entries: Map<string, ZipEntry>): Promise<StylePackStyle[]> {
  const entry = entries.get(STYLE_PACKS.manifestName);
  if (!entry) throw new DomainError("invalid", "stylePackUnreadable");
  if (entry.size > STYLE_PACKS.manifestMaxBytes) throw new DomainError("too-large", "stylePackTooLargeUnpacked");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(await unpack(zip, entry)));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError("invalid", "stylePackUnreadable");
  }
  const manifest = stylePackManifestSchema.safeParse(json);
  if (!manifest.success) throw new DomainError("invalid", "stylePackUnreadable");
  const { styles } = manifest.data;
  if (styles.length === 0) throw new DomainError("invalid", "stylePackEmpty");
  if (styles.length > STYLE_PACKS.maxStyles) throw new DomainError("invalid", "stylePackTooManyEntries");
  const checked: StylePackStyle[] = [];
  for (const [index, raw] of styles.entries()) {
    // A picture's name outside pictures/ (a path out of the pack) says so, not that the style is invalid.
    const reference = typeof raw === "object" && raw !== null ? (raw as { reference?: unknown }).reference : undefined;
    if (reference !== undefined && reference !== null && (typeof reference !== "string" || !STYLE_PACK_PICTURE.test(reference))) {
      throw new DomainError("invalid", "stylePackPathRefused");
    }
    const style = stylePackStyleSchema.safeParse(raw);
    if (!style.success) throw new DomainError("invalid", "stylePackStyleInvalid", { params: { number: index + 1 } });
    checked.push(style.data);
  }
  // Every file is the manifest or a picture it names, and every picture it names is there.
  const named = new Set(checked.flatMap((style) => (style.reference ? [style.reference] : [])));
  for (const name of entries.keys()) {
    if (name !== STYLE_PACKS.manifestName && name !== "pictures/" && !named.has(name))
      throw new DomainError("invalid", "stylePackPathRefused");
  }
  for (const name of named) if (!entries.has(name)) throw new DomainError("invalid", "stylePackUnreadable");
  return checked;
}

/**
 * Reads and checks a pack. `room`: how many styles the space may still take; a pack with more is
 * refused before any picture is decoded (the insert checks again under its lock).
 */
export async function readPack(zip: Buffer, room: number): Promise<PackedStyle[]> {
  if (zip.length > STYLE_PACKS.maxBytes) throw new DomainError("too-large", "stylePackTooLarge");
  const entries = entriesOf(zip);
  const styles = await manifestOf(zip, entries);
  if (styles.length > room) {
    throw new DomainError("conflict", "stylePackNoRoom", { params: { room: Math.max(0, room), count: styles.length } });
  }
  const packed: PackedStyle[] = [];
  // One picture unpacked and decoded at a time: memory holds at most one, plus the small JPEGs kept.
  for (const [index, { reference, ...input }] of styles.entries()) {
    if (!reference) {
      packed.push({ input, reference: null });
      continue;
    }
    const prepared = await prepareReference(await unpack(zip, entries.get(reference)!));
    if (!prepared.ok) throw new DomainError("invalid", "stylePackPictureInvalid", { params: { number: index + 1 } });
    packed.push({ input, reference: prepared });
  }
  return packed;
}

/** A style as it goes into a pack: its fields and its kept reference picture (a JPEG), if any. */
export interface StyleToPack {
  input: CustomStyleInput;
  reference: Buffer | null;
}

/** The pack file of these styles: manifest.json first, then pictures/<n>.jpg for each style with a picture. */
export function writePack(styles: StyleToPack[], date: Date): Buffer {
  const pictures: ZipFile[] = [];
  const manifest = {
    format: STYLE_PACKS.format,
    version: STYLE_PACKS.version,
    styles: styles.map(({ input, reference }, index) => {
      const name = reference ? `pictures/${index + 1}.jpg` : null;
      if (reference && name) pictures.push({ name, data: reference });
      return { ...input, reference: name };
    }),
  };
  const json = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8");
  return writeZip([{ name: STYLE_PACKS.manifestName, data: json, deflate: true }, ...pictures], date);
}
