/** `npm run db:migrate`: apply pending migrations to the database under DATA_DIR. */
import { openDatabase } from "../src/server/db/client";
import { migrateToLatest } from "../src/server/db/migrate";
import { EnvError, parseEnv } from "../src/server/env";

try {
  const env = parseEnv();
  const db = openDatabase(env.DATABASE);
  try {
    const applied = await migrateToLatest(db);
    console.info(applied.length > 0 ? applied.join("\n") : "Database is up to date.");
    console.info(`Database: ${env.DATABASE_FILE}`);
  } finally {
    await db.destroy();
  }
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error instanceof Error ? error.message : error);
  process.exit(1);
}
