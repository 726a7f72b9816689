/**
 * The few zip files style packs need (decision 104), read and written here rather than by a general
 * library, so that every limit is checked before the work it guards:
 * - the number of entries is read from the end record before any entry is looked at (10,000 entries
 *   cost one read of 22 bytes);
 * - each entry's declared size, and the running total, are checked before it is unpacked;
 * - unpacking is zlib's own, told to stop at the declared size (maxOutputLength): a "zip bomb" that
 *   declares 1 KB and holds 1 GB is cut after 1 KB of output, so memory never holds more than a limit;
 * - the unpacked bytes must be exactly as long as declared and match the entry's CRC-32.
 * Encrypted entries, methods other than stored and deflate, zip64 and multi-disk archives are refused.
 */
import { promisify } from "node:util";
import zlib from "node:zlib";

const inflateRaw = promisify(zlib.inflateRaw);

const END_RECORD = 0x06054b50;
const CENTRAL_RECORD = 0x02014b50;
const LOCAL_RECORD = 0x04034b50;
const END_RECORD_SIZE = 22;
const STORED = 0;
const DEFLATE = 8;

/** Why a zip was refused (the caller turns each into its message). */
export type ZipRefusal = "unreadable" | "too-many-entries" | "too-large";

export class ZipRefused extends Error {
  override name = "ZipRefused";
  constructor(readonly reason: ZipRefusal) {
    super(`zip refused: ${reason}`);
  }
}

/** An entry as the central directory declares it: nothing of it is unpacked yet. */
export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where its local header starts. */
  offset: number;
}

export interface ZipLimits {
  maxEntries: number;
  /** Bytes an entry may unpack to (declared, then counted). */
  maxEntryBytes: number;
  /** Bytes all entries together may unpack to. */
  maxTotalBytes: number;
}

/** The entries of a zip held in memory, as its central directory lists them, with every declared size within the limits. */
export function listZip(zip: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = findEndRecord(zip);
  if (end < 0) throw new ZipRefused("unreadable");
  const disk = zip.readUInt16LE(end + 4);
  const centralDisk = zip.readUInt16LE(end + 6);
  const onDisk = zip.readUInt16LE(end + 8);
  const count = zip.readUInt16LE(end + 10);
  const centralSize = zip.readUInt32LE(end + 12);
  const centralOffset = zip.readUInt32LE(end + 16);
  // The count first: a file with 10,000 entries is refused here, whatever else it holds.
  if (count > limits.maxEntries || onDisk > limits.maxEntries) throw new ZipRefused("too-many-entries");
  // Multi-disk, or zip64 (whose fields here say 0xFFFF / 0xFFFFFFFF): not what a pack is.
  if (disk !== 0 || centralDisk !== 0 || onDisk !== count || centralOffset === 0xffffffff) throw new ZipRefused("unreadable");
  if (centralOffset + centralSize > end) throw new ZipRefused("unreadable");

  const entries: ZipEntry[] = [];
  let at = centralOffset;
  let declaredTotal = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL_RECORD) throw new ZipRefused("unreadable");
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    if (at + 46 + nameLength > end) throw new ZipRefused("unreadable");
    // Encrypted (bit 0), or strong encryption (bit 6): nothing a pack needs.
    if ((flags & 0x41) !== 0 || (method !== STORED && method !== DEFLATE)) throw new ZipRefused("unreadable");
    if (size > limits.maxEntryBytes) throw new ZipRefused("too-large");
    declaredTotal += size;
    if (declaredTotal > limits.maxTotalBytes) throw new ZipRefused("too-large");
    if (method === STORED && compressedSize !== size) throw new ZipRefused("unreadable");
    // Names are read byte for byte (latin1): the caller accepts only plain ASCII names.
    const name = zip.toString("latin1", at + 46, at + 46 + nameLength);
    entries.push({ name, method, crc, compressedSize, size, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * An entry's bytes, unpacked: never more than it declared (listZip checked that against the limits),
 * exactly as many, and with its CRC-32. The local header must name the same file as the directory.
 */
export async function readZipEntry(zip: Buffer, entry: ZipEntry): Promise<Buffer> {
  const at = entry.offset;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_RECORD) throw new ZipRefused("unreadable");
  const nameLength = zip.readUInt16LE(at + 26);
  const extraLength = zip.readUInt16LE(at + 28);
  if (zip.toString("latin1", at + 30, at + 30 + nameLength) !== entry.name) throw new ZipRefused("unreadable");
  const start = at + 30 + nameLength + extraLength;
  const stop = start + entry.compressedSize;
  if (stop > zip.length) throw new ZipRefused("unreadable");
  const packed = zip.subarray(start, stop);
  let data: Buffer;
  if (entry.method === STORED) {
    data = packed;
  } else {
    try {
      // zlib stops as soon as its output passes maxOutputLength (one chunk of 16 KB over, at most).
      data = await inflateRaw(packed, { maxOutputLength: Math.max(1, entry.size) });
    } catch (error) {
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new ZipRefused("too-large");
      throw new ZipRefused("unreadable");
    }
  }
  if (data.length !== entry.size) throw new ZipRefused(data.length > entry.size ? "too-large" : "unreadable");
  if (zlib.crc32(data) >>> 0 !== entry.crc) throw new ZipRefused("unreadable");
  return data;
}

function findEndRecord(zip: Buffer): number {
  // The end record is the last 22 bytes, unless a comment (at most 65,535 bytes) follows it.
  const lowest = Math.max(0, zip.length - END_RECORD_SIZE - 0xffff);
  for (let at = zip.length - END_RECORD_SIZE; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === END_RECORD && at + END_RECORD_SIZE + zip.readUInt16LE(at + 20) === zip.length) return at;
  }
  return -1;
}

/** A file to write into a zip; `deflate` packs it (text), otherwise it is stored as it is (JPEGs do not shrink). */
export interface ZipFile {
  name: string;
  data: Buffer;
  deflate?: boolean;
}

/** A zip of these files (names plain ASCII, the whole under 4 GB: a pack is at most 50 small pictures). */
export function writeZip(files: ZipFile[], date = new Date()): Buffer {
  const time = ((date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1)) & 0xffff;
  const day = (((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate()) & 0xffff;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, "latin1");
    const packed = file.deflate ? zlib.deflateRawSync(file.data, { level: 9 }) : file.data;
    const crc = zlib.crc32(file.data) >>> 0;
    const method = file.deflate ? DEFLATE : STORED;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_RECORD, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_RECORD, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(END_RECORD_SIZE);
  end.writeUInt32LE(END_RECORD, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
