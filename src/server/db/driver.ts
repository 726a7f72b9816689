/**
 * A Kysely dialect over better-sqlite3 that keeps prepared statements (decision 044).
 *
 * Kysely's own SqliteDriver prepares every statement again (a third of a simple query's cost) and its
 * connection mutex wakes every waiting query each time the lock is released, so N concurrent requests
 * cost O(N²) wake-ups. This driver caches statements by SQL text (bounded, least recently used first
 * out) and hands the connection to exactly one waiter, in arrival order.
 *
 * A whole-number LIMIT is written into the SQL instead of bound: SQLite (3.46 and later) reads a bound
 * LIMIT while planning, so every new binding of `limit ?` expires the statement and it is compiled again
 * at its next run (measured: /profile's favourite styles took 73 µs instead of 17). Each distinct limit
 * is then its own cached statement; limits are page sizes, a handful of values.
 *
 * `runWhileFree(db, query)` runs a compiled query at once when nothing holds the connection (no
 * transaction is open, no query is between acquire and release): it is what Kysely would do, without its
 * dozen awaits through the executor, the connection provider and the queue. db/prepared.ts uses it for
 * the reads every request makes (decision 046). Kysely plugins and query logging are not applied on that
 * road: openDatabase configures neither.
 *
 * A statement that changes the schema (CREATE, ALTER, DROP) empties the cache. SQLite re-prepares a
 * stale statement by itself and better-sqlite3 reads the columns at each run (tests/unit/db-driver.test.ts
 * checks both); emptying keeps no statement of a schema that is gone (migrations down and up again).
 */
import type { Database as SqliteDatabase, Statement } from "better-sqlite3";
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type LimitNode,
  type QueryResult,
  ValueNode,
} from "kysely";

/** Distinct statements kept; the app has a few hundred, `IN (?, ?, …)` lists make more. */
const STATEMENT_CACHE_SIZE = 1000;

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

export interface CachingSqliteDialectConfig {
  database: SqliteDatabase;
  /** Called with each statement's SQL before it runs (tests count statements with it). */
  onStatement?: (sql: string) => void;
}

class StatementCache {
  readonly #db: SqliteDatabase;
  readonly #statements = new Map<string, Statement>();

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  get(sql: string): Statement {
    const cached = this.#statements.get(sql);
    if (cached) {
      // Re-inserting moves it to the end: the Map's order is the recency order.
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = this.#db.prepare(sql);
    if (SCHEMA_CHANGE.test(sql)) {
      this.#statements.clear();
      return statement;
    }
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
    this.#statements.set(sql, statement);
    return statement;
  }

  clear(): void {
    this.#statements.clear();
  }
}

class CachingConnection implements DatabaseConnection {
  readonly #cache: StatementCache;
  readonly #onStatement: ((sql: string) => void) | undefined;

  constructor(cache: StatementCache, onStatement: ((sql: string) => void) | undefined) {
    this.#cache = cache;
    this.#onStatement = onStatement;
  }

  /** Runs the statement now (better-sqlite3 is synchronous). */
  run<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const { sql, parameters } = compiledQuery;
    this.#onStatement?.(sql);
    const statement = this.#cache.get(sql);
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.run<R>(compiledQuery);
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) throw new Error("Sqlite driver only supports streaming of select queries");
    this.#onStatement?.(compiledQuery.sql);
    for (const row of this.#cache.get(compiledQuery.sql).iterate(compiledQuery.parameters)) yield { rows: [row as R] };
  }
}

/** One connection, handed to one waiter at a time in arrival order (no thundering herd). */
class ConnectionQueue {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  /** True from an acquire until the release that finds nobody waiting. */
  get held(): boolean {
    return this.#held;
  }

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(): void {
    const next = this.#waiting.shift();
    // The lock passes straight to the next waiter; it is free only when nobody waits.
    if (next) next();
    else this.#held = false;
  }
}

class CachingSqliteDriver implements Driver {
  readonly #config: CachingSqliteDialectConfig;
  readonly #queue = new ConnectionQueue();
  readonly #cache: StatementCache;
  readonly #connection: CachingConnection;
  #destroyed = false;

  constructor(config: CachingSqliteDialectConfig) {
    this.#config = config;
    this.#cache = new StatementCache(config.database);
    this.#connection = new CachingConnection(this.#cache, config.onStatement);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#queue.acquire();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    // IMMEDIATE: the writer lock from the start, so a read-check-write never meets a write of another
    // process (a worker and a web instance on one file) between its read and its write (decision 080).
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {
    this.#queue.release();
  }

  /** The query's result when the connection is free now; undefined when it is held (or gone): then ask Kysely. */
  runWhileFree<R>(compiledQuery: CompiledQuery): QueryResult<R> | undefined {
    if (this.#destroyed || this.#queue.held) return undefined;
    return this.#connection.run<R>(compiledQuery);
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    this.#cache.clear();
    this.#config.database.close();
  }
}

/** SQLite's compiler, with whole-number limits written into the SQL (see the header). */
export class LimitInliningCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const limit = ValueNode.is(node.limit) ? node.limit.value : undefined;
    if (typeof limit === "number" && Number.isSafeInteger(limit)) this.append(`limit ${limit}`);
    else super.visitLimit(node);
  }
}

/** The driver behind each database opened with this dialect (see `runWhileFree`). */
const drivers = new WeakMap<object, CachingSqliteDriver>();

/**
 * Runs a compiled query at once on `db`'s connection when nothing holds it, and returns its result;
 * undefined when `db` is not a database opened with this dialect (a transaction, for one) or when the
 * connection is held: then run it through Kysely, which waits for its turn.
 */
export function runWhileFree<R>(db: object, compiledQuery: CompiledQuery<R>): QueryResult<R> | undefined {
  return drivers.get(db)?.runWhileFree<R>(compiledQuery);
}

export class CachingSqliteDialect implements Dialect {
  readonly #config: CachingSqliteDialectConfig;
  #driver: CachingSqliteDriver | undefined;

  constructor(config: CachingSqliteDialectConfig) {
    this.#config = config;
  }

  createDriver(): Driver {
    this.#driver = new CachingSqliteDriver(this.#config);
    return this.#driver;
  }

  /** Lets `runWhileFree(db, …)` use this dialect's driver (the Kysely instance made with it). */
  serve(db: object): void {
    if (!this.#driver) throw new Error("the dialect has no driver yet: call serve with the Kysely instance made with it");
    drivers.set(db, this.#driver);
  }

  createQueryCompiler() {
    return new LimitInliningCompiler();
  }

  createAdapter() {
    return new SqliteAdapter();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the introspector reads any schema
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
