/**
 * Queries compiled once and run again with new values (decision 044). Building and compiling a Kysely
 * query took about a fifth of a session-checked request; the statements every request runs (the
 * session lookup) and the hot reads are built once with marker values, and each later call only swaps
 * the values into the compiled parameters.
 *
 * The compiled query runs at once when the connection is free (driver.ts runWhileFree, decision 046),
 * else through Kysely like any other query (inside a transaction, or while one holds the connection).
 *
 * A value that Kysely writes into the SQL instead of a parameter (e.g. `is null`) would make the text
 * differ from call to call: such a query is detected when it is first compiled and is then built each time.
 */
import type { Compilable, CompiledQuery } from "kysely";
import { dialectOf, type AppDatabase, type DatabaseDialect } from "./client";
import { runWhileFree } from "./driver";

type Value = string | number | bigint | null;

/**
 * The compiled form is kept per dialect: SQLite's and PostgreSQL's SQL differ (`?` and `$1`), and one
 * process may open both (the benchmarks, a test's tools); compiled once for the first it met, the
 * query was sent to the other as it was.
 */
export function preparedQuery<A extends Value[], O>(build: (db: AppDatabase, ...values: A) => Compilable<O>) {
  const preparedFor: Partial<Record<DatabaseDialect, { compiled: CompiledQuery<O>; slots: number[] } | null>> = {};
  return async (db: AppDatabase, ...values: A): Promise<O[]> => {
    const dialect = dialectOf(db);
    let prepared = preparedFor[dialect];
    if (prepared === undefined) {
      const marks = values.map((_, index) => `\u0000prepared-value-${index}\u0000`) as A;
      const compiled = build(db, ...marks).compile();
      const slots = compiled.parameters.map((parameter) => marks.indexOf(parameter as Value));
      const reusable = marks.every((_, index) => slots.includes(index)) && !marks.some((mark) => compiled.sql.includes(String(mark)));
      prepared = preparedFor[dialect] = reusable ? { compiled, slots } : null;
    }
    if (prepared === null) return (await db.executeQuery(build(db, ...values).compile())).rows;
    const { compiled, slots } = prepared;
    const parameters = compiled.parameters.map((parameter, index) => (slots[index]! >= 0 ? values[slots[index]!] : parameter));
    const query: CompiledQuery<O> = { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
    return (runWhileFree(db, query) ?? (await db.executeQuery<O>(query))).rows;
  };
}
