/**
 * One backup file: a consistent copy of the database, every stored picture and the app secret, as
 * one .tar.gz (decision 047). Its first entry, manifest.json, lists the tables' row counts and
 * every file's size and SHA-256; the second, manifest.sig, is an HMAC-SHA256 of the manifest with
 * the install's backup key, which no backup holds (decision 065). Written while the server runs and
 * writes; restored only into an empty DATA_DIR, only with that key, streaming each entry to disk
 * capped at the size the authenticated manifest declares. On PostgreSQL (DATABASE_URL), the database
 * is a pg_dump restored into an empty database (decision 081; database.ts holds each engine's way).
 * With the files in a bucket (STORAGE_URL), a backup holds the database only and names the bucket,
 * whose files are backed up with the store's own tools (decision 085).
 *
 * Plain functions over files: the backup module (index.ts) and the commands (scripts/backup.ts,
 * scripts/restore.ts) call them.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import tar from "tar-stream";
import { z } from "zod";
import {
  BackupError,
  countSqliteTables,
  DATABASE_ENTRIES,
  restorePostgres,
  snapshotDatabase,
  verifySqlite,
  ensureEmptyPostgres,
  type DatabaseEngine,
} from "./database";

export { BackupError } from "./database";

export const BACKUP_FORMAT = "roomcanvas-backup";
/**
 * 4: the database only, the files being in a bucket (STORAGE_URL; decision 085), so that a version
 * before it refuses one as "newer" rather than restoring a studio without saying its pictures are
 * elsewhere. 3: a PostgreSQL backup (pg_dump; decision 081), so that a version before it refuses one
 * as "newer" instead of as damaged. 2: signed, manifest first (decision 065); SQLite backups still
 * are. 1: unsigned, manifest last (restored only when asked).
 */
export const BACKUP_FORMAT_VERSION = 4;
const FORMAT_VERSION_OF: Record<DatabaseEngine, number> = { sqlite: 2, postgres: 3 };
const DATABASE_ONLY_FORMAT_VERSION = 4;
/** What a database-only backup's manifest says of the files (and the CLI and /admin say too). */
export const FILES_IN_OBJECT_STORE_NOTE =
  "the stored files are not in this backup: they stay in the bucket named here; back them up with the object store's own tools (bucket versioning, replication to another bucket or region; docs/scaling-out.md)";
/** The install's backup key, in DATA_DIR unless BACKUP_KEY_FILE says otherwise; never in a backup. */
export const BACKUP_KEY_NAME = "backup-key";
/**
 * roomcanvas-backup-2026-11-23T04-50-07Z.tar.gz (…07-481Z when a backup of that second existed):
 * pruning touches nothing else.
 */
export const BACKUP_FILE_PATTERN = /^roomcanvas-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:-\d{3})?Z\.tar\.gz$/;

/** Backup file names in the order they were taken (a name to the second is that second's first). */
export function byBackupTime(a: string, b: string): number {
  const key = (name: string) => name.replace(/T(\d{2}-\d{2}-\d{2})Z/, "T$1-000Z");
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

const SECRET_ENTRY = "app-secret";
const MANIFEST_ENTRY = "manifest.json";
const SIGNATURE_ENTRY = "manifest.sig";
const SIGNATURE_ALGORITHM = "HMAC-SHA256";
/** Read into memory before anything else, so capped: 64 MiB lists about 400,000 files. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
const MAX_SIGNATURE_BYTES = 4096;
/** Tar headers (long names included) and padding around one entry, at most. */
const ENTRY_OVERHEAD_BYTES = 8192;
/** The end-of-archive blocks and record padding. */
const ARCHIVE_SLACK_BYTES = 64 * 1024;
const STORAGE_FOLDER = "storage";
/** What a backup may hold, and so all a restore writes: nothing absolute, no "..", no other names. */
const STORAGE_ENTRY = /^storage\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  /** The database: a SQLite file (app.db), or a pg_dump in its custom format (database.pgdump). Without engine: SQLite. */
  database: { engine?: DatabaseEngine; path: string; bytes: number; sha256: string; tables: Record<string, number> };
  /** The app secret decrypts two-factor keys and engine keys: without it they are lost. */
  secret: { included: boolean; note?: string };
  /**
   * The pictures in the backup (storage/…), or, for a studio that keeps them in a bucket, none, and
   * where they are (`objectStore`: STORAGE_URL and S3_ENDPOINT, never a key) with a note saying so.
   */
  storage: { files: number; bytes: number; objectStore?: ObjectStoreRecord };
  files: Array<{ path: string; bytes: number; sha256: string }>;
}

