/**
 * The adapters every capability is built on, made once at boot (or by a test): configuration,
 * the database, the log, time, mail, the secret box and file storage. Capabilities receive the
 * part they use; nothing here knows about tRPC, HTTP or any capability.
 */
import type { SecretBox } from "./auth/encryption";
import type { Clock } from "./clock";
import type { CrossInstanceChannel } from "./coordination";
import type { AppDatabase } from "./db/client";
import type { Env } from "./env";
import type { Logger } from "./logger";
import type { Mailer } from "./mail/mailer";
import type { DiskFloor } from "./storage/disk-floor";
import type { ObjectStorage } from "./storage/storage";

export interface Infra {
  env: Env;
  db: AppDatabase;
  log: Logger;
  clock: Clock;
  version: string;
  startedAt: number;
  mailer: Mailer;
  secretBox: SecretBox;
  storage: ObjectStorage;
  /** DISK_FREE_FLOOR_MB over the store's free space: every writer asks it first. */
  diskFloor: DiskFloor;
  /**
   * The channel to the other instances on one PostgreSQL database (LISTEN/NOTIFY; decisions 082,
   * 083); null on SQLite, where one process serves everything. Opened by startApp.
   */
  crossInstance: CrossInstanceChannel | null;
}
