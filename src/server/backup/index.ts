/**
 * Backups (issue 16, decision 047): the server backs itself up into BACKUP_DIR every BACKUP_EVERY
 * and keeps the newest BACKUP_KEEP files; an admin can take one at once; `npm run backup` takes one
 * from the command line while the server runs. Every backup, from any of them, is a row of
 * `backups` (this module's table), which /admin and the self-test read.
 */
import fsp from "node:fs/promises";
import path from "node:path";
import { generateSecureRandomString } from "../auth/tokens";
import { createRunClaims } from "../coordination";
import type { Selectable } from "kysely";
import type { AppDatabase } from "../db/client";
import type { BackupsTable } from "../db/schema";
import { DomainError } from "../errors";
import type { Infra } from "../infra";
import {
  BACKUP_FILE_PATTERN,
  byBackupTime,
  BACKUP_KEY_NAME,
  backupKeyId,
  createBackup,
  readBackupKey,
  objectStoreRecord,
  objectStoreWords,
  type BackupResult,
  type BackupSource,
} from "./archive";
import { PostgresToolMissingError } from "./database";

export type BackupTrigger = BackupsTable["trigger"];

/** How often the schedule looks whether a backup is due. */
const CHECK_EVERY_MS = 60_000;
/** A scheduled backup's claim lasts this long unless renewed: a dead instance's lapses after it (decision 078). */
const CLAIM_LEASE_MS = 10 * 60_000;
/**
 * Held while a backup is written, whoever asked for it (the schedule, an admin's "Back up now",
 * `npm run backup`): one at a time across instances (decision 085).
 */
export const BACKUP_UNDER_WAY = "backup:running";
/** How long that hold lasts unless renewed (renewed every third of it while the backup is written). */
export const BACKUP_UNDER_WAY_LEASE_MS = CLAIM_LEASE_MS;

export interface BackupRecord {
  id: string;
  trigger: BackupTrigger;
  startedAt: number;
  finishedAt: number | null;
  file: string | null;
  bytes: number | null;
  files: number | null;
  error: string | null;
}

export interface BackupStatus {
  /** BACKUP_DIR, or null when backups are not scheduled. */
  dir: string | null;
  everyMs: number;
  keep: number;
  running: boolean;
  lastSuccess: BackupRecord | null;
  /** The latest attempt when it failed after the last success. */
  lastFailure: BackupRecord | null;
  /** When the schedule takes the next one (null without BACKUP_DIR). */
  nextAt: number | null;
  /** True when a schedule is set and the last backup is older than twice it (or none was taken in that time). */
  overdue: boolean;
  /** The backup key that signs every backup (decision 065); id null until the first backup creates it. */
  key: { file: string; id: string | null };
  /**
   * Where the files are when they are not in the backups (STORAGE_URL, with S3_ENDPOINT): backups
   * hold the database only, and the bucket is backed up with the store's own tools (decision 085).
   */
  filesElsewhere: string | null;
}

type Deps = Pick<Infra, "db" | "env" | "clock" | "log" | "version" | "startedAt" | "diskFloor">;

export function backupSource(deps: Pick<Infra, "env" | "version">): BackupSource {
  return {
    dataDir: deps.env.DATA_DIR,
    databaseFile: deps.env.DATABASE_FILE,
    databaseUrl: deps.env.DATABASE_URL,
    secretFromEnvironment: Boolean(deps.env.APP_SECRET),
    appVersion: deps.version,
    keyFile: deps.env.BACKUP_KEY_FILE ? path.resolve(deps.env.BACKUP_KEY_FILE) : path.join(deps.env.DATA_DIR, BACKUP_KEY_NAME),
    ...(deps.env.STORAGE_URL ? { filesElsewhere: { url: deps.env.STORAGE_URL, endpoint: deps.env.S3_ENDPOINT } } : {}),
  };
}

function toRecord(row: Selectable<BackupsTable>): BackupRecord {
  return {
    id: row.id,
    trigger: row.trigger,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    file: row.file,
    bytes: row.bytes,
    files: row.files,
    error: row.error,
  };
}

/**
 * Takes one backup into `dir` and records it (started, then finished or failed). Used by the
 * server and by `npm run backup`, each with its own database connection.
 */
export async function takeBackup(
  db: AppDatabase,
  source: BackupSource,
  dir: string,
  trigger: BackupTrigger,
  now: () => number,
): Promise<BackupRecord & { result?: BackupResult }> {
  const id = generateSecureRandomString();
  const startedAt = now();
  await db.insertInto("backups").values({ id, trigger, started_at: startedAt }).execute();
  try {
    const result = await createBackup(source, dir, new Date(startedAt));
    const finishedAt = now();
    const files = result.manifest.files.length + 1;
    await db
      .updateTable("backups")
      .set({ finished_at: finishedAt, file: result.file, bytes: result.bytes, files })
      .where("id", "=", id)
      .execute();
    return { id, trigger, startedAt, finishedAt, file: result.file, bytes: result.bytes, files, error: null, result };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.updateTable("backups").set({ finished_at: now(), error: message }).where("id", "=", id).execute();
    throw error;
  }
}