/** Where a studio keeps its files when they are not in its backups (decision 085). */
export interface ObjectStoreRecord {
  /** STORAGE_URL: s3://bucket/prefix. */
  url: string;
  /** S3_ENDPOINT (without any user or password in it); absent for AWS S3 itself. */
  endpoint?: string;
  note: string;
}

export interface BackupResult {
  file: string;
  /** Size of the .tar.gz. */
  bytes: number;
  manifest: BackupManifest;
}

export interface BackupSource {
  dataDir: string;
  databaseFile: string;
  /** DATABASE_URL: when set, the database backed up is that PostgreSQL database (pg_dump), not databaseFile. */
  databaseUrl?: string;
  /** Where pg_dump is looked for (default: PATH, then /usr/lib/postgresql/*\/bin). */
  postgresToolDirs?: string[];
  /** True when APP_SECRET comes from the environment (then there is no secret file to copy). */
  secretFromEnvironment: boolean;
  appVersion: string;
  /** The backup key's file (generated owner-only there on the first backup). */
  keyFile: string;
  /**
   * STORAGE_URL when the files are in a bucket (and S3_ENDPOINT): the backup then holds the database
   * only and names the bucket, whose files are backed up with the store's own tools (decision 085).
   */
  filesElsewhere?: { url: string; endpoint?: string };
}

/** The bucket a database-only backup names: the endpoint without any user or password in it. */
export function objectStoreRecord(where: NonNullable<BackupSource["filesElsewhere"]>): ObjectStoreRecord {
  let endpoint: string | undefined;
  if (where.endpoint) {
    try {
      const url = new URL(where.endpoint);
      url.username = "";
      url.password = "";
      endpoint = url.toString().replace(/\/$/, "");
    } catch {
      endpoint = undefined;
    }
  }
  return { url: where.url, ...(endpoint ? { endpoint } : {}), note: FILES_IN_OBJECT_STORE_NOTE };
}

