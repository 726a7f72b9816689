/**
 * What a migration writes differently on SQLite and on PostgreSQL (decision 075). One set of
 * migrations builds both schemas; each difference is named here once:
 *
 * - whole numbers: SQLite's integer is 64 bits, PostgreSQL's is 32, and millisecond times and byte
 *   counts overflow it: `bigint` there;
 * - fractions: SQLite's real is a double, PostgreSQL's real a single: `double precision` there;
 * - bytes: blob, bytea;
 * - the time now in milliseconds, as a column default;
 * - e-mail addresses compared without case: SQLite's NOCASE collation, PostgreSQL's citext;
 * - ids counted up by the database: autoincrement, an identity column;
 * - JSON checks: json_valid/json_type, a cast to jsonb (which refuses text that is not JSON);
 * - a random id in a statement that fills rows: randomblob, gen_random_uuid.
 *
 * On SQLite every helper writes exactly the SQL the migrations wrote before it existed, so an
 * existing install and a new one keep one schema (tests/integration/migrations.test.ts compares
 * the two databases' schemas).
 */
import { sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from "kysely";
import { PostgresAdapter } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's schema types
type AnyDb = Kysely<any>;

export interface Portable {
  postgres: boolean;
  /** A whole number (64 bits on both). */
  int: "integer" | "bigint";
  /** A fraction (a double on both). */
  real: "real" | "double precision";
  /** Raw bytes. */
  bytes: "blob" | "bytea";
  /** Now, in milliseconds since 1970, for `defaultTo`. */
  now: RawBuilder<number>;
  /** The type of an e-mail address column compared without case (with `caseless` on the column). */
  emailText: "text" | RawBuilder<unknown>;
  caseless: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** A primary key the database counts up (1, 2, 3…): the column's type is `int`. */
  autoId: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** A check that the text column holds JSON (of any kind). */
  isJson: (column: string) => RawBuilder<boolean>;
  /** A check that the text column holds a JSON object. */
  isJsonObject: (column: string) => RawBuilder<boolean>;
  /** A random id of 30 hex digits, for statements that fill rows. */
  randomId: RawBuilder<string>;
}

export function portable(db: AnyDb): Portable {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    return {
      postgres,
      int: "bigint",
      real: "double precision",
      bytes: "bytea",
      now: sql<number>`(floor(extract(epoch from clock_timestamp()) * 1000)::bigint)`,
      emailText: sql`citext`,
      caseless: (col) => col,
      autoId: (col) => col.primaryKey().generatedByDefaultAsIdentity(),
      // NULL passes, as json_valid(NULL) does on SQLite; text that is not JSON fails the cast.
      isJson: (column) => sql<boolean>`(${sql.raw(column)}::jsonb IS NOT NULL OR ${sql.raw(column)} IS NULL)`,
      isJsonObject: (column) => sql<boolean>`jsonb_typeof(${sql.raw(column)}::jsonb) = 'object'`,
      randomId: sql<string>`substr(replace(gen_random_uuid()::text, '-', ''), 1, 30)`,
    };
  }
  return {
    postgres,
    int: "integer",
    real: "real",
    bytes: "blob",
    now: sql<number>`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`,
    emailText: "text",
    caseless: (col) => col.modifyEnd(sql`COLLATE NOCASE`),
    autoId: (col) => col.primaryKey().autoIncrement(),
    isJson: (column) => sql<boolean>`json_valid(${sql.raw(column)})`,
    isJsonObject: (column) => sql<boolean>`json_valid(${sql.raw(column)}) AND json_type(${sql.raw(column)}) = 'object'`,
    randomId: sql<string>`lower(hex(randomblob(15)))`,
  };
}

/**
 * Run once on a new PostgreSQL database before the first migration: the extension citext comes
 * with PostgreSQL (contrib) and is trusted, so the database's owner may create it.
 */
export async function preparePostgres(db: AnyDb): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS citext`.execute(db);
}
