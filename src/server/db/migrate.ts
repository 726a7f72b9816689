import { Migrator, NO_MIGRATIONS, type MigrationResultSet } from "kysely/migration";
import { migrations } from "../../../db/migrations";
import { preparePostgres } from "../../../db/migrations/portable";
import { dialectOf, type AppDatabase } from "./client";

function migratorFor(db: AppDatabase): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((step) => step.status === "Error");
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${reason}`, { cause: result.error });
  }
  return (result.results ?? []).map((step) => `${step.direction === "Up" ? "applied" : "reverted"} ${step.migrationName}`);
}

/** Applies every pending migration; returns a line per migration applied. */
export async function migrateToLatest(db: AppDatabase): Promise<string[]> {
  if (dialectOf(db) === "postgres") await preparePostgres(db);
  return unwrap(await migratorFor(db).migrateToLatest());
}

/** Reverts every migration (used by the migration test and for a clean rebuild). */
export async function migrateDownToNothing(db: AppDatabase): Promise<string[]> {
  return unwrap(await migratorFor(db).migrateTo(NO_MIGRATIONS));
}
