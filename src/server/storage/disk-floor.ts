/**
 * The free-disk floor (DISK_FREE_FLOOR_MB), in one place: every writer (uploads, renders and
 * re-renders, edits, upscales, listing exports, backups, the worker before it saves a result) asks
 * it before writing, so a disk that runs low stops all writing, not only uploads. The probe is the
 * store's own freeBytes (tests inject a disk of a given size). A store without a disk of its own
 * (S3, decision 076) leaves the floor to DATA_DIR's disk, where the SQLite database, its journal
 * and the backup work folders are: a write still adds rows there, and a full disk would stop the
 * database, not the bucket.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { DomainError } from "../errors";
import type { ObjectStorage } from "./storage";

export interface DiskFloor {
  readonly floorBytes: number;
  /**
   * True when the disk measured is the one the stored files are on: removing pictures then makes
   * room (with files in a bucket it would not, so nothing is removed to make room).
   */
  readonly coversStoredFiles: boolean;
  /** True when the free space is at least the floor (or the store cannot tell). */
  hasRoom(): Promise<boolean>;
  /** Refuses with serverStorageFull (503, the user's language) below the floor; nothing has been written or charged yet. */
  ensureRoom(): Promise<void>;
}

/**
 * Free space, for this unprivileged process, of the file system holding `dir` (or the nearest
 * folder above it that exists: with PostgreSQL and a bucket, nothing may have made DATA_DIR yet).
 */
export async function freeBytesAt(dir: string): Promise<number> {
  let folder = path.resolve(dir);
  for (;;) {
    try {
      const stats = await fs.statfs(folder);
      // What an unprivileged process may still write (bavail), not the blocks kept for root.
      return stats.bavail * stats.bsize;
    } catch (error) {
      const parent = path.dirname(folder);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === folder) throw error;
      folder = parent;
    }
  }
}

/**
 * The floor over the store's own free space; over `dataDir`'s disk when the store has no disk of
 * its own and a folder is given; otherwise a store that cannot tell has room.
 */
export function createDiskFloor(storage: Pick<ObjectStorage, "freeBytes">, floorMb: number, dataDir?: string): DiskFloor {
  const floorBytes = floorMb * 1_048_576;
  const probe = storage.freeBytes ? () => storage.freeBytes!() : dataDir ? () => freeBytesAt(dataDir) : null;
  const floor: DiskFloor = {
    floorBytes,
    coversStoredFiles: Boolean(storage.freeBytes),
    async hasRoom() {
      if (!probe) return true;
      return (await probe()) >= floorBytes;
    },
    async ensureRoom() {
      if (!(await floor.hasRoom())) throw new DomainError("unavailable", "serverStorageFull");
    },
  };
  return floor;
}

/** True for the floor's refusal (the worker turns it into a failed, refunded job). */
export function isDiskFull(error: unknown): boolean {
  return error instanceof DomainError && error.messageName === "serverStorageFull";
}
