/**
 * `npm run restore [-- --accept-unsigned] FILE`: restores a backup (npm run backup, or the server's
 * schedule) into DATA_DIR, which must be empty or missing. The manifest must carry the signature of
 * the backup key in BACKUP_KEY_FILE (decision 065; an unsigned, older backup only with
 * --accept-unsigned); every file is checked against it (sizes and SHA-256), the database passes
 * SQLite's integrity check and its tables hold the rows the manifest counts, before anything is
 * moved into DATA_DIR (decision 047). With DATABASE_URL set, a PostgreSQL backup's pg_dump is restored
 * with pg_restore into that database, which must be empty, and its tables must then hold the rows the
 * manifest counts (decision 081); a backup of the other engine is refused. A backup of a studio whose
 * files are in a bucket holds the database only: the restore says which bucket keeps them, and warns
 * when STORAGE_URL is unset or names another (decision 085). Then start the server on that DATA_DIR
 * (and DATABASE_URL). Exit code 0, 1 when refused (with the reason), 2 for a usage error.
 */
import path from "node:path";
import { BackupError, objectStoreWords, restoreBackup } from "../src/server/backup/archive";
import { EnvError, parseEnv } from "../src/server/env";

/** The database's name, never the URL (it may hold a password). */
const databaseNameOf = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, "")) || "(the user's default)";

async function main(args: string[]): Promise<number> {
  const acceptUnsigned = args.includes("--accept-unsigned");
  const files = args.filter((arg) => arg !== "--accept-unsigned");
  if (files.length !== 1 || files[0]!.startsWith("--")) {
    console.error(
      "Usage: npm run restore [-- --accept-unsigned] FILE   (into DATA_DIR, which must be empty, with the backup key of the studio " +
        "that made it: BACKUP_KEY_FILE=/safe/place/backup-key DATA_DIR=/srv/studio npm run restore backup.tar.gz; a PostgreSQL " +
        "backup also needs DATABASE_URL naming an empty database)",
    );
    return 2;
  }
  const env = parseEnv();
  try {
    const keyFile = env.BACKUP_KEY_FILE ? path.resolve(env.BACKUP_KEY_FILE) : undefined;
    const { manifest, signed } = await restoreBackup(path.resolve(files[0]!), env.DATA_DIR, {
      keyFile,
      acceptUnsigned,
      databaseUrl: env.DATABASE_URL,
    });
    if (!signed) {
      console.warn("Warning: this backup is not signed: nothing proves it is the backup your studio wrote, unchanged. Restored as asked.");
    }
    const rows = Object.values(manifest.database.tables).reduce((sum, count) => sum + count, 0);
    const into = env.DATABASE_URL ? `${env.DATA_DIR} and the PostgreSQL database ${databaseNameOf(env.DATABASE_URL)}` : env.DATA_DIR;
    console.info(`Restored into ${into}: the backup of ${manifest.createdAt} (version ${manifest.appVersion})`);
    const objectStore = manifest.storage.objectStore;
    console.info(
      `  ${Object.keys(manifest.database.tables).length} tables, ${rows} rows${env.DATABASE_URL ? " (counted again after pg_restore: equal)" : ""}; ` +
        `${objectStore ? "the database only" : `${manifest.storage.files} pictures`}; every checksum matched`,
    );
    if (signed) console.info(`  signature matched the backup key; the key is now ${path.join(env.DATA_DIR, "backup-key")} too`);
    if (!manifest.secret.included) console.info(`  app secret not in the backup: ${manifest.secret.note}`);
    if (objectStore) {
      // The pictures were never in this backup: the bucket named keeps them (decision 085).
      console.info(`  pictures not in the backup: they stay in ${objectStoreWords(objectStore)}, where the studio kept them`);
      if (!env.STORAGE_URL) {
        console.warn(
          `STORAGE_URL is not set: start the server with STORAGE_URL=${objectStore.url}${objectStore.endpoint ? ` S3_ENDPOINT=${objectStore.endpoint}` : ""} ` +
            "and its keys (S3_*), or it will look for the pictures under DATA_DIR and find none.",
        );
      } else if (env.STORAGE_URL !== objectStore.url) {
        console.warn(
          `STORAGE_URL is ${env.STORAGE_URL}, and the backup's files are in ${objectStore.url}: point STORAGE_URL at that bucket ` +
            "(or at a copy of it restored with the object store's own tools) before starting.",
        );
      }
    } else if (env.STORAGE_URL && manifest.storage.files > 0) {
      // The server reads the bucket, not these files (decision 076): said here, not found out from missing pictures.
      const folder = path.join(env.DATA_DIR, "storage");
      console.warn(
        `STORAGE_URL is set: the pictures were restored into ${folder}, where the server will not read them. ` +
          `Copy them into the bucket before starting (e.g. aws s3 sync ${folder}/ ${env.STORAGE_URL.replace(/\/*$/, "/")}), then remove ${folder}.`,
      );
    }
    console.info(`Start the server on this DATA_DIR${env.DATABASE_URL ? " and DATABASE_URL" : ""}: npm start`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(`Restore refused: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof EnvError ? error.message : `Restore failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