/** "s3://bucket/prefix", or "s3://bucket/prefix at https://endpoint": the bucket in words. */
export function objectStoreWords(store: Pick<ObjectStoreRecord, "url" | "endpoint">): string {
  return store.endpoint ? `${store.url} at ${store.endpoint}` : store.url;
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Reads a backup key (at least 32 characters: generated keys are 43). */
export async function readBackupKey(file: string): Promise<string> {
  let key: string;
  try {
    key = (await fsp.readFile(file, "utf8")).trim();
  } catch (error) {
    throw new BackupError(`cannot read the backup key ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (key.length < 32) throw new BackupError(`${file} does not hold a backup key (expected at least 32 characters)`);
  return key;
}

/** The install's backup key, generated (32 random bytes, owner-only) the first time. */
export async function loadOrCreateBackupKey(file: string): Promise<string> {
  try {
    await fsp.access(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
    await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // "wx": when the server and `npm run backup` race to create it, both then read the one written.
    await fsp.writeFile(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" }).catch((raced: unknown) => {
      if ((raced as NodeJS.ErrnoException).code !== "EEXIST") throw raced;
    });
  }
  return readBackupKey(file);
}

/** A short public name for a key, so that a refusal can say "made by another install". */
export function backupKeyId(key: string): string {
  return createHash("sha256").update(`roomcanvas:backup-key-id:${key}`).digest("hex").slice(0, 16);
}

const manifestHmac = (key: string, manifest: Buffer) => createHmac("sha256", `roomcanvas:backup-manifest:${key}`).update(manifest).digest();

/** The backup's name, to the second; to the millisecond when a backup of that second exists already. */
export function backupFileName(at: Date, toTheMillisecond = false): string {
  const stamp = at.toISOString().replace(/:/g, "-");
  return `roomcanvas-backup-${toTheMillisecond ? stamp.replace(/\.(\d{3})Z$/, "-$1Z") : stamp.replace(/\.\d{3}Z$/, "Z")}.tar.gz`;
}

/**
 * Gives the finished archive its name without ever replacing another backup: two taken in one second
 * (instances taking turns, an admin's right after a scheduled one) are both kept.
 */
async function nameWithoutReplacing(partial: string, outDir: string, at: Date): Promise<string> {
  for (const name of [backupFileName(at), backupFileName(at, true)]) {
    const file = path.join(outDir, name);
    try {
      // A hard link fails when the name is taken, where a rename would replace it.
      await fsp.link(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    await fsp.rm(partial, { force: true });
    return file;
  }
  throw new Error(`a backup named ${backupFileName(at, true)} exists already`);
}

/** Row counts of every table of a SQLite database file. */
export const countTables = countSqliteTables;

/** Every file under a folder, relative, sorted (missing folder: none). */
async function listFiles(root: string, prefix = ""): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(path.join(root, prefix), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(root, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

/** Adds one entry from memory and waits until the archive has taken it (the write side's back-pressure). */
function addEntry(pack: tar.Pack, name: string, data: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: data.length, mode: 0o600, mtime }, data, (error) => (error ? reject(error) : resolve()));
  });
}

/** Streams one file into the archive as an entry of `size` bytes. */
async function addFileEntry(pack: tar.Pack, name: string, file: string, size: number, mtime: Date, written: Promise<void>): Promise<void> {
  let settle!: (error?: Error | null) => void;
  const taken = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  const entry = pack.entry({ name, size, mode: 0o600, mtime }, (error) => settle(error));
  taken.catch(() => undefined);
  for await (const chunk of fs.createReadStream(file)) {
    // A failed write (`written`) or entry (`taken`) ends the wait for room instead of hanging on it.
    if (!entry.write(chunk as Buffer)) await Promise.race([once(entry, "drain"), taken, written]);
  }
  entry.end(() => undefined);
  await taken;
}

/** Size and SHA-256 of a file, read as a stream. */
async function describeFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    bytes += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * Keeps `source` as it is now at `copy`: a hard link (pictures are written once, then renamed
 * into place, so a link keeps exactly the bytes hashed even if the picture is deleted before it is
 * written), or a copy where links are not allowed. False when the picture is gone already.
 */
async function keepAsIs(source: string, copy: string): Promise<boolean> {
  await fsp.mkdir(path.dirname(copy), { recursive: true, mode: 0o700 });
  try {
    await fsp.link(source, copy);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
  }
  try {
    await fsp.copyFile(source, copy);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

const WORK_PREFIX = ".backup-work-";

/** Removes work folders a killed backup left in DATA_DIR (a day old: a backup under way is younger). */
async function removeStaleWork(dataDir: string, now: Date): Promise<void> {
  const names = await fsp.readdir(dataDir).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry.startsWith(WORK_PREFIX))) {
    const folder = path.join(dataDir, name);
    const stat = await fsp.stat(folder).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs > 86_400_000) await fsp.rm(folder, { recursive: true, force: true });
  }
}

/**
 * Writes a backup into `outDir` and returns it. The manifest comes first, so everything is listed
 * and hashed before it is written: the database is copied first, then each picture is linked into a
 * work folder in DATA_DIR. Pictures stored after that are left out, and one removed meanwhile is
 * kept as it was (its render was deleted after the copy). The file appears under its final name
 * only once complete.
 */
export async function createBackup(source: BackupSource, outDir: string, now = new Date()): Promise<BackupResult> {
  await fsp.mkdir(outDir, { recursive: true, mode: 0o700 });
  const key = await loadOrCreateBackupKey(source.keyFile);
  const partial = path.join(outDir, `.${backupFileName(now)}.${randomBytes(4).toString("hex")}.partial`);
  await removeStaleWork(source.dataDir, now);
  const work = path.join(source.dataDir, `${WORK_PREFIX}${randomBytes(4).toString("hex")}`);
  let pack: tar.Pack | undefined;
  let written: Promise<void> | undefined;
  try {
    await fsp.mkdir(work, { recursive: true, mode: 0o700 });
    // The database first (decision 081: database.ts, one way per engine), then the pictures.
    const snapshot = await snapshotDatabase(source.databaseUrl || source.databaseFile, work, source.postgresToolDirs);
    const databaseEntry = DATABASE_ENTRIES[snapshot.engine];
    const database = await describeFile(snapshot.file);

    // Files in a bucket are not DATA_DIR's: the backup names the bucket instead (decision 085).
    const storageRoot = path.join(source.dataDir, STORAGE_FOLDER);
    const files: BackupManifest["files"] = [];
    let storageBytes = 0;
    for (const relative of source.filesElsewhere ? [] : await listFiles(storageRoot)) {
      const name = `${STORAGE_FOLDER}/${relative}`;
      if (!STORAGE_ENTRY.test(name)) continue;
      if (!(await keepAsIs(path.join(storageRoot, relative), path.join(work, ...name.split("/"))))) continue;
      const described = await describeFile(path.join(work, ...name.split("/")));
      files.push({ path: name, ...described });
      storageBytes += described.bytes;
    }
    const storageFiles = files.length;

    let secret: BackupManifest["secret"];
    let secretData: Buffer | null = null;
    if (source.secretFromEnvironment) {
      secret = { included: false, note: "APP_SECRET is set in the environment: keep it with this backup, the restored server needs it" };
    } else {
      secretData = await fsp.readFile(path.join(source.dataDir, SECRET_ENTRY)).catch(() => null);
      if (secretData) {
        files.push({ path: SECRET_ENTRY, bytes: secretData.length, sha256: sha256(secretData) });
        secret = { included: true };
      } else secret = { included: false, note: "no app secret yet (the server has not started on this DATA_DIR)" };
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: source.filesElsewhere ? DATABASE_ONLY_FORMAT_VERSION : FORMAT_VERSION_OF[snapshot.engine],
      appVersion: source.appVersion,
      createdAt: now.toISOString(),
      database: { engine: snapshot.engine, path: databaseEntry, bytes: database.bytes, sha256: database.sha256, tables: snapshot.tables },
      secret,
      storage: {
        files: storageFiles,
        bytes: storageBytes,
        ...(source.filesElsewhere ? { objectStore: objectStoreRecord(source.filesElsewhere) } : {}),
      },
      files,
    };
    const manifestData = Buffer.from(JSON.stringify(manifest, null, 2));
    const signature: BackupSignature = {
      algorithm: SIGNATURE_ALGORITHM,
      keyId: backupKeyId(key),
      hmac: manifestHmac(key, manifestData).toString("hex"),
    };

    pack = tar.pack();
    written = pipeline(pack, zlib.createGzip({ level: 6 }), fs.createWriteStream(partial, { mode: 0o600 }));
    // A failed write ends `written` first; the entries below then fail too, and the error is `written`'s.
    written.catch(() => undefined);
    await addEntry(pack, MANIFEST_ENTRY, manifestData, now);
    await addEntry(pack, SIGNATURE_ENTRY, Buffer.from(JSON.stringify(signature)), now);
    await addFileEntry(pack, databaseEntry, snapshot.file, database.bytes, now, written);
    for (const file of files.slice(0, storageFiles)) {
      await addFileEntry(pack, file.path, path.join(work, ...file.path.split("/")), file.bytes, now, written);
    }
    if (secretData) await addEntry(pack, SECRET_ENTRY, secretData, now);
    pack.finalize();
    await written;
    // On disk before it is named a backup.
    const handle = await fsp.open(partial, "r");
    await handle.sync();
    await handle.close();
    const finalFile = await nameWithoutReplacing(partial, outDir, now);
    return { file: finalFile, bytes: (await fsp.stat(finalFile)).size, manifest };
  } catch (error) {
    pack?.destroy();
    await written?.catch(() => undefined);
    await fsp.rm(partial, { force: true });
    throw error;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** True when the folder is missing or has nothing in it. */
async function isEmptyFolder(folder: string): Promise<boolean> {
  try {
    return (await fsp.readdir(folder)).length === 0;
  } catch (error) {
    if (isMissing(error)) return true;
    throw error;
  }
}

interface BackupSignature {
  algorithm: typeof SIGNATURE_ALGORITHM;
  /** backupKeyId of the key that signed: tells "another install's key" from "changed". */
  keyId: string;
  hmac: string;
}

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const signatureSchema = z.object({ algorithm: z.literal(SIGNATURE_ALGORITHM), keyId: z.string().max(64), hmac: hex64 });
const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().min(1),
  appVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    engine: z.enum(["sqlite", "postgres"]).optional(),
    path: z.enum([DATABASE_ENTRIES.sqlite, DATABASE_ENTRIES.postgres]),
    bytes: z.number().int().min(0),
    sha256: hex64,
    tables: z.record(z.string(), z.number().int().min(0)),
  }),
  secret: z.object({ included: z.boolean(), note: z.string().optional() }),
  storage: z.object({
    files: z.number().int().min(0),
    bytes: z.number().int().min(0),
    objectStore: z
      .object({ url: z.string().startsWith("s3://").max(2000), endpoint: z.string().max(2000).optional(), note: z.string().max(2000) })
      .optional(),
  }),
  files: z.array(
    z.object({
      // Only names a backup can hold: nothing absolute, no "..".
      path: z.string().refine((name) => name === SECRET_ENTRY || STORAGE_ENTRY.test(name)),
      bytes: z.number().int().min(0),
      sha256: hex64,
    }),
  ),
});

const unsignedBackup = () =>
  new BackupError(
    "the backup is not signed: it was made before backups were signed, or its signature was removed. " +
      "Restore it only if you are sure no one could have changed it: npm run restore -- --accept-unsigned FILE",
  );

/** Stops reading an archive once what was looked for is found. */
class EnoughRead extends Error {}

/** Reads a small entry into memory, refusing one larger than `max`. */
async function readSmall(stream: AsyncIterable<unknown>, name: string, size: number, max: number): Promise<Buffer> {
  if (size > max) throw new BackupError(`the backup's ${name} is ${size} bytes, more than one can be (${max})`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function readArchive(file: string, extract: tar.Extract, ...limit: Transform[]): Promise<void> {
  try {
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), ...limit, extract);
  } catch (error) {
    if (error instanceof EnoughRead) return;
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${path.basename(file)} is not a readable backup (${(error as Error).message})`);
  }
}

interface ArchiveHead {
  manifest: Buffer;
  signature: Buffer | null;
}

/**
 * The manifest and its signature: the first two entries, so nothing else is read. An older backup
 * (manifest last, unsigned) is read through, each entry discarded, only when unsigned ones are accepted.
 */
async function readHead(file: string, acceptUnsigned: boolean): Promise<ArchiveHead> {
  const extract = tar.extract();
  let manifest: Buffer | undefined;
  let signature: Buffer | null = null;
  let position = 0;
  let manifestLast = false;
  extract.on("entry", (header, stream, next) => {
    // An entry's failure also ends the whole extract, whose error readArchive reports.
    stream.on("error", () => undefined);
    const at = position++;
    const done = (work: Promise<unknown>, then: () => Error | undefined = () => undefined) =>
      void work.then(
        () => next(then()),
        (error: unknown) => next(error as Error),
      );
    if (at === 0 && header.name !== MANIFEST_ENTRY) {
      if (!acceptUnsigned) return next(unsignedBackup());
      manifestLast = true;
    }
    if (header.name === MANIFEST_ENTRY) {
      if (manifest) return next(new BackupError(`the backup holds ${MANIFEST_ENTRY} twice`));
      return done(readSmall(stream, MANIFEST_ENTRY, header.size ?? 0, MAX_MANIFEST_BYTES).then((data) => (manifest = data)));
    }
    if (at === 1 && !manifestLast) {
      if (header.name !== SIGNATURE_ENTRY) return next(new EnoughRead());
      return done(
        readSmall(stream, SIGNATURE_ENTRY, header.size ?? 0, MAX_SIGNATURE_BYTES).then((data) => (signature = data)),
        () => new EnoughRead(),
      );
    }
    stream.resume();
    stream.on("end", () => next());
  });
  await readArchive(file, extract);
  if (!manifest) throw new BackupError("the file has no backup manifest: it is not a complete backup");
  return { manifest, signature };
}

/** Checks the manifest's signature with the install's key; false for an unsigned backup accepted as such. */
function authenticate(head: ArchiveHead, key: string | undefined, acceptUnsigned: boolean): boolean {
  if (!head.signature) {
    if (!acceptUnsigned) throw unsignedBackup();
    return false;
  }
  let signature: BackupSignature;
  try {
    signature = signatureSchema.parse(JSON.parse(head.signature.toString("utf8")));
  } catch {
    throw new BackupError("the backup's signature is not readable: the file was damaged or changed after it was written");
  }
  if (!key) {
    throw new BackupError(
      `the backup is signed with backup key ${signature.keyId}, and none was given: set BACKUP_KEY_FILE to a copy of the backup key ` +
        "of the studio that made it (its DATA_DIR/backup-key)",
    );
  }
  const keyId = backupKeyId(key);
  if (signature.keyId !== keyId) {
    throw new BackupError(
      `the backup was made by another install: it is signed with backup key ${signature.keyId}, and BACKUP_KEY_FILE holds key ${keyId}. ` +
        "Set BACKUP_KEY_FILE to the backup key of the studio that made it",
    );
  }
  if (!timingSafeEqual(manifestHmac(key, head.manifest), Buffer.from(signature.hmac, "hex"))) {
    throw new BackupError(
      "the backup's manifest does not match its signature: the file was changed after it was written (tampered with or damaged)",
    );
  }
  return true;
}

function parseManifest(data: Buffer): BackupManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(data.toString("utf8"));
  } catch {
    throw new BackupError("the backup's manifest is not readable");
  }
  const { format, formatVersion } = (raw ?? {}) as Partial<BackupManifest>;
  if (format !== BACKUP_FORMAT) throw new BackupError("the file has no backup manifest: it is not a complete backup");
  if (typeof formatVersion === "number" && formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`the backup was written by a newer version (format ${formatVersion}); update before restoring`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw new BackupError("the backup's manifest lists something a backup cannot hold: it is damaged");
  const { engine = "sqlite", path: entry } = parsed.data.database;
  if (entry !== DATABASE_ENTRIES[engine])
    throw new BackupError("the backup's manifest names a database file its engine cannot have: it is damaged");
  if (parsed.data.storage.objectStore && parsed.data.files.some((file) => file.path !== SECRET_ENTRY))
    throw new BackupError("the backup's manifest names a bucket for the files and lists files too: it is damaged");
  const names = new Set([parsed.data.database.path, ...parsed.data.files.map((file) => file.path)]);
  if (names.size !== parsed.data.files.length + 1) throw new BackupError("the backup's manifest lists a file twice: it is damaged");
  return parsed.data as BackupManifest;
}

/** Fails the read once more bytes come out of the archive than its manifest accounts for. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) return callback(new BackupError("the backup holds more data than its manifest declares"));
    callback(null, chunk);
  }
}

/** Streams one entry to a new file, hashing it; never more than `size` bytes. */
async function writeEntry(stream: AsyncIterable<unknown>, target: string, size: number): Promise<string> {
  await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const handle = await fsp.open(target, "wx", 0o600);
  const hash = createHash("sha256");
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      bytes += (chunk as Buffer).length;
      if (bytes > size) throw new BackupError(`${path.basename(target)} is larger than its manifest says: the backup is damaged`);
      hash.update(chunk as Buffer);
      await handle.write(chunk as Buffer);
    }
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}

/**
 * Unpacks the archive into `staging` against the authenticated manifest: each entry must be listed,
 * once, with the size the manifest gives (checked from its header, before it is read), is streamed
 * to disk and must match its SHA-256; the whole archive may not hold more than the manifest lists.
 */
async function unpack(file: string, staging: string, manifest: BackupManifest, head: ArchiveHead): Promise<void> {
  const expected = new Map<string, { bytes: number; sha256: string }>([
    [manifest.database.path, manifest.database],
    ...manifest.files.map((entry) => [entry.path, entry] as const),
  ]);
  // Already read and checked: skipped the second time, at the size they had then.
  const known = new Map([[MANIFEST_ENTRY, head.manifest.length]]);
  if (head.signature) known.set(SIGNATURE_ENTRY, head.signature.length);
  let limit = ARCHIVE_SLACK_BYTES + (expected.size + known.size) * ENTRY_OVERHEAD_BYTES;
  for (const bytes of [...known.values(), ...[...expected.values()].map((entry) => entry.bytes)]) limit += bytes;

  const seen = new Set<string>();
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const name = header.name;
    stream.on("error", () => undefined);
    const fail = (reason: string) => next(new BackupError(reason));
    if (header.type === "directory") {
      stream.resume();
      return next();
    }
    if (header.type !== "file") return fail(`the backup holds something that is not a file (${name})`);
    if (!known.has(name) && name !== manifest.database.path && name !== SECRET_ENTRY && !STORAGE_ENTRY.test(name)) {
      return fail(`the backup holds an entry a backup cannot have (${JSON.stringify(name)})`);
    }
    if (seen.has(name)) return fail(`the backup holds ${name} twice`);
    seen.add(name);
    const size = header.size ?? 0;
    const skipped = known.get(name);
    if (skipped !== undefined) {
      if (size !== skipped) return fail(`the backup's ${name} changed while it was being restored`);
      stream.resume();
      return void stream.on("end", () => next());
    }
    const entry = expected.get(name);
    if (!entry) return fail(`${name} is in the backup but not in its manifest`);
    if (size !== entry.bytes) return fail(`${name} holds ${size} bytes, its manifest says ${entry.bytes}: the backup is damaged`);
    writeEntry(stream, path.join(staging, ...name.split("/")), entry.bytes).then(
      (digest) => (digest === entry.sha256 ? next() : fail(`${name} does not match its checksum in the manifest: the backup is damaged`)),
      (error: unknown) => next(error as Error),
    );
  });
  await readArchive(file, extract, new ByteLimit(limit));
  for (const name of expected.keys()) {
    if (!seen.has(name)) throw new BackupError(`${name} is listed in the manifest but missing from the backup`);
  }
}

