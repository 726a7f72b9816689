/**
 * The caching SQLite dialect (src/server/db/driver.ts, decision 044): the same answers as
 * better-sqlite3 alone, transactions that commit and roll back, no stale statement after the schema
 * changes, the one connection handed to waiters in the order they asked, and whole-number limits
 * written into the SQL (a bound LIMIT makes SQLite compile the statement again at each run), and
 * prepared reads run at once when the connection is free but wait for a transaction that holds it,
 * compiled for each dialect they meet.
 */
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, sql, type PostgresPoolClient } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { preparedQuery } from "../../src/server/db/prepared";
import { makeTempDir } from "../helpers/test-env";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables made by the test itself
type AnyDb = Kysely<any>;

let db: AnyDb | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

function open(onStatement?: (sql: string) => void): { db: AnyDb; file: string } {
  const file = path.join(makeTempDir(), "app.db");
  db = openDatabase(file, { onStatement }) as unknown as AnyDb;
  return { db, file };
}

describe("caching SQLite driver", () => {
  it("answers as better-sqlite3 does, statement after statement", async () => {
    const { db, file } = open();
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
    for (let index = 0; index < 20; index++) {
      const inserted = await db
        .insertInto("notes")
        .values({ body: `note ${index}` })
        .executeTakeFirstOrThrow();
      expect(inserted.insertId).toBe(BigInt(index + 1));
    }
    const updated = await db
      .updateTable("notes")
      .set({ body: "even" })
      .where(sql`id % 2`, "=", 0)
      .executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(10n);
    for (const id of [1, 2, 19]) {
      expect(await db.selectFrom("notes").selectAll().where("id", "=", id).executeTakeFirst()).toEqual(
        new SqliteDatabase(file, { readonly: true }).prepare("SELECT * FROM notes WHERE id = ?").get(id),
      );
    }
  });

  it("commits and rolls back transactions on the cached statements", async () => {
    const { db } = open();
    await sql`CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL)`.execute(db);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto("ledger").values({ amount: 5 }).execute();
      await trx.insertInto("ledger").values({ amount: 7 }).execute();
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("ledger").values({ amount: 100 }).execute();
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    const total = await db
      .selectFrom("ledger")
      .select((eb) => eb.fn.sum<number>("amount").as("total"))
      .executeTakeFirstOrThrow();
    expect(total.total).toBe(12);
  });

  it("sees a column added after a statement was cached", async () => {
    const { db } = open();
    await sql`CREATE TABLE rooms (id INTEGER PRIMARY KEY, name TEXT)`.execute(db);
    await db.insertInto("rooms").values({ name: "kitchen" }).execute();
    expect(await db.selectFrom("rooms").selectAll().execute()).toEqual([{ id: 1, name: "kitchen" }]);
    await db.schema
      .alterTable("rooms")
      .addColumn("floor", "integer", (col) => col.notNull().defaultTo(2))
      .execute();
    expect(await db.selectFrom("rooms").selectAll().execute()).toEqual([{ id: 1, name: "kitchen", floor: 2 }]);
    await db.schema.dropTable("rooms").execute();
    await sql`CREATE TABLE rooms (id INTEGER PRIMARY KEY, label TEXT)`.execute(db);
    expect(await db.selectFrom("rooms").selectAll().execute()).toEqual([]);
    await db.insertInto("rooms").values({ label: "attic" }).execute();
    expect(await db.selectFrom("rooms").selectAll().execute()).toEqual([{ id: 1, label: "attic" }]);
  });

  it("hands the connection to one waiter at a time, in the order they asked", async () => {
    const seen: string[] = [];
    const { db } = open((statement) => seen.push(statement));
    await sql`CREATE TABLE steps (id INTEGER PRIMARY KEY, who TEXT NOT NULL)`.execute(db);
    seen.length = 0;
    // Three transactions started together: each holds the connection from begin to commit.
    await Promise.all(
      ["a", "b", "c"].map((who) =>
        db!.transaction().execute(async (trx) => {
          await trx.insertInto("steps").values({ who }).execute();
          await new Promise((resolve) => setImmediate(resolve));
          await trx.insertInto("steps").values({ who }).execute();
        }),
      ),
    );
    const rows = await db.selectFrom("steps").select("who").orderBy("id").execute();
    expect(rows.map((row) => row.who).join("")).toBe("aabbcc");
    // IMMEDIATE: each transaction holds the writer lock from its start (decision 080).
    expect(seen.filter((statement) => statement === "begin immediate" || statement === "commit")).toEqual([
      "begin immediate",
      "commit",
      "begin immediate",
      "commit",
      "begin immediate",
      "commit",
    ]);
  });

  it("writes a whole-number limit into the SQL and binds anything else, with the same answers", async () => {
    const seen: string[] = [];
    const { db } = open((statement) => seen.push(statement));
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
    await db
      .insertInto("notes")
      .values(["a", "b", "c"].map((body) => ({ body })))
      .execute();
    seen.length = 0;
    const page = (limit: number) => db.selectFrom("notes").select("body").orderBy("id").limit(limit).offset(1).execute();
    expect(await page(1)).toEqual([{ body: "b" }]);
    expect(await page(5)).toEqual([{ body: "b" }, { body: "c" }]);
    expect(seen).toEqual([
      'select "body" from "notes" order by "id" limit 1 offset ?',
      'select "body" from "notes" order by "id" limit 5 offset ?',
    ]);
    // A value that is not a whole number stays a parameter (SQLite answers it as before).
    const compiled = db
      .selectFrom("notes")
      .select("body")
      .limit(sql<number>`${2}`)
      .compile();
    expect(compiled.sql).toBe('select "body" from "notes" limit ?');
    expect(db.selectFrom("notes").select("body").limit(1.5).compile().sql).toBe('select "body" from "notes" limit ?');
  });

  it("runs a query compiled once with each call's values, and builds again one whose values are not all parameters", async () => {
    const { db } = open();
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, owner TEXT, body TEXT NOT NULL)`.execute(db);
    await db
      .insertInto("notes")
      .values([
        { owner: "ana", body: "a1" },
        { owner: "ana", body: "a2" },
        { owner: "bob", body: "b1" },
        { owner: null, body: "nobody" },
      ])
      .execute();
    const app = db as unknown as AppDatabase;
    const byOwner = preparedQuery((database, owner: string, limit: number) =>
      (database as unknown as AnyDb).selectFrom("notes").select("body").where("owner", "=", owner).orderBy("id").limit(limit),
    );
    expect(await byOwner(app, "ana", 5)).toEqual([{ body: "a1" }, { body: "a2" }]);
    expect(await byOwner(app, "bob", 5)).toEqual([{ body: "b1" }]);
    expect(await byOwner(app, "ana", 1)).toEqual([{ body: "a1" }]);
    // `is` writes its value into the SQL: each call builds its own statement.
    const ownerIs = preparedQuery((database, owner: string | null) =>
      (database as unknown as AnyDb).selectFrom("notes").select("body").where("owner", "is", owner),
    );
    expect(await ownerIs(app, null)).toEqual([{ body: "nobody" }]);
    expect(await ownerIs(app, "bob")).toEqual([{ body: "b1" }]);
  });

  it("compiles a prepared query for each dialect it meets: SQLite's `?`, then PostgreSQL's `$1` in the same process", async () => {
    const { db } = open();
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, owner TEXT NOT NULL)`.execute(db);
    await db.insertInto("notes").values({ owner: "ana" }).execute();
    // PostgreSQL through Kysely's own dialect, on a pool that records what it is sent (no server needed).
    const sent: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const client = {
      query: async (statement: string, parameters: readonly unknown[]) => {
        sent.push({ sql: statement, parameters });
        return { command: "SELECT" as const, rowCount: 1, rows: [{ owner: "from postgres" }] };
      },
      release: () => {},
    } as unknown as PostgresPoolClient;
    const postgres: AnyDb = new Kysely({
      dialect: new PostgresDialect({ pool: { connect: async () => client, end: async () => {}, options: {} } }),
    });
    const byOwner = preparedQuery((database, owner: string) =>
      (database as unknown as AnyDb).selectFrom("notes").select("owner").where("owner", "=", owner),
    );
    expect(await byOwner(db as unknown as AppDatabase, "ana")).toEqual([{ owner: "ana" }]);
    expect(await byOwner(postgres as unknown as AppDatabase, "bob")).toEqual([{ owner: "from postgres" }]);
    expect(await byOwner(postgres as unknown as AppDatabase, "eve")).toEqual([{ owner: "from postgres" }]);
    expect(sent).toEqual([
      { sql: 'select "owner" from "notes" where "owner" = $1', parameters: ["bob"] },
      { sql: 'select "owner" from "notes" where "owner" = $1', parameters: ["eve"] },
    ]);
    expect(await byOwner(db as unknown as AppDatabase, "ana")).toEqual([{ owner: "ana" }]);
    await postgres.destroy();
  });

  it("runs a prepared read at once when the connection is free, and after the transaction that holds it", async () => {
    const seen: string[] = [];
    const { db } = open((statement) => seen.push(statement));
    await sql`CREATE TABLE notes (id INTEGER PRIMARY KEY, owner TEXT NOT NULL)`.execute(db);
    const app = db as unknown as AppDatabase;
    const count = preparedQuery((database, owner: string) =>
      (database as unknown as AnyDb)
        .selectFrom("notes")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("owner", "=", owner),
    );
    await count(app, "ana"); // compiled once
    seen.length = 0;
    const now = count(app, "ana");
    expect(seen).toEqual(['select count(*) as "n" from "notes" where "owner" = ?']); // before any await
    expect(await now).toEqual([{ n: 0 }]);

    seen.length = 0;
    let read: Promise<Array<{ n: number }>> | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto("notes").values({ owner: "ana" }).execute();
      read = count(app, "ana"); // outside the transaction, while it holds the connection
      await new Promise((resolve) => setImmediate(resolve));
      await trx.insertInto("notes").values({ owner: "ana" }).execute();
    });
    expect(await read).toEqual([{ n: 2 }]);
    expect(seen.map((statement) => statement.split(" ")[0])).toEqual(["begin", "insert", "insert", "commit", "select"]);
    // Inside the transaction, on the transaction's connection.
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto("notes").values({ owner: "ana" }).execute();
        expect(await count(trx as unknown as AppDatabase, "ana")).toEqual([{ n: 3 }]);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    expect(await count(app, "ana")).toEqual([{ n: 2 }]);
  });
});
