import fs from "node:fs";
import path from "node:path";
import { migrations } from "../../db/migrations";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { migrateDownToNothing, migrateToLatest } from "../../src/server/db/migrate";
import { Migrator } from "kysely/migration";
import { makeTempDir } from "../helpers/test-env";

const APP_TABLES = [
  "profiles",
  "projects",
  "user_roles",
  "users",
  "sessions",
  "login_attempts",
  "email_tokens",
  "mail_outbox",
  "two_factor",
  "backup_codes",
  "two_factor_challenges",
  "user_identities",
  "credit_ledger",
];

async function tableNames(db: AppDatabase): Promise<string[]> {
  const result = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name
  `.execute(db);
  return result.rows.map((row) => row.name);
}

let db: AppDatabase;
afterEach(async () => {
  await db?.destroy();
});

describe("migrations", () => {
  it("lists every file of db/migrations, in order", () => {
    const files = fs
      .readdirSync("db/migrations")
      .filter((name) => /^\d{4}-.*\.ts$/.test(name))
      .map((name) => name.replace(/\.ts$/, ""))
      .sort();
    expect(Object.keys(migrations)).toEqual(files);
  });

  it("migrate an empty database up, down to nothing, and up again", async () => {
    db = openDatabase(path.join(makeTempDir(), "app.db"));
    expect(await tableNames(db)).toEqual([]);

    const applied = await migrateToLatest(db);
    expect(applied).toContain("applied 0001-init");
    expect(await tableNames(db)).toEqual(expect.arrayContaining(APP_TABLES));
    expect(await migrateToLatest(db)).toEqual([]);

    const reverted = await migrateDownToNothing(db);
    expect(reverted).toContain("reverted 0001-init");
    expect(await tableNames(db)).toEqual([]);

    await migrateToLatest(db);
    expect(await tableNames(db)).toEqual(expect.arrayContaining(APP_TABLES));
  });

  it("open the database in WAL mode with foreign keys and a busy timeout", async () => {
    db = openDatabase(path.join(makeTempDir(), "app.db"));
    const pragma = async (name: string) => (await sql.raw<Record<string, unknown>>(`PRAGMA ${name}`).execute(db)).rows[0];
    expect(await pragma("journal_mode")).toEqual({ journal_mode: "wal" });
    expect(await pragma("foreign_keys")).toEqual({ foreign_keys: 1 });
    expect(await pragma("busy_timeout")).toEqual({ timeout: 5000 });
    expect(await pragma("synchronous")).toEqual({ synchronous: 2 });
  });

  describe("the schema guards its data", () => {
    async function seededDatabase(): Promise<AppDatabase> {
      const database = openDatabase(path.join(makeTempDir(), "app.db"));
      await migrateToLatest(database);
      await database.insertInto("users").values({ id: "u1", email: "Ana@Example.com", updated_at: 1 }).execute();
      await database
        .insertInto("profiles")
        .values({ user_id: "u1", email: "Ana@Example.com", full_name: "Ana", credits_remaining: 10, updated_at: 1 })
        .execute();
      return database;
    }

    it("emails are unique regardless of case", async () => {
      db = await seededDatabase();
      await expect(db.insertInto("users").values({ id: "u2", email: "ana@example.COM", updated_at: 1 }).execute()).rejects.toThrow(
        /UNIQUE/,
      );
    });

    it("credits never go below zero", async () => {
      db = await seededDatabase();
      await expect(db.updateTable("profiles").set({ credits_remaining: -1 }).where("user_id", "=", "u1").execute()).rejects.toThrow(
        /CHECK/,
      );
    });

    it("project settings must be a JSON object", async () => {
      db = await seededDatabase();
      const project = { id: "p1", user_id: "u1", name: "Living room", project_type: "room_rendering", updated_at: 1 };
      await expect(
        db
          .insertInto("projects")
          .values({ ...project, settings: "not json" })
          .execute(),
      ).rejects.toThrow(/CHECK/);
      await expect(
        db
          .insertInto("projects")
          .values({ ...project, settings: "[1,2]" })
          .execute(),
      ).rejects.toThrow(/CHECK/);
      await db
        .insertInto("projects")
        .values({ ...project, settings: JSON.stringify({ style: "modern" }) })
        .execute();
      const row = await db.selectFrom("projects").selectAll().executeTakeFirstOrThrow();
      expect(JSON.parse(row.settings)).toEqual({ style: "modern" });
      expect(row.created_at).toBeGreaterThan(1_700_000_000_000);
    });

    it("deleting a user removes their profile, roles and projects", async () => {
      db = await seededDatabase();
      await db.insertInto("user_roles").values({ user_id: "u1", role: "admin" }).execute();
      await db
        .insertInto("projects")
        .values({ id: "p1", user_id: "u1", name: "Kitchen", project_type: "room_rendering", settings: "{}", updated_at: 1 })
        .execute();
      await db.deleteFrom("users").where("id", "=", "u1").execute();
      for (const table of ["profiles", "user_roles", "projects"] as const) {
        const { count } = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("count"))
          .executeTakeFirstOrThrow();
        expect(count, table).toBe(0);
      }
    });

    it("a role or project cannot point at a user that does not exist", async () => {
      db = await seededDatabase();
      await expect(db.insertInto("user_roles").values({ user_id: "ghost", role: "admin" }).execute()).rejects.toThrow(/FOREIGN KEY/);
    });
  });

  it("0021 numbers the versions that existed, in the order they were made, not the tree's (decision 069)", async () => {
    db = await migratedUpTo("0021");
    await seedUserWithUpload(db);
    // A render (t=2), an edit of it (t=3), a failed render (t=4, not a version), an edit of the render (t=5) and of the first edit (t=6).
    const jobs = [
      ["render", "render", "succeeded", 2, null],
      ["edit-a", "edit", "succeeded", 3, "render"],
      ["failed", "render", "failed", 4, null],
      ["edit-b", "edit", "succeeded", 5, "render"],
      ["edit-a2", "edit", "queued", 6, "edit-a"],
    ] as const;
    for (const [id, kind, status, at, parent] of jobs) {
      await db
        .insertInto("render_jobs")
        .values({
          id,
          user_id: "u1",
          upload_id: "up1",
          kind,
          style: "coastal",
          room_type: "living-room",
          mode: "room-photo",
          provider: "local",
          status,
          credits_charged: 1,
          created_at: at,
          updated_at: at,
        })
        .execute();
      if (kind === "edit")
        await db.insertInto("render_edits").values({ job_id: id, parent_job_id: parent, mask_key: "m", instruction: "" }).execute();
    }
    await migrateToLatest(db);
    const rows = await db.selectFrom("render_jobs").select(["id", "version_number"]).orderBy("created_at").execute();
    expect(rows.map((row) => [row.id, row.version_number])).toEqual([
      ["render", 2],
      ["edit-a", 3],
      ["failed", null],
      ["edit-b", 4],
      ["edit-a2", 5],
    ]);
  });
  it("0025 keeps the queue order of existing jobs, numbers new ones after them, and counts jobs that ran as claimed once (decision 077)", async () => {
    db = await migratedUpTo("0025");
    await seedUserWithUpload(db);
    const job = (id: string, status: "queued" | "rendering" | "succeeded") => ({
      id,
      user_id: "u1",
      upload_id: "up1",
      style: "coastal" as const,
      room_type: "living-room" as const,
      mode: "room-photo" as const,
      provider: "local",
      status,
      credits_charged: 1,
      // One millisecond for all: the order is the order of the inserts.
      created_at: 5,
      updated_at: 5,
    });
    for (const [id, status] of [
      ["zeta", "queued"],
      ["alpha", "succeeded"],
      ["mu", "rendering"],
    ] as const)
      await db.insertInto("render_jobs").values(job(id, status)).execute();
    await migrateToLatest(db);
    await db.insertInto("render_jobs").values(job("beta", "queued")).execute();
    const rows = await db
      .selectFrom("render_jobs")
      .select(["id", "queue_seq", "claims", "claimed_by", "lease_until"])
      .orderBy("queue_seq")
      .execute();
    expect(rows).toEqual([
      { id: "zeta", queue_seq: 1, claims: 0, claimed_by: null, lease_until: null },
      { id: "alpha", queue_seq: 2, claims: 1, claimed_by: null, lease_until: null },
      { id: "mu", queue_seq: 3, claims: 1, claimed_by: null, lease_until: null },
      { id: "beta", queue_seq: 4, claims: 0, claimed_by: null, lease_until: null },
    ]);
  });
  it("0044 makes the gallery's renders publications (copies made later), and clears the old flag (decision 102)", async () => {
    db = await migratedUpTo("0044");
    await seedUserWithUpload(db);
    const job = (id: string, status: "succeeded" | "failed", style: "coastal" | "", inGallery: number | null) => ({
      id,
      user_id: "u1",
      upload_id: "up1",
      style,
      room_type: "bedroom" as const,
      mode: "room-photo" as const,
      provider: "local",
      status,
      credits_charged: 1,
      shared_in_gallery_at: inGallery,
      created_at: 5,
      updated_at: 5,
    });
    for (const row of [
      job("shown", "succeeded", "coastal", 40),
      job("failed", "failed", "coastal", 41),
      job("edit", "succeeded", "", 42),
      job("private", "succeeded", "coastal", null),
    ]) {
      await db.insertInto("render_jobs").values(row).execute();
    }
    await migrateToLatest(db);
    const rows = await db.selectFrom("publications").selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({
        job_id: "shown",
        user_id: "u1",
        team_id: null,
        title: "",
        layout: "before-after",
        show_name: 0,
        style: "coastal",
        room_type: "bedroom",
        before_key: null,
        after_key: null,
        like_count: 0,
        published_at: 40,
        hidden_at: null,
      }),
    ]);
    expect(rows[0]!.id).toMatch(/^pub_[0-9a-f]{30}$/);
    expect(await db.selectFrom("render_jobs").select("id").where("shared_in_gallery_at", "is not", null).execute()).toEqual([]);
  });
});

/** A new database with the migrations before `name` applied (what a server of that time had). */
async function migratedUpTo(name: string): Promise<AppDatabase> {
  const db = openDatabase(path.join(makeTempDir(), "app.db"));
  const before = Object.fromEntries(Object.entries(migrations).filter(([migration]) => migration < name));
  await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
  return db;
}

/** User u1 with one room photo, up1: what the renders of the data-migration tests belong to. */
async function seedUserWithUpload(db: AppDatabase): Promise<void> {
  await db.insertInto("users").values({ id: "u1", email: "ana@example.com", updated_at: 1 }).execute();
  await db
    .insertInto("uploads")
    .values({
      id: "up1",
      user_id: "u1",
      visitor_id: null,
      project_id: null,
      mode: "room-photo",
      room_type: "living-room",
      format: "jpeg",
      original_key: "o",
      thumb_key: "t",
      width: 1600,
      height: 1200,
      bytes: 1,
      created_at: 1,
    })
    .execute();
}