/** What the backup's database is, in words, for a refusal. */
const ENGINE_WORDS: Record<DatabaseEngine, string> = {
  sqlite: "a SQLite database (app.db)",
  postgres: "a PostgreSQL database (pg_dump)",
};

/** A backup restores into the engine it was taken from: DATABASE_URL set or not. */
function ensureSameEngine(engine: DatabaseEngine, databaseUrl: string | undefined): void {
  if (engine === "postgres" && !databaseUrl) {
    throw new BackupError(
      `the backup holds ${ENGINE_WORDS.postgres}: set DATABASE_URL to an empty PostgreSQL database (and DATA_DIR to an empty folder for its pictures)`,
    );
  }
  if (engine === "sqlite" && databaseUrl) {
    throw new BackupError(
      `the backup holds ${ENGINE_WORDS.sqlite}, and DATABASE_URL names a PostgreSQL database: unset DATABASE_URL to restore it into DATA_DIR`,
    );
  }
}

export interface RestoreOptions {
  /** The backup key of the install that made the backup (BACKUP_KEY_FILE). */
  keyFile?: string;
  /** Restores a backup without a signature (made before backups were signed). */
  acceptUnsigned?: boolean;
  /** DATABASE_URL: a PostgreSQL backup's database is restored there (it must be empty); a SQLite backup is then refused. */
  databaseUrl?: string;
  /** Where pg_restore is looked for (default: PATH, then /usr/lib/postgresql/*\/bin). */
  postgresToolDirs?: string[];
}

