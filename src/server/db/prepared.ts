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
import type { AppDatabase } from "./client";
import { runWhileFree } from "./driver";

type Value = string | number | bigint | null;

export function preparedQuery<A extends Value[], O>(build: (db: AppDatabase, ...values: A) => Compilable<O>) {
  let prepared: { compiled: CompiledQuery<O>; slots: number[] } | null | undefined;
  return async (db: AppDatabase, ...values: A): Promise<O[]> => {
    if (prepared === undefined) {
      const marks = values.map((_, index) => `\u0000prepared-value-${index}\u0000`) as A;
      const compiled = build(db, ...marks).compile();
      const slots = compiled.parameters.map((parameter) => marks.indexOf(parameter as Value));
      const reusable = marks.every((_, index) => slots.includes(index)) && !marks.some((mark) => compiled.sql.includes(String(mark)));
      prepared = reusable ? { compiled, slots } : null;
    }
    if (prepared === null) return (await db.executeQuery(build(db, ...values).compile())).rows;
    const { compiled, slots } = prepared;
    const parameters = compiled.parameters.map((parameter, index) => (slots[index]! >= 0 ? values[slots[index]!] : parameter));
    const query: CompiledQuery<O> = { query: compiled.query, queryId: compiled.queryId, sql: compiled.sql, parameters };
    return (runWhileFree(db, query) ?? (await db.executeQuery<O>(query))).rows;
  };
}
