/**
 * `npm run backup [DIR]`: one backup of the studio under DATA_DIR into DIR (default BACKUP_DIR),
 * while the server runs: the database (a consistent snapshot: VACUUM INTO, or pg_dump of DATABASE_URL's
 * PostgreSQL database, decision 081), every stored picture and the app
 * secret, as one .tar.gz with a manifest signed with the install's backup key (decisions 047, 065). Recorded for /admin like the server's own.
 * Into BACKUP_DIR, the oldest backups beyond BACKUP_KEEP are then removed. Exit code 0, or 1 with
 * the reason. With STORAGE_URL set the files are in a bucket: the backup holds the database (and the
 * app secret) only, names the bucket, and says its files are backed up with the store's own tools
 * (decision 085). One backup at a time with the servers on this database.
 */
import path from "node:path";
import { takeBackup, pruneBackups, backupSource, BACKUP_UNDER_WAY, BACKUP_UNDER_WAY_LEASE_MS } from "../src/server/backup";
import { systemClock } from "../src/server/clock";
import { createRunClaims } from "../src/server/coordination";
import { backupKeyId, objectStoreWords, readBackupKey } from "../src/server/backup/archive";
import { openDatabase } from "../src/server/db/client";
import { migrateToLatest } from "../src/server/db/migrate";
import { EnvError, parseEnv } from "../src/server/env";
import { APP_VERSION } from "../src/server/version";
import { MESSAGES } from "../src/shared/messages";

function sizeText(bytes: number): string {
  return bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

async function main(args: string[]): Promise<number> {
  const env = parseEnv();
  const target = args[0] ?? env.BACKUP_DIR;
  if (!target || args.length > 1) {
    console.error("Usage: npm run backup [DIR]   (DIR defaults to BACKUP_DIR; the studio is the one under DATA_DIR)");
    return 2;
  }
  const dir = path.resolve(target);
  const db = openDatabase(env.DATABASE);
  try {
    await migrateToLatest(db);
    const source = backupSource({ env, version: APP_VERSION });
    // One backup at a time with the servers on this database, whoever asked for it (decision 085).
    const claimed = await createRunClaims({ db, clock: systemClock }).runExclusive(BACKUP_UNDER_WAY, BACKUP_UNDER_WAY_LEASE_MS, () =>
      takeBackup(db, source, dir, "command", () => Date.now()),
    );
    if (!claimed.ran) {
      console.error(`Backup not taken: ${MESSAGES.backupRunning}`);
      return 1;
    }
    const record = claimed.value;
    const manifest = record.result!.manifest;
    const tables = Object.values(manifest.database.tables).reduce((sum, rows) => sum + rows, 0);
    console.info(`Backup written: ${record.file} (${sizeText(record.bytes ?? 0)})`);
    const objectStore = manifest.storage.objectStore;
    console.info(
      `  database ${manifest.database.engine === "postgres" ? "(pg_dump) " : ""}${sizeText(manifest.database.bytes)}, ${Object.keys(manifest.database.tables).length} tables, ${tables} rows; ` +
        (objectStore ? "the database only" : `${manifest.storage.files} pictures (${sizeText(manifest.storage.bytes)})`),
    );
    if (objectStore) {
      console.info(
        `  pictures NOT in this backup: they stay in ${objectStoreWords(objectStore)} (STORAGE_URL). Back up the bucket with the ` +
          "object store's own tools (bucket versioning, replication to another bucket or region): docs/scaling-out.md",
      );
    }
    console.info(manifest.secret.included ? "  app secret included" : `  app secret NOT included: ${manifest.secret.note}`);
    if (env.BACKUP_DIR && path.resolve(env.BACKUP_DIR) === dir) {
      const removed = await pruneBackups(dir, env.BACKUP_KEEP);
      if (removed.length > 0) console.info(`  removed ${removed.length} older backup(s), keeping ${env.BACKUP_KEEP}`);
    }
    console.info(
      `  signed with backup key ${backupKeyId(await readBackupKey(source.keyFile))} (${source.keyFile}): keep a copy of that file off this machine, a restore needs it`,
    );
    // Never the password: DATABASE_URL is named, not printed.
    const into = env.DATABASE_URL ? "DATABASE_URL=postgres://…/an_empty_database APP_SECRET=… " : "";
    console.info(`Restore with: BACKUP_KEY_FILE=${source.keyFile} DATA_DIR=/an/empty/folder ${into}npm run restore ${record.file}`);
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof EnvError ? error.message : `Backup failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