export interface RestoreResult {
  manifest: BackupManifest;
  files: number;
  /** False only for an unsigned backup restored with acceptUnsigned. */
  signed: boolean;
}

/**
 * Restores a backup into `dataDir`, which must be empty or missing. The manifest is read first and
 * authenticated with the backup key; then everything is unpacked into a hidden folder inside
 * `dataDir` (the same file system, as DATA_DIR is often a mounted volume) and checked against it;
 * only then are the database, the pictures and the secret moved up, with the key, so that the
 * restored studio signs its next backups with it. Refused (BackupError) otherwise, leaving `dataDir` empty.
 */
export async function restoreBackup(file: string, dataDir: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const target = path.resolve(dataDir);
  if (!(await isEmptyFolder(target))) {
    throw new BackupError(`${target} is not empty: restore into an empty DATA_DIR (a restore never overwrites a studio's data)`);
  }
  try {
    await fsp.access(file, fs.constants.R_OK);
  } catch {
    throw new BackupError(`cannot read ${file}`);
  }
  const key = options.keyFile ? await readBackupKey(options.keyFile) : undefined;
  const acceptUnsigned = Boolean(options.acceptUnsigned);
  const head = await readHead(file, acceptUnsigned);
  const signed = authenticate(head, key, acceptUnsigned);
  const manifest = parseManifest(head.manifest);
  const engine = manifest.database.engine ?? "sqlite";
  ensureSameEngine(engine, options.databaseUrl);
  if (engine === "postgres") await ensureEmptyPostgres(options.databaseUrl!);

  const staging = path.join(target, `.restoring-${randomBytes(4).toString("hex")}`);
  await fsp.mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    await unpack(file, staging, manifest, head);
    const staged = path.join(staging, manifest.database.path);
    if (engine === "postgres") {
      await restorePostgres(options.databaseUrl!, staged, manifest.database.tables, options.postgresToolDirs);
      await fsp.rm(staged);
    } else verifySqlite(staged, manifest.database.tables);
    for (const entry of await fsp.readdir(staging)) await fsp.rename(path.join(staging, entry), path.join(target, entry));
    if (signed && key) await fsp.writeFile(path.join(target, BACKUP_KEY_NAME), key, { mode: 0o600, flag: "wx" });
    return { manifest, files: manifest.files.length + 1, signed };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}
