/**
 * Read, check, then write, safely on both databases (decision 080).
 *
 * On SQLite a transaction holds the one writer lock from its start (the driver begins it IMMEDIATE),
 * so nothing else writes between its read and its write. On PostgreSQL, whose transactions run
 * side by side (READ COMMITTED), the rows a transaction reads before deciding must be locked:
 * `forUpdate(trx, query)` adds FOR UPDATE there, and a concurrent transaction reading the same rows
 * waits until this one ends, then reads what it wrote.
 */
import { sql, type SelectQueryBuilder, type Transaction } from "kysely";
import { dialectOf } from "./client";
import type { Database } from "./schema";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any select of the app's tables
export function forUpdate<Query extends SelectQueryBuilder<Database, any, any>>(trx: Transaction<Database>, query: Query): Query {
  return dialectOf(trx) === "postgres" ? (query.forUpdate() as Query) : query;
}

/**
 * Locks the rows a query selects until the transaction ends, on PostgreSQL: for a write that
 * computes from other rows (the next number of a series) without reading them first. Nothing to do
 * on SQLite, whose transaction already holds the writer lock.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any select of the app's tables
export async function lockRows(trx: Transaction<Database>, query: SelectQueryBuilder<Database, any, any>): Promise<void> {
  if (dialectOf(trx) === "postgres") await query.forUpdate().execute();
}

/**
 * Holds a named lock until the transaction ends, on PostgreSQL (a transaction-level advisory lock):
 * for a decision on rows that do not exist yet, such as a count per address. Nothing to do on SQLite.
 */
export async function lockName(trx: Transaction<Database>, name: string): Promise<void> {
  if (dialectOf(trx) === "postgres") await sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}
