/**
 * One backup file: a consistent copy of the database, every stored picture and the app secret, as
 * one .tar.gz whose last entry, manifest.json, lists the tables' row counts and every file's size
 * and SHA-256 (decision 047). Written while the server runs and writes; restored only into an
 * empty DATA_DIR, and only once everything in it matches the manifest.
 *
 * Plain functions over files: the backup module (index.ts) and the commands (scripts/backup.ts,
 * scripts/restore.ts) call them.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import SqliteDatabase from "better-sqlite3";
import tar from "tar-stream";

export const BACKUP_FORMAT = "roomcanvas-backup";
export const BACKUP_FORMAT_VERSION = 1;
/** roomcanvas-backup-2026-11-23T04-50-07Z.tar.gz: sorts by time, and pruning touches nothing else. */
export const BACKUP_FILE_PATTERN = /^roomcanvas-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:-\d{3})?Z\.tar\.gz$/;

const DATABASE_ENTRY = "app.db";
const SECRET_ENTRY = "app-secret";
const MANIFEST_ENTRY = "manifest.json";
const STORAGE_FOLDER = "storage";
/** What a backup may hold, and so all a restore writes: nothing absolute, no "..", no other names. */
const STORAGE_ENTRY = /^storage\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  database: { path: string; bytes: number; sha256: string; tables: Record<string, number> };
  /** The app secret decrypts two-factor keys and engine keys: without it they are lost. */
  secret: { included: boolean; note?: string };
  storage: { files: number; bytes: number };
  files: Array<{ path: string; bytes: number; sha256: string }>;
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
  /** True when APP_SECRET comes from the environment (then there is no secret file to copy). */
  secretFromEnvironment: boolean;
  appVersion: string;
}

/** A restore refused: the folder is not empty, or the file is not a complete, intact backup. */
export class BackupError extends Error {
  override name = "BackupError";
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

export function backupFileName(at: Date): string {
  return `roomcanvas-backup-${at
    .toISOString()
    .replace(/:/g, "-")
    .replace(/\.\d{3}Z$/, "Z")}.tar.gz`;
}

/** Row counts of every table of a database file. */
export function countTables(databaseFile: string): Record<string, number> {
  const sqlite = new SqliteDatabase(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const tables = sqlite
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(tables.map((name) => [name, sqlite.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number]));
  } finally {
    sqlite.close();
  }
}

/**
 * A consistent copy of the live database: VACUUM INTO reads one snapshot (WAL lets the server keep
 * writing meanwhile) and writes a compact file. A plain copy of app.db would miss what still sits
 * in app.db-wal.
 */
function snapshotDatabase(databaseFile: string, target: string): void {
  const sqlite = new SqliteDatabase(databaseFile, { fileMustExist: true });
  try {
    sqlite.pragma("busy_timeout = 10000");
    sqlite.prepare("VACUUM INTO ?").run(target);
  } finally {
    sqlite.close();
  }
}

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

/** Adds one entry and waits until the archive has taken it (the write side's back-pressure). */
function addEntry(pack: tar.Pack, name: string, data: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: data.length, mode: 0o600, mtime }, data, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Writes a backup into `outDir` and returns it. The database is copied first; pictures stored after
 * that are included too (harmless), and one removed meanwhile is left out (its render was deleted
 * after the copy: the restored render shows its picture as missing). The file appears under its
 * final name only once complete.
 */
export async function createBackup(source: BackupSource, outDir: string, now = new Date()): Promise<BackupResult> {
  await fsp.mkdir(outDir, { recursive: true, mode: 0o700 });
  const finalFile = path.join(outDir, backupFileName(now));
  const partial = path.join(outDir, `.${path.basename(finalFile)}.${randomBytes(4).toString("hex")}.partial`);
  const snapshot = `${partial}.db`;
  const pack = tar.pack();
  const written = pipeline(pack, zlib.createGzip({ level: 6 }), fs.createWriteStream(partial, { mode: 0o600 }));
  // A failed write ends `written` first; the entries below then fail too, and the error is `written`'s.
  written.catch(() => undefined);
  try {
    snapshotDatabase(source.databaseFile, snapshot);
    const database = await fsp.readFile(snapshot);
    const tables = countTables(snapshot);
    await fsp.rm(snapshot, { force: true });
    await addEntry(pack, DATABASE_ENTRY, database, now);

    const storageRoot = path.join(source.dataDir, STORAGE_FOLDER);
    const files: BackupManifest["files"] = [];
    let storageBytes = 0;
    for (const relative of await listFiles(storageRoot)) {
      const name = `${STORAGE_FOLDER}/${relative}`;
      if (!STORAGE_ENTRY.test(name)) continue;
      let data: Buffer;
      try {
        data = await fsp.readFile(path.join(storageRoot, relative));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw error;
      }
      await addEntry(pack, name, data, now);
      files.push({ path: name, bytes: data.length, sha256: sha256(data) });
      storageBytes += data.length;
    }

    let secret: BackupManifest["secret"];
    if (source.secretFromEnvironment) {
      secret = { included: false, note: "APP_SECRET is set in the environment: keep it with this backup, the restored server needs it" };
    } else {
      const data = await fsp.readFile(path.join(source.dataDir, SECRET_ENTRY)).catch(() => null);
      if (data) {
        await addEntry(pack, SECRET_ENTRY, data, now);
        files.push({ path: SECRET_ENTRY, bytes: data.length, sha256: sha256(data) });
        secret = { included: true };
      } else secret = { included: false, note: "no app secret yet (the server has not started on this DATA_DIR)" };
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: source.appVersion,
      createdAt: now.toISOString(),
      database: { path: DATABASE_ENTRY, bytes: database.length, sha256: sha256(database), tables },
      secret,
      storage: { files: files.filter((file) => file.path.startsWith(`${STORAGE_FOLDER}/`)).length, bytes: storageBytes },
      files,
    };
    await addEntry(pack, MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2)), now);
    pack.finalize();
    await written;
    // On disk before it is named a backup.
    const handle = await fsp.open(partial, "r");
    await handle.sync();
    await handle.close();
    await fsp.rename(partial, finalFile);
    return { file: finalFile, bytes: (await fsp.stat(finalFile)).size, manifest };
  } catch (error) {
    pack.destroy();
    await written.catch(() => undefined);
    await fsp.rm(partial, { force: true });
    await fsp.rm(snapshot, { force: true });
    throw error;
  }
}