/** Removes all but the newest `keep` backup files of `dir` (only files named as backups). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const names = (await fsp.readdir(dir)).filter((name) => BACKUP_FILE_PATTERN.test(name)).sort(byBackupTime);
  const removed = names.slice(0, Math.max(0, names.length - keep));
  for (const name of removed) await fsp.rm(path.join(dir, name), { force: true });
  return removed;
}

export function createBackupModule(deps: Deps) {
  const { db, env, clock, log } = deps;
  const dir = env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : null;
  const everyMs = env.BACKUP_EVERY;
  let running: Promise<BackupRecord> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const claims = createRunClaims(deps);

  async function lastSuccess(): Promise<BackupRecord | null> {
    const row = await db
      .selectFrom("backups")
      .selectAll()
      .where("error", "is", null)
      .where("file", "is not", null)
      .orderBy("started_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** One at a time, here and across instances: a second request while one runs is refused, not queued. */
  function run(trigger: BackupTrigger, into: string): Promise<BackupRecord> {
    if (running) throw new DomainError("conflict", "backupRunning");
    const started = (async () => {
      const claimed = await claims.runExclusive(BACKUP_UNDER_WAY, BACKUP_UNDER_WAY_LEASE_MS, () => write(trigger, into));
      if (!claimed.ran) throw new DomainError("conflict", "backupRunning");
      return claimed.value;
    })();
    running = started;
    void started.then(
      () => (running = null),
      (error: unknown) => {
        running = null;
        if (!isRunningElsewhere(error)) log.error("backup failed", { error, trigger });
      },
    );
    return started;
  }

  /** Writes one backup into `into` and prunes the oldest beyond BACKUP_KEEP. */
  async function write(trigger: BackupTrigger, into: string): Promise<BackupRecord> {
    // The floor is measured on the data disk (where the database and pictures are, and usually the backups).
    await deps.diskFloor.ensureRoom();
    const record = await takeBackup(db, backupSource(deps), into, trigger, () => clock.now()).catch((error: unknown) => {
      // Recorded as a failed backup (the self-test and /admin show its reason); the admin is told what to install.
      if (error instanceof PostgresToolMissingError) throw new DomainError("not-configured", "backupToolMissing", { cause: error });
      throw error;
    });
    log.info("backup written", { file: record.file, bytes: record.bytes, files: record.files, trigger });
    const removed = await pruneBackups(into, env.BACKUP_KEEP);
    if (removed.length > 0) log.info("old backups removed", { removed, keep: env.BACKUP_KEEP });
    const { result: _result, ...plain } = record;
    return plain;
  }

  const module = {
    dir,

    async status(): Promise<BackupStatus> {
      const success = await lastSuccess();
      const latest = await db.selectFrom("backups").selectAll().orderBy("started_at", "desc").limit(1).executeTakeFirst();
      const lastFailure = latest && latest.error !== null && (!success || latest.started_at > success.startedAt) ? toRecord(latest) : null;
      const now = clock.now();
      const source = backupSource(deps);
      const keyFile = source.keyFile;
      const key = await readBackupKey(keyFile).catch(() => null);
      const since = success?.startedAt ?? deps.startedAt;
      return {
        dir,
        everyMs,
        keep: env.BACKUP_KEEP,
        running: running !== null || (await claims.isHeld(BACKUP_UNDER_WAY)),
        lastSuccess: success,
        lastFailure,
        nextAt: dir ? Math.max(now, (success?.startedAt ?? now) + (success ? everyMs : 0)) : null,
        overdue: dir !== null && now - since > 2 * everyMs,
        key: { file: keyFile, id: key && backupKeyId(key) },
        filesElsewhere: source.filesElsewhere ? objectStoreWords(objectStoreRecord(source.filesElsewhere)) : null,
      };
    },

    /** An admin's "Back up now" (needs BACKUP_DIR: the server does not choose where backups go). */
    async backUpNow(): Promise<BackupRecord> {
      if (!dir) throw new DomainError("not-configured", "backupDirMissing");
      return run("admin", dir);
    },

    /**
     * The schedule's step: a backup when the last one is BACKUP_EVERY old (or there is none), by the
     * one instance that claims it (instances sharing the database: decision 078). Null when not due,
     * or another instance has it.
     */
    async runIfDue(): Promise<BackupRecord | null> {
      if (!dir || running) return null;
      const success = await lastSuccess();
      if (success && clock.now() - success.startedAt < everyMs) return null;
      try {
        const claimed = await claims.runOnce({ name: "backup", everyMs, leaseMs: CLAIM_LEASE_MS }, () => run("schedule", dir));
        return claimed.ran ? claimed.value : null;
      } catch (error) {
        // A backup under way elsewhere (an admin's): the schedule's claim was released, its next look decides.
        if (isRunningElsewhere(error)) return null;
        throw error;
      }
    },

    /** Looks every minute (not at once: start-up stays quick) whether a backup is due. */
    start(): void {
      if (!dir || timer) return;
      timer = setInterval(() => void module.runIfDue().catch(() => undefined), CHECK_EVERY_MS);
      timer.unref();
    },

    /** Stops the schedule and waits for a backup under way. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
  return module;
}

export type BackupModule = ReturnType<typeof createBackupModule>;

const isRunningElsewhere = (error: unknown) => error instanceof DomainError && error.messageName === "backupRunning";
