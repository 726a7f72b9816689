/**
 * The free-disk floor (DISK_FREE_FLOOR_MB), in one place: every writer (uploads, renders and
 * re-renders, edits, upscales, listing exports, backups, the worker before it saves a result) asks
 * it before writing, so a disk that runs low stops all writing, not only uploads. The probe is the
 * store's own freeBytes (tests inject a disk of a given size); a store that cannot tell has room.
 */
import { DomainError } from "../errors";
import type { ObjectStorage } from "./storage";

export interface DiskFloor {
  readonly floorBytes: number;
  /** True when the free space is at least the floor (or the store cannot tell). */
  hasRoom(): Promise<boolean>;
  /** Refuses with serverStorageFull (503, the user's language) below the floor; nothing has been written or charged yet. */
  ensureRoom(): Promise<void>;
}

export function createDiskFloor(storage: Pick<ObjectStorage, "freeBytes">, floorMb: number): DiskFloor {
  const floorBytes = floorMb * 1_048_576;
  const floor: DiskFloor = {
    floorBytes,
    async hasRoom() {
      if (!storage.freeBytes) return true;
      return (await storage.freeBytes()) >= floorBytes;
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
