/**
 * `npm run restore FILE`: restores a backup (npm run backup, or the server's schedule) into
 * DATA_DIR, which must be empty or missing. Every file is checked against the backup's manifest
 * (sizes and SHA-256), the database passes SQLite's integrity check and its tables hold the rows
 * the manifest counts, before anything is moved into DATA_DIR (decision 047). Then start the
 * server on that DATA_DIR. Exit code 0, 1 when refused (with the reason), 2 for a usage error.
 */
import path from "node:path";
import { BackupError, restoreBackup } from "../src/server/backup/archive";
import { EnvError, parseEnv } from "../src/server/env";

async function main(args: string[]): Promise<number> {
  if (args.length !== 1) {
    console.error("Usage: npm run restore FILE   (into DATA_DIR, which must be empty: DATA_DIR=/srv/studio npm run restore backup.tar.gz)");
    return 2;
  }
  const env = parseEnv();
  try {
    const { manifest } = await restoreBackup(path.resolve(args[0]!), env.DATA_DIR);
    const rows = Object.values(manifest.database.tables).reduce((sum, count) => sum + count, 0);
    console.info(`Restored into ${env.DATA_DIR}: the backup of ${manifest.createdAt} (version ${manifest.appVersion})`);
    console.info(
      `  ${Object.keys(manifest.database.tables).length} tables, ${rows} rows; ${manifest.storage.files} pictures; every checksum matched`,
    );
    if (!manifest.secret.included) console.info(`  app secret not in the backup: ${manifest.secret.note}`);
    console.info("Start the server on this DATA_DIR: npm start");
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
