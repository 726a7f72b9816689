/** `npm run db:migrate`: apply pending migrations to the database (DATABASE_URL, or the file under DATA_DIR). */
import { describeDatabase, openDatabase } from "../src/server/db/client";
import { migrateToLatest } from "../src/server/db/migrate";
import { EnvError, parseEnv } from "../src/server/env";

try {
  const env = parseEnv();
  const db = openDatabase(env.DATABASE);
  try {
    const applied = await migrateToLatest(db);
    console.info(applied.length > 0 ? applied.join("\n") : "Database is up to date.");
    console.info(`Database: ${describeDatabase(env.DATABASE)}`);
  } finally {
    await db.destroy();
  }
} catch (error) {
  console.error(error instanceof EnvError ? error.message : error instanceof Error ? error.message : error);
  process.exit(1);
}
