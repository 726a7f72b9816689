/**
 * A write refused by a unique index or primary key: SQLite's SQLITE_CONSTRAINT_UNIQUE or
 * _PRIMARYKEY, PostgreSQL's unique_violation (23505). Callers decide what a duplicate means.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
