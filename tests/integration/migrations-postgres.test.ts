/**
 * One set of migrations, two equivalent schemas (decision 075): on PostgreSQL the migrations go up,
 * down to nothing and up again, and the schema they make has SQLite's tables, columns, NOT NULLs and
 * indexes, and guards the data as SQLite's does. The PostgreSQL lane only.
 */
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { migrateDownToNothing, migrateToLatest } from "../../src/server/db/migrate";
import { databaseLane, makeTempDir, testDatabaseVariables } from "../helpers/test-env";

interface SchemaShape {
  /** table → column → NOT NULL */
  columns: Record<string, Record<string, boolean>>;
  /** The indexes a migration named (not those a primary key or a UNIQUE column makes by itself). */
  indexes: string[];
}

async function sqliteShape(db: AppDatabase): Promise<SchemaShape> {
  const tables = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'
  `.execute(db);
  const columns: SchemaShape["columns"] = {};
  for (const { name } of tables.rows) {
    const info = await sql<{
      name: string;
      notnull: number;
      pk: number;
    }>`SELECT name, "notnull", pk FROM pragma_table_info(${name})`.execute(db);
    // A primary key column is NOT NULL on PostgreSQL whatever it says; SQLite says so only when written.
    columns[name] = Object.fromEntries(info.rows.map((column) => [column.name, column.notnull === 1 || column.pk > 0]));
  }
  const indexes = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`.execute(db);
  return { columns, indexes: indexes.rows.map((row) => row.name).sort() };
}

async function postgresShape(db: AppDatabase): Promise<SchemaShape> {
  const rows = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    SELECT table_name, column_name, is_nullable FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%'
  `.execute(db);
  const columns: SchemaShape["columns"] = {};
  for (const row of rows.rows) (columns[row.table_name] ??= {})[row.column_name] = row.is_nullable === "NO";
  // Not those behind a primary key or a UNIQUE constraint: SQLite makes its own for them, unnamed.
  const indexes = await sql<{ indexname: string }>`
    SELECT class.relname AS indexname FROM pg_index AS ix
    JOIN pg_class AS class ON class.oid = ix.indexrelid
    JOIN pg_class AS tab ON tab.oid = ix.indrelid
    JOIN pg_namespace AS ns ON ns.oid = tab.relnamespace
    WHERE ns.nspname = 'public' AND tab.relname NOT LIKE 'kysely_%' AND NOT ix.indisprimary
      AND NOT EXISTS (SELECT 1 FROM pg_constraint AS con WHERE con.conindid = ix.indexrelid AND con.contype = 'u')
  `.execute(db);
  return { columns, indexes: indexes.rows.map((row) => row.indexname).sort() };
}

let opened: AppDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  opened = [];
});

function open(location: string): AppDatabase {
  const db = openDatabase(location);
  opened.push(db);
  return db;
}

describe.skipIf(databaseLane() !== "postgres")("migrations on PostgreSQL", () => {
  it("go up, down to nothing and up again on an empty database", async () => {
    const db = open(testDatabaseVariables({ fresh: true }).DATABASE_URL!);
    const applied = await migrateToLatest(db);
    expect(applied).toContain("applied 0001-init");
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await migrateDownToNothing(db)).toContain("reverted 0001-init");
    expect(Object.keys((await postgresShape(db)).columns)).toEqual([]);
    await migrateToLatest(db);
    expect(Object.keys((await postgresShape(db)).columns).length).toBeGreaterThan(30);
  });

  it("make SQLite's tables, columns, NOT NULLs and indexes", async () => {
    const sqlite = open(path.join(makeTempDir(), "app.db"));
    await migrateToLatest(sqlite);
    const postgres = open(testDatabaseVariables({ fresh: true }).DATABASE_URL!);
    await migrateToLatest(postgres);
    const [expected, actual] = [await sqliteShape(sqlite), await postgresShape(postgres)];
    // The one difference by design (decision 077): the queue's order is an identity column on
    // PostgreSQL, NOT NULL by its nature; on SQLite a trigger fills it.
    expected.columns.render_jobs!.queue_seq = true;
    expect(actual.columns).toEqual(expected.columns);
    expect(actual.indexes).toEqual(expected.indexes);
  });

  it("guard the data as on SQLite: addresses unique whatever their case, credits never below zero, settings a JSON object", async () => {
    const db = open(testDatabaseVariables({ fresh: true }).DATABASE_URL!);
    await migrateToLatest(db);
    await db.insertInto("users").values({ id: "u1", email: "Ana@Example.com", updated_at: 1 }).execute();
    await expect(db.insertInto("users").values({ id: "u2", email: "ana@example.COM", updated_at: 1 }).execute()).rejects.toThrow(
      /duplicate key/,
    );
    // Found whatever the case, as SQLite's NOCASE finds it.
    expect(await db.selectFrom("users").select("id").where("email", "=", "ANA@example.com").executeTakeFirst()).toEqual({ id: "u1" });
    await db
      .insertInto("profiles")
      .values({ user_id: "u1", email: "Ana@Example.com", full_name: "Ana", credits_remaining: 10, updated_at: 1 })
      .execute();
    await expect(db.updateTable("profiles").set({ credits_remaining: -1 }).where("user_id", "=", "u1").execute()).rejects.toThrow(/check/);
    const project = { id: "p1", user_id: "u1", name: "Living room", project_type: "room_rendering", updated_at: 1 };
    await expect(
      db
        .insertInto("projects")
        .values({ ...project, settings: "not json" })
        .execute(),
    ).rejects.toThrow(/json/i);
    await expect(
      db
        .insertInto("projects")
        .values({ ...project, settings: "[1,2]" })
        .execute(),
    ).rejects.toThrow(/check/);
    await db
      .insertInto("projects")
      .values({ ...project, settings: JSON.stringify({ style: "modern" }) })
      .execute();
    // Millisecond times past 2^31 fit, and whole numbers come back as numbers.
    const row = await db.selectFrom("users").select("updated_at").where("id", "=", "u1").executeTakeFirstOrThrow();
    expect(row.updated_at).toBe(1);
    await db.updateTable("users").set({ updated_at: 1_795_766_775_029 }).where("id", "=", "u1").execute();
    expect((await db.selectFrom("users").select("updated_at").where("id", "=", "u1").executeTakeFirstOrThrow()).updated_at).toBe(
      1_795_766_775_029,
    );
  });
});
