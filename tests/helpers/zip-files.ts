/**
 * Zip files built byte by byte for tests of what a reader must refuse: entries whose headers lie about
 * their size or CRC, names no zip tool would write, and a deflate stream of a gigabyte of zeros made
 * without deflating a gigabyte. Independent of the server's own zip code (src/server/styles/pack-zip.ts).
 */
import zlib from "node:zlib";

export interface RawEntry {
  name: string;
  /** The bytes as stored in the zip (already deflated when method is 8). */
  packed: Buffer;
  method: 0 | 8;
  crc: number;
  /** The unpacked size the headers declare (the truth or a lie). */
  size: number;
  flags?: number;
}

export const stored = (name: string, data: Buffer): RawEntry => ({
  name,
  packed: data,
  method: 0,
  crc: zlib.crc32(data) >>> 0,
  size: data.length,
});

export const deflated = (name: string, data: Buffer): RawEntry => ({
  name,
  packed: zlib.deflateRawSync(data),
  method: 8,
  crc: zlib.crc32(data) >>> 0,
  size: data.length,
});

/** A zip of these entries, headers written exactly as given. */
export function rawZip(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "latin1");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.flags ?? 0, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.packed.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(entry.flags ?? 0, 8);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.packed.length, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.packed);
    central.push(record, name);
    offset += 30 + name.length + entry.packed.length;
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, centralBytes, end]);
}

/**
 * A raw deflate stream that unpacks to `mebibytes` MiB of zeros, with its CRC-32, made from two
 * flushed blocks: the first MiB, then one MiB block repeated (each refers only to the zeros before
 * it), so a gigabyte costs about a megabyte and no gigabyte is ever held or deflated here.
 */
export async function zerosDeflated(mebibytes: number): Promise<{ packed: Buffer; crc: number; size: number }> {
  const mib = Buffer.alloc(1 << 20);
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  const flushed = async () => {
    await new Promise<void>((resolve) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
    const block = Buffer.concat(out);
    out.length = 0;
    return block;
  };
  deflate.write(mib);
  const first = await flushed();
  deflate.write(mib);
  const repeated = await flushed();
  await new Promise<void>((resolve) => deflate.end(() => resolve()));
  await new Promise<void>((resolve) => (deflate.readableEnded ? resolve() : deflate.on("end", () => resolve())));
  const last = Buffer.concat(out);
  let crc = 0;
  for (let n = 0; n < mebibytes; n++) crc = zlib.crc32(mib, crc);
  const packed = Buffer.concat([first, ...Array.from({ length: mebibytes - 1 }, () => repeated), last]);
  return { packed, crc: crc >>> 0, size: mebibytes * (1 << 20) };
}
