/**
 * Live events across instances (issue 29, decision 082), on PostgreSQL: two app instances on ONE
 * database, A with the render worker and B without. What A's transactions write reaches B's
 * streams through NOTIFY and the render_events table: a render started through A streams every
 * event, in order and without a gap, to a browser connected to B; review comments made through A
 * reach B's review streams; a member removed through A loses their streams on B. The listening
 * connection, cut by the server, reconnects and catches up from the last id it delivered.
 *
 * And the order of ids: with many writers racing for one owner, a reader that resumes "after the
 * last id it saw" never skips one (an id taken first but committed later used to be lost).
 */
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { createLogger } from "../../src/server/logger";
import { PostgresNotifications } from "../../src/server/coordination";
import { PostgresRelay, recordRenderEvent, storedEventsAfter } from "../../src/server/render/live";
import type { RenderEvent } from "../../src/shared/render";
import type { ReviewEvent } from "../../src/shared/review";
import { inviteToken } from "../helpers/teams";
import { roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { databaseLane, makeTestEnv, placeOf } from "../helpers/test-env";
import { openTrpcStream } from "../helpers/sse";
import { waitUntil } from "../helpers/wait";

const onPostgres = databaseLane() === "postgres";

/** A render event as a job change writes it (its content does not matter here). */
const queuedEvent = (jobId: string, index: number): RenderEvent => ({ type: "queued", jobId, at: index, position: index });

describe.skipIf(!onPostgres)("two instances on one PostgreSQL database", () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startTestServer({ AUTH_RATE_LIMIT_PER_MINUTE: "1000" });
    // B shares A's database and files; it renders nothing (its worker is off).
    b = await startTestServer({ ...placeOf(a.deps.env), AUTH_RATE_LIMIT_PER_MINUTE: "1000" }, { startWorker: false });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it("streams what A's transactions write to a browser on B, in id order, from the table", async () => {
    const ana = await signedInClient(a.url);
    const owner = `u:${ana.userId}`;
    const stream = await openTrpcStream(b.url, ana, "render.events", {});
    const written: number[] = [];
    for (let index = 0; index < 5; index++) {
      const stored = await a.deps.db.transaction().execute((trx) => recordRenderEvent(trx, owner, queuedEvent(`job-${index}`, index)));
      written.push(stored.id);
    }
    await waitUntil(() => stream.frames().length, { message: "B's stream to get A's five events", until: (n) => n === 5 });
    expect(stream.frames().map((frame) => frame.id)).toEqual(written);
    stream.close();
  });

  it("streams every event of a render started through A (A's worker) to a browser on B, in order", async () => {
    const ana = await signedInClient(a.url);
    const owner = `u:${ana.userId}`;
    const onB = await openTrpcStream(b.url, ana, "render.events", {});
    const photo = await upload(a.url, ana.jar, await roomPhoto(400, 300));
    expect(photo.status).toBe(201);
    const { jobs } = await ana.client.render.create.mutate({
      projectId: photo.body.projectId,
      imageId: photo.body.imageId,
      style: "modern",
    });
    const jobId = jobs[0]!.id;
    await waitForRenders(ana, [jobId]);
    // Everything the table holds for Ana (queued … succeeded, and a score after it), and nothing else, on B.
    const same = await waitUntil(
      async () => {
        const stored = await storedEventsAfter(a.deps.db, owner, 0);
        return { stored, onB: onB.frames() };
      },
      {
        message: "B's stream to hold every stored event",
        until: ({ stored, onB }) => stored.some((row) => row.event.type === "succeeded") && onB.length === stored.length,
      },
    );
    expect(same.onB.map((frame) => frame.id)).toEqual(same.stored.map((row) => row.id));
    expect(same.onB.map((frame) => frame.event)).toEqual(same.stored.map((row) => row.event));
    expect(same.stored.map((row) => row.event.type)).toEqual(expect.arrayContaining(["queued", "rendering", "succeeded"]));
    onB.close();
  });

  it("brings a review comment made through A to the studio's review stream on B", async () => {
    const ana = await signedInClient(a.url);
    const project = await ana.client.projects.create.mutate({ name: "Casa Lumen" });
    const photo = await upload(a.url, ana.jar, await roomPhoto(400, 300), { projectId: project.id });
    const { jobs } = await ana.client.render.create.mutate({ projectId: project.id, imageId: photo.body.imageId, style: "japandi" });
    const jobId = jobs[0]!.id;
    await waitForRenders(ana, [jobId]);
    const { path } = await ana.client.review.create.mutate({ projectId: project.id });
    const onB = await openTrpcStream(b.url, ana, "review.events", { projectId: project.id });
    await waitUntil(() => b.services.review.openStreams(project.id), { message: "B's review stream", until: (n) => n === 1 });
    await a.services.review.comment({ token: path.slice(8), jobId, author: "Marta", text: "Lovely light" }, "127.0.0.1");
    await waitUntil(() => onB.text(), { message: "the comment on B", until: (text) => text.includes("Lovely light") });
    const frame = onB
      .text()
      .split("\n\n")
      .find((block) => block.includes("Lovely light"))!;
    const received = superjson.deserialize<ReviewEvent>(JSON.parse(/data: (.*)/.exec(frame)![1]!) as never);
    expect(received).toMatchObject({ type: "comment", jobId, comment: { author: "Marta", text: "Lovely light" } });
    onB.close();
  });

  it("closes a removed member's render and review streams on B when A removes them", async () => {
    const owner = await signedInClient(a.url);
    const member = await signedInClient(a.url);
    const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
    await owner.client.teams.invite.mutate({ teamId: team.id, email: member.email, role: "member" });
    await member.client.teams.acceptInvitation.mutate({ token: await inviteToken(a.deps.db, member.email) });
    const project = await member.client.projects.create.mutate({ name: "Team work" });
    const renderStream = await openTrpcStream(b.url, member, "render.events", {});
    const reviewStream = await openTrpcStream(b.url, member, "review.events", { projectId: project.id });
    await waitUntil(() => b.services.review.openStreams(project.id), { message: "B's review stream", until: (n) => n === 1 });
    const removedAt = performance.now();
    await owner.client.teams.removeMember.mutate({ teamId: team.id, userId: member.userId });
    const ends = await Promise.all([renderStream.ended, reviewStream.ended]);
    // Ended by the removal, not by a refusal (tRPC's error frame).
    expect(renderStream.text()).not.toContain("error");
    // The removal travelled A → PostgreSQL → B; the same one-second bound as on one instance.
    for (const end of ends) expect(end - removedAt).toBeLessThan(1_000);
    expect(b.services.review.openStreams(project.id)).toBe(0);
  });
});

