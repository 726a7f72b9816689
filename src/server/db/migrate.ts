import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FileMigrationProvider, Migrator, NO_MIGRATIONS, type MigrationResultSet } from "kysely";
import type { AppDatabase } from "./client";

/** db/migrations at the repository root; files sort by their numeric prefix. */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../db/migrations");

function migratorFor(db: AppDatabase): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS_DIR }),
  });
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
  return unwrap(await migratorFor(db).migrateToLatest());
}

/** Reverts every migration (used by the migration test and for a clean rebuild). */
export async function migrateDownToNothing(db: AppDatabase): Promise<string[]> {
  return unwrap(await migratorFor(db).migrateTo(NO_MIGRATIONS));
}
