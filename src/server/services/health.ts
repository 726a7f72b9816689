import { sql } from "kysely";
import type { AppDatabase } from "../db/client";

export interface DatabaseHealth {
  ok: boolean;
  /** Number of applied migrations, proving the schema is in place. */
  migrations: number;
  error?: string;
}

/** Runs a real query against the database: counts applied migrations. */
export async function checkDatabase(db: AppDatabase): Promise<DatabaseHealth> {
  try {
    const row = await sql<{ count: number }>`SELECT COUNT(*) AS count FROM kysely_migration`.execute(db);
    return { ok: true, migrations: Number(row.rows[0]?.count ?? 0) };
  } catch (error) {
    return { ok: false, migrations: 0, error: error instanceof Error ? error.message : String(error) };
  }
}
