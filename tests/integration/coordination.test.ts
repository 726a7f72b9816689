/**
 * The coordination module's two statements under races (decision 078): many claims of one run sent at
 * once from two database handles (two instances; on PostgreSQL, each a pool of connections) leave one
 * winner, and a running claim is renewed; counts added at once are all counted, and a window ends and
 * starts again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "../../src/server/db/client";
import { migrateToLatest } from "../../src/server/db/migrate";
import { createRateCounts, createRunClaims } from "../../src/server/coordination";
import { MINUTE, TestClock } from "../helpers/test-clock";
import { makeTestEnv } from "../helpers/test-env";
import { waitUntil } from "../helpers/wait";

let handles: AppDatabase[] = [];
afterEach(async () => {
  await Promise.all(handles.map((db) => db.destroy()));
  handles = [];
});

async function twoHandles(): Promise<[AppDatabase, AppDatabase]> {
  const env = makeTestEnv();
  const first = openDatabase(env.DATABASE);
  handles.push(first);
  await migrateToLatest(first);
  const second = openDatabase(env.DATABASE);
  handles.push(second);
  return [first, second];
}

describe("run claims and rate counts under races", () => {
  it("of 40 claims of one run sent at once from two instances, one wins; the run is free again once held past", async () => {
    const clock = new TestClock();
    const [a, b] = await twoHandles();
    const claimsOf = [createRunClaims({ db: a, clock }, "a:1"), createRunClaims({ db: b, clock }, "b:2")];
    const until = clock.now() + 10 * MINUTE;
    const won = await Promise.all(Array.from({ length: 40 }, (_, index) => claimsOf[index % 2]!.claim("race", until)));
    expect(won.filter((claim) => claim !== null)).toHaveLength(1);
    clock.advance(10 * MINUTE - 1);
    expect(await claimsOf[0]!.claim("race", clock.now() + MINUTE)).toBeNull();
    clock.advance(1);
    expect(await claimsOf[1]!.claim("race", clock.now() + MINUTE)).not.toBeNull();
  });

  it("renews a running run's lease, so a long run is not taken over; once it ends, holds it until next due", async () => {
    const clock = new TestClock();
    const [a, b] = await twoHandles();
    const claimsOfA = createRunClaims({ db: a, clock }, "a:1");
    const claimsOfB = createRunClaims({ db: b, clock }, "b:2");
    const run = { name: "long", everyMs: 60 * MINUTE, leaseMs: 3_000 };
    const startedAt = clock.now();
    let finish = () => {};
    const running = claimsOfA.runOnce(run, () => new Promise<string>((resolve) => (finish = () => resolve("done"))));
    const heldUntil = () =>
      a
        .selectFrom("scheduled_runs")
        .select("held_until")
        .where("name", "=", "long")
        .executeTakeFirst()
        .then((row) => Number(row?.held_until ?? 0));
    await waitUntil(heldUntil, { message: "the claim", until: (until) => until === startedAt + 3_000 });
    // Past the first lease: the renewal (every second here) holds it for another lease from now.
    clock.advance(2_000);
    await waitUntil(heldUntil, { message: "a renewal", until: (until) => until === startedAt + 5_000 });
    clock.advance(2_000);
    expect(await claimsOfB.runOnce(run, () => Promise.resolve("B ran"))).toEqual({ ran: false });
    finish();
    expect(await running).toEqual({ ran: true, value: "done" });
    expect(await heldUntil()).toBe(startedAt + 60 * MINUTE - 60_000);
  });

  it("counts 60 requests of one key sent at once from two instances as 60, and starts a new window after the last", async () => {
    const clock = new TestClock();
    const [a, b] = await twoHandles();
    const countsOf = [createRateCounts({ db: a, clock }), createRateCounts({ db: b, clock })];
    const totals = await Promise.all(
      Array.from({ length: 60 }, (_, index) => countsOf[index % 2]!.add("signIn 203.0.113.7", MINUTE).then((counted) => counted.count)),
    );
    expect([...totals].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
    // A batch is added whole; the window started with the first count.
    clock.advance(MINUTE - 1);
    const windowEndsAt = clock.now() + 1;
    expect(await countsOf[0]!.add("signIn 203.0.113.7", MINUTE, 5)).toEqual({ count: 65, windowEndsAt });
    clock.advance(1);
    expect(await countsOf[1]!.add("signIn 203.0.113.7", MINUTE)).toEqual({ count: 1, windowEndsAt: clock.now() + MINUTE });
    expect(await countsOf[0]!.add("signIn 198.51.100.1", MINUTE)).toMatchObject({ count: 1 });
    // Housekeeping removes what ended: nothing yet, then both.
    expect(await countsOf[0]!.prune()).toBe(0);
    clock.advance(MINUTE);
    expect(await countsOf[1]!.prune()).toBe(2);
  });
});
