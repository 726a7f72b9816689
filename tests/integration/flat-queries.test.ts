/**
 * Queries that stay flat as data grows (decision 044): projects.list pages with a cursor and runs the
 * same number of statements for 3 projects as for 60, admin.users likewise for 3 users as for 40, and
 * the landing page's figures are read at most once a minute by the injected clock.
 */
import SqliteDatabase from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Services } from "../../src/server/app-services";
import { buildInfra, buildServices } from "../../src/server/boot";
import { openDatabase } from "../../src/server/db/client";
import type { Infra } from "../../src/server/infra";
import { createLogger } from "../../src/server/logger";
import { createContextInner } from "../../src/server/trpc/context";
import { createCaller } from "../../src/server/trpc/root";
import { MINUTE, TestClock } from "../helpers/test-clock";
import { databaseLane, makeTestEnv } from "../helpers/test-env";

let infra: Infra;
let services: Services;
let clock: TestClock;
let statements: string[];

beforeEach(() => {
  const env = makeTestEnv();
  clock = new TestClock();
  statements = [];
  infra = buildInfra(env, openDatabase(env.DATABASE, { onStatement: (sql) => statements.push(sql) }), createLogger("silent"), clock);
  services = buildServices(infra);
});

afterEach(async () => {
  await services.render.stop();
  await infra.db.destroy();
});

async function signUp(email: string): Promise<string> {
  const { userId } = await services.accounts.signUp(
    { email, password: "Password123", fullName: "Ana Test" },
    { baseUrl: "http://localhost", language: "en" },
  );
  return userId;
}

/** Projects written straight to the table, several sharing an updated_at (the cursor must tell them apart by id). */
async function seedProjects(userId: string, count: number, prefix: string): Promise<void> {
  const now = clock.now();
  if (count === 0) return;
  await infra.db
    .insertInto("projects")
    .values(
      Array.from({ length: count }, (_, index) => ({
        id: `${prefix}-${String(index).padStart(3, "0")}`,
        user_id: userId,
        name: `Project ${index}`,
        project_type: "room_rendering",
        settings: "{}",
        created_at: now,
        updated_at: now - Math.floor(index / 3) * 1000,
      })),
    )
    .execute();
}

/** `count` renders in a project (every third one failed), each with its own upload. */
async function seedRenders(userId: string, projectId: string, count: number, status: (index: number) => "succeeded" | "failed") {
  const now = clock.now();
  for (let index = 0; index < count; index++) {
    const id = `${projectId}-job-${index}`;
    await infra.db
      .insertInto("uploads")
      .values({
        id: `${id}-upload`,
        user_id: userId,
        visitor_id: null,
        project_id: projectId,
        mode: "room-photo",
        room_type: "living-room",
        format: "jpeg",
        original_key: `u/${id}.jpg`,
        thumb_key: `u/${id}-t.jpg`,
        width: 10,
        height: 10,
        bytes: 100,
        created_at: now,
      })
      .execute();
    await infra.db
      .insertInto("render_jobs")
      .values({
        id,
        user_id: userId,
        visitor_id: null,
        project_id: projectId,
        upload_id: `${id}-upload`,
        style: "modern",
        room_type: "living-room",
        mode: "room-photo",
        note: null,
        provider: "preview",
        status: status(index),
        credits_charged: 1,
        percent: null,
        error: null,
        model: null,
        input_key: null,
        result_key: null,
        medium_key: null,
        thumb_key: null,
        high_key: null,
        result_width: null,
        result_height: null,
        requested_seed: null,
        seed: null,
        model_version: null,
        prompt: null,
        parameters: null,
        engine_started_at: null,
        engine_finished_at: null,
        structure_score: null,
        upscaled_key: null,
        upscaled_width: null,
        upscaled_height: null,
        upscale_model: null,
        share_token: null,
        shared_in_gallery_at: null,
        created_at: now - index,
        started_at: now - 5000,
        finished_at: now - 1000 + index,
        updated_at: now,
      })
      .execute();
  }
}

const callerOf = (user: { id: string; email: string }) => createCaller(createContextInner(services, infra.env, { user }));

describe("projects.list", () => {
  it("pages through every project of its owner once, latest first, with each project's count and thumbnails", async () => {
    const ana = { id: await signUp("ana@example.com"), email: "ana@example.com" };
    const bob = { id: await signUp("bob@example.com"), email: "bob@example.com" };
    await seedProjects(ana.id, 30, "ana");
    await seedProjects(bob.id, 4, "bob");
    await seedRenders(ana.id, "ana-004", 6, (index) => (index % 3 === 2 ? "failed" : "succeeded"));
    await seedRenders(ana.id, "ana-010", 1, () => "failed");
    await seedRenders(bob.id, "bob-000", 2, () => "succeeded");

    const seen: Array<{ id: string; updatedAt: number; renderCount: number; thumbs: string[] }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<ReturnType<typeof callerOf>["projects"]["list"]>> = await callerOf(ana).projects.list({
        cursor,
        limit: 7,
      });
      expect(page.total).toBe(30);
      expect(page.renders).toBe(7);
      expect(page.projects.length).toBeLessThanOrEqual(7);
      seen.push(...page.projects);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);

    expect(pages).toBe(5);
    const expected = Array.from({ length: 30 }, (_, index) => ({
      id: `ana-${String(index).padStart(3, "0")}`,
      updatedAt: clock.now() - Math.floor(index / 3) * 1000,
    }))
      .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1))
      .map((project) => project.id);
    expect(seen.map((project) => project.id)).toEqual(expected);
    const byId = new Map(seen.map((project) => [project.id, project]));
    // The four latest succeeded renders (finished_at grows with the index; 2 and 5 failed), the count of all six.
    expect(byId.get("ana-004")).toMatchObject({
      renderCount: 6,
      thumbs: [4, 3, 1, 0].map((index) => `/files/renders/ana-004-job-${index}/thumb`),
    });
    expect(byId.get("ana-010")).toMatchObject({ renderCount: 1, thumbs: [] });
    expect(byId.get("ana-000")).toMatchObject({ renderCount: 0, thumbs: [] });
    expect(seen.some((project) => project.id.startsWith("bob"))).toBe(false);

    // The default page, and an unreadable cursor starts from the top.
    expect((await callerOf(ana).projects.list()).projects).toHaveLength(24);
    expect((await callerOf(ana).projects.list({ cursor: "nonsense" })).projects[0]!.id).toBe(expected[0]);
    expect((await callerOf(bob).projects.list()).total).toBe(4);
  });

  it("runs as many statements for 60 projects as for 3", async () => {
    const ana = { id: await signUp("ana@example.com"), email: "ana@example.com" };
    await seedProjects(ana.id, 3, "few");
    await seedRenders(ana.id, "few-000", 3, () => "succeeded");
    statements.length = 0;
    await callerOf(ana).projects.list({ limit: 100 });
    const few = statements.length;

    await seedProjects(ana.id, 57, "many");
    for (const project of ["many-000", "many-010", "many-020"]) await seedRenders(ana.id, project, 2, () => "succeeded");
    statements.length = 0;
    const page = await callerOf(ana).projects.list({ limit: 100 });
    expect(page.projects).toHaveLength(60);
    expect(statements.length).toBe(few);
    expect(few).toBeLessThanOrEqual(4);
  });
});