describe.skipIf(!onPostgres)("the listening connection", () => {
  it("reconnects when the server cuts it, and catches up on the events written meanwhile", async () => {
    const env = makeTestEnv();
    const db = openDatabase(env.DATABASE);
    const log = createLogger("silent");
    const notifications = new PostgresNotifications(env.DATABASE, db, log);
    const relay = new PostgresRelay(db, notifications, log);
    const delivered: number[] = [];
    relay.attach({ deliver: (events) => delivered.push(...events.map((e) => e.id)), dismissHere: () => {} });
    let connections = 0;
    notifications.onConnected(() => connections++);
    try {
      await notifications.start();
      const unwatch = await relay.watch("u:reconnect");
      const write = (index: number) => db.transaction().execute((trx) => recordRenderEvent(trx, "u:reconnect", queuedEvent("j", index)));
      const first = await write(1);
      await waitUntil(() => delivered.length, { message: "the first event", until: (n) => n === 1 });
      await notifications.simulateDrop();
      await waitUntil(() => notifications.isListening, { message: "the drop to be seen", until: (listening) => !listening });
      // Written while nobody listens: its notification is lost; the reconnection reads it from the table.
      const second = await write(2);
      // Still cut off when it was written (the reconnection waits 250 ms): only a catch-up can bring it.
      expect(connections).toBe(1);
      await waitUntil(() => connections, { message: "the reconnection", until: (n) => n === 2, timeoutMs: 10_000 });
      await waitUntil(() => delivered.length, { message: "the catch-up", until: (n) => n === 2 });
      const third = await write(3);
      await waitUntil(() => delivered.length, { message: "live again", until: (n) => n === 3 });
      expect(delivered).toEqual([first.id, second.id, third.id]);
      unwatch();
    } finally {
      await notifications.close();
      await db.destroy();
    }
  });
});

describe.skipIf(!onPostgres)("event ids of one owner", () => {
  let db: AppDatabase;
  beforeAll(() => {
    db = openDatabase(makeTestEnv().DATABASE, { poolSize: 24 });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const event = (index: number) => queuedEvent("race", index);

  it("commit in id order: a writer that took a later id waits for the one holding the owner", async () => {
    let commitFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
    let firstWritten!: (id: number) => void;
    const firstId = new Promise<number>((resolve) => (firstWritten = resolve));
    const first = db.transaction().execute(async (trx) => {
      firstWritten((await recordRenderEvent(trx, "u:order", event(1))).id);
      await firstMayCommit;
    });
    await firstId;
    const second = db.transaction().execute((trx) => recordRenderEvent(trx, "u:order", event(2)));
    // The second writer waits on the owner's lock (PostgreSQL says so), before it took an id.
    await waitUntil(
      async () =>
        (
          await sql<{
            n: number;
          }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`.execute(
            db,
          )
        ).rows[0]!.n,
      { message: "the second writer to wait for the owner's lock", until: (n) => n === 1 },
    );
    expect(await storedEventsAfter(db, "u:order", 0)).toEqual([]);
    commitFirst();
    await first;
    const secondStored = await second;
    expect(secondStored.id).toBeGreaterThan(await firstId);
    expect((await storedEventsAfter(db, "u:order", 0)).map((row) => row.id)).toEqual([await firstId, secondStored.id]);
  });

  it("are never skipped by a reader resuming after its last id, with 16 writers racing", async () => {
    const owner = "u:race";
    const writers = 16;
    const perWriter = 25;
    const seen: number[] = [];
    let writing = true;
    // Resumes after the last id it saw, over and over while the writers run, and once more after.
    const reader = (async () => {
      let last = 0;
      let more = true;
      while (more) {
        more = writing;
        for (const row of await storedEventsAfter(db, owner, last)) {
          seen.push(row.id);
          last = row.id;
        }
      }
    })();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let index = 0; index < perWriter; index++) {
          await db.transaction().execute(async (trx) => {
            await recordRenderEvent(trx, owner, event(writer * perWriter + index));
            // Other work in the transaction after the insert, of varying length: commits come out of order without the lock.
            await sql`select pg_sleep(${(index % 3) / 1000})`.execute(trx);
          });
        }
      }),
    );
    writing = false;
    await reader;
    const all = (await storedEventsAfter(db, owner, 0)).map((row) => row.id);
    expect(all).toHaveLength(writers * perWriter);
    expect(seen).toEqual(all);
  });
});