/** True when the folder is missing or has nothing in it. */
async function isEmptyFolder(folder: string): Promise<boolean> {
  try {
    return (await fsp.readdir(folder)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

/** Reads the archive into `staging`, refusing any entry a backup cannot hold; returns the manifest. */
async function unpack(file: string, staging: string): Promise<BackupManifest> {
  const extract = tar.extract();
  const seen = new Set<string>();
  let manifest: BackupManifest | undefined;
  extract.on("entry", (header, stream, next) => {
    const name = header.name;
    // An entry's failure also ends the whole extract, whose error the pipeline below reports.
    stream.on("error", () => undefined);
    const fail = (reason: string) => next(new BackupError(reason));
    if (header.type === "directory") {
      stream.resume();
      return next();
    }
    if (header.type !== "file") return fail(`the backup holds something that is not a file (${name})`);
    if (name !== DATABASE_ENTRY && name !== SECRET_ENTRY && name !== MANIFEST_ENTRY && !STORAGE_ENTRY.test(name)) {
      return fail(`the backup holds an entry a backup cannot have (${JSON.stringify(name)})`);
    }
    if (seen.has(name)) return fail(`the backup holds ${name} twice`);
    seen.add(name);
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on("end", () => {
      const data = Buffer.concat(chunks);
      if (name === MANIFEST_ENTRY) {
        try {
          manifest = JSON.parse(data.toString("utf8")) as BackupManifest;
        } catch {
          return next(new BackupError("the backup's manifest is not readable"));
        }
        return next();
      }
      const target = path.join(staging, ...name.split("/"));
      fsp
        .mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
        .then(() => fsp.writeFile(target, data, { mode: 0o600, flag: "wx" }))
        .then(() => next(), next);
    });
  });
  try {
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), extract);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${path.basename(file)} is not a readable backup (${(error as Error).message})`);
  }
  if (!manifest || manifest.format !== BACKUP_FORMAT) throw new BackupError("the file has no backup manifest: it is not a complete backup");
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`the backup was written by a newer version (format ${manifest.formatVersion}); update before restoring`);
  }
  return manifest;
}

/** Every file and table of the staged copy against the manifest. */
async function verify(staging: string, manifest: BackupManifest): Promise<void> {
  const expected = [{ path: manifest.database.path, bytes: manifest.database.bytes, sha256: manifest.database.sha256 }, ...manifest.files];
  const stagedFiles = new Set(await listFiles(staging));
  for (const entry of expected) {
    if (!stagedFiles.delete(entry.path)) throw new BackupError(`${entry.path} is listed in the manifest but missing from the backup`);
    const data = await fsp.readFile(path.join(staging, ...entry.path.split("/")));
    if (data.length !== entry.bytes || sha256(data) !== entry.sha256) {
      throw new BackupError(`${entry.path} does not match its checksum in the manifest: the backup is damaged`);
    }
  }
  const extra = [...stagedFiles][0];
  if (extra) throw new BackupError(`${extra} is in the backup but not in its manifest`);

  const databaseFile = path.join(staging, DATABASE_ENTRY);
  const sqlite = new SqliteDatabase(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const integrity = sqlite.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new BackupError(`the backed-up database fails SQLite's integrity check (${String(integrity)})`);
  } finally {
    sqlite.close();
  }
  const tables = countTables(databaseFile);
  for (const [table, rows] of Object.entries(manifest.database.tables)) {
    if (tables[table] !== rows) throw new BackupError(`table ${table} has ${tables[table] ?? 0} rows, the manifest says ${rows}`);
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  files: number;
}

/**
 * Restores a backup into `dataDir`, which must be empty or missing. Everything is unpacked into a
 * hidden folder inside it (the same file system, as DATA_DIR is often a mounted volume) and checked
 * against the manifest first; only then are the database, the pictures and the secret moved up.
 * Refused (BackupError) otherwise, leaving `dataDir` empty.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<RestoreResult> {
  const target = path.resolve(dataDir);
  if (!(await isEmptyFolder(target))) {
    throw new BackupError(`${target} is not empty: restore into an empty DATA_DIR (a restore never overwrites a studio's data)`);
  }
  try {
    await fsp.access(file, fs.constants.R_OK);
  } catch {
    throw new BackupError(`cannot read ${file}`);
  }
  const staging = path.join(target, `.restoring-${randomBytes(4).toString("hex")}`);
  await fsp.mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    const manifest = await unpack(file, staging);
    await verify(staging, manifest);
    for (const entry of await fsp.readdir(staging)) await fsp.rename(path.join(staging, entry), path.join(target, entry));
    return { manifest, files: manifest.files.length + 1 };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}