describe("admin.users", () => {
  it("runs as many statements for 40 users as for 3, with each user's roles, lockout and renders", async () => {
    const admin = { id: await signUp("admin@example.com"), email: "admin@example.com" };
    await services.roles.grant(admin.id, "admin");
    for (let index = 0; index < 2; index++) await signUp(`few${index}@example.com`);
    statements.length = 0;
    expect((await services.admin.users({ limit: 50, offset: 0 })).users).toHaveLength(3);
    const few = statements.length;

    for (let index = 0; index < 37; index++) await signUp(`many${index}@example.com`);
    const bob = await signUp("Bob@Example.com");
    await services.roles.grant(bob, "tester");
    await seedProjects(bob, 1, "bob");
    await seedRenders(bob, "bob-000", 2, () => "succeeded");
    await infra.db
      .insertInto("login_attempts")
      .values({ email: "bob@example.com", failed_count: 5, locked_until: clock.now() + 10 * MINUTE, updated_at: clock.now() })
      .execute();
    statements.length = 0;
    const { users, total } = await services.admin.users({ limit: 50, offset: 0 });
    expect(statements.length).toBe(few);
    expect(total).toBe(41);
    expect(users.find((user) => user.id === bob)).toMatchObject({ roles: ["tester"], renders: 2, locked: true });
    expect(users.find((user) => user.id === admin.id)).toMatchObject({ roles: ["admin"], renders: 0, locked: false });
  });
});

describe("landingStats", () => {
  it("is read again only when a minute has passed on the injected clock", async () => {
    const ana = await signUp("ana@example.com");
    await seedProjects(ana, 1, "ana");
    const landing = () => createCaller(createContextInner(services, infra.env)).system.landingStats();
    expect(await landing()).toEqual({ rendersMade: 0, averageRenderSeconds: null });

    await seedRenders(ana, "ana-000", 2, () => "succeeded");
    clock.advance(MINUTE - 1);
    expect(await landing()).toEqual({ rendersMade: 0, averageRenderSeconds: null });

    clock.advance(1);
    // Started 5 s before now, finished 1 s and 0.999 s before: 4 s and 4.001 s.
    expect(await landing()).toEqual({ rendersMade: 2, averageRenderSeconds: 4.0005 });
  });
});

// SQLite's query plans: PostgreSQL plans by its statistics, and on tables of a few rows a sort is its best plan.
describe.skipIf(databaseLane() === "postgres")("indexes that match the order (migration 0013)", () => {
  /** The plan SQLite makes for each statement a call runs (placeholders bound to null: the plan does not depend on them). */
  async function plansOf(call: () => Promise<unknown>): Promise<string[]> {
    statements.length = 0;
    await call();
    const sqlite = new SqliteDatabase(infra.env.DATABASE_FILE, { readonly: true });
    try {
      return statements.map((statement) => {
        const nulls = Array.from({ length: (statement.match(/\?/g) ?? []).length }, () => null);
        return (sqlite.prepare(`EXPLAIN QUERY PLAN ${statement}`).all(...nulls) as Array<{ detail: string }>)
          .map((row) => row.detail)
          .join(" | ");
      });
    } finally {
      sqlite.close();
    }
  }

  it("reads the gallery, the admin's jobs and users, and a page of projects in index order, without sorting", async () => {
    const ana = { id: await signUp("ana@example.com"), email: "ana@example.com" };
    const plans = [
      ...(await plansOf(() => services.render.gallery())),
      ...(await plansOf(() => services.admin.jobs({ limit: 50, offset: 0 }))),
      ...(await plansOf(() => services.admin.jobs({ status: "failed", limit: 50, offset: 0 }))),
      ...(await plansOf(() => services.admin.users({ limit: 50, offset: 0 }))),
      ...(await plansOf(() => callerOf(ana).projects.list({ cursor: `${clock.now()}.x` }))),
    ];
    const ordered = plans.filter((plan) => / USING (COVERING )?INDEX /.test(plan));
    expect(ordered.length).toBeGreaterThanOrEqual(5);
    for (const plan of plans) expect(plan).not.toContain("TEMP B-TREE FOR ORDER BY");
  });
});
