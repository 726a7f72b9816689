/**
 * /enhanced-dashboard's figures (render.activity) over real HTTP on a real SQLite file, with the test
 * clock: renders made across several weeks with the local engine, a failed render refunded, another
 * user's renders left out, weeks starting Monday in the user's time zone, empty weeks as zeros, and
 * every figure the same as the database says.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localProvider } from "../../src/server/render/engines/local";
import { PermanentRenderError, type RenderProvider } from "../../src/server/render/engines/provider";
import type { DesignStyle } from "../../src/shared/styles";
import { failure } from "../helpers/failure";
import { createStudioClient, PASSWORD, roomPhoto, uniqueEmail, upload, type StudioClient } from "../helpers/render";
import { startTestServer, type TestServer } from "../helpers/server";
import { DAY, MINUTE, TestClock } from "../helpers/test-clock";
import { waitUntil } from "../helpers/wait";

/** Each render takes this long on the test clock, claim to done (one at a time: RENDER_CONCURRENCY 1). */
const RENDER_MS = 40_000;
/** The engine fails this style, for good. */
const FAILING_STYLE: DesignStyle = "japandi";

const clock = new TestClock(Date.UTC(2026, 10, 2, 10, 0, 0)); // Monday 2 November 2026, 10:00 UTC
const engine: RenderProvider = {
  ...localProvider,
  async render(request) {
    clock.advance(RENDER_MS);
    if (request.style === FAILING_STYLE) throw new PermanentRenderError("The render engine failed: out of GPUs");
    return localProvider.render(request);
  },
};

let server: TestServer;
let photo: Buffer;

/** A new account, signed in for 30 days (the clock moves weeks ahead). */
async function newUser(): Promise<StudioClient & { userId: string }> {
  const studio = createStudioClient(server.url);
  const email = uniqueEmail();
  await studio.client.auth.signUp.mutate({ email, password: PASSWORD, fullName: "Ana Lima" });
  await studio.client.auth.signIn.mutate({ email, password: PASSWORD, rememberMe: true });
  const session = await studio.client.auth.session.query();
  return { ...studio, userId: session.user!.id };
}

/** Renders the styles and waits until each has ended (succeeded or failed) and each success has its structure score. */
async function render(user: StudioClient, styles: DesignStyle[]): Promise<void> {
  const uploaded = await upload(server.url, user.jar, photo);
  const { jobs } = await user.client.render.create.mutate({
    projectId: uploaded.body.projectId,
    imageId: uploaded.body.imageId,
    style: styles,
  });
  await waitUntil(() => Promise.all(jobs.map((job) => user.client.render.job.query({ id: job.id }))), {
    message: `renders of ${styles.join(", ")} to end and be scored`,
    until: (views) => views.every((view) => view.status === "failed" || (view.status === "succeeded" && view.structureScore !== null)),
    timeoutMs: 20_000,
  });
}

const EMPTY_WEEK = {
  byStyle: [],
  edits: 0,
  failed: 0,
  creditsCharged: 0,
  creditsRefunded: 0,
  refunds: 0,
  averageRenderMs: null,
  averageStructureScore: null,
  scored: 0,
};

let ana: StudioClient & { userId: string };

beforeAll(async () => {
  photo = await roomPhoto(500, 400);
  server = await startTestServer({ RENDER_CONCURRENCY: "1" }, { clock, renderProvider: engine });
  ana = await newUser();
  const bruno = await newUser();
  // Week of 2 November: two renders; Bruno renders too.
  await render(ana, ["modern", "scandinavian"]);
  await render(bruno, ["modern", "industrial", FAILING_STYLE]);
  // Week of 9 November: one render, and one the engine fails (refunded).
  clock.advance(7 * DAY);
  await render(ana, ["modern", FAILING_STYLE]);
  // Sunday 22 November, 23:30 UTC: still the week of 16 November in UTC, already Monday 23 in Madrid (UTC+1).
  clock.advance(Date.UTC(2026, 10, 22, 23, 30) - clock.now());
  await render(ana, ["industrial"]);
  clock.advance(MINUTE);
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

/** The database's own average structure score of the user's succeeded renders that finished in [from, to). */
async function structureAverage(userId: string, from: number, to: number): Promise<number> {
  const row = await server.deps.db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.avg<number>("structure_score").as("average"))
    .where("user_id", "=", userId)
    .where("status", "=", "succeeded")
    .where("finished_at", ">=", from)
    .where("finished_at", "<", to)
    .executeTakeFirstOrThrow();
  return Number(row.average);
}

describe("render.activity", () => {
  it("gives the last 12 weeks (Monday to Sunday, UTC by default), measured, with zeros for empty weeks and nobody else's renders", async () => {
    const activity = await ana.client.render.activity.query();
    expect(activity.timeZone).toBe("UTC");
    expect(activity.weeks.map((week) => week.start)).toEqual([
      "2026-08-31",
      "2026-09-07",
      "2026-09-14",
      "2026-09-21",
      "2026-09-28",
      "2026-10-05",
      "2026-10-12",
      "2026-10-19",
      "2026-10-26",
      "2026-11-02",
      "2026-11-09",
      "2026-11-16",
    ]);
    for (const week of activity.weeks.slice(0, 9)) expect(week).toEqual({ start: week.start, ...EMPTY_WEEK });

    const [first, second, third] = activity.weeks.slice(9);
    const week = (monday: number) => [monday, monday + 7 * DAY] as const;
    expect(first).toEqual({
      start: "2026-11-02",
      byStyle: [
        { style: "modern", count: 1 },
        { style: "scandinavian", count: 1 },
      ],
      edits: 0,
      failed: 0,
      creditsCharged: 2,
      creditsRefunded: 0,
      refunds: 0,
      averageRenderMs: RENDER_MS,
      averageStructureScore: expect.closeTo(await structureAverage(ana.userId, ...week(Date.UTC(2026, 10, 2))), 9),
      scored: 2,
    });
    expect(second).toEqual({
      start: "2026-11-09",
      byStyle: [{ style: "modern", count: 1 }],
      edits: 0,
      failed: 1,
      creditsCharged: 2,
      creditsRefunded: 1,
      refunds: 1,
      averageRenderMs: RENDER_MS,
      averageStructureScore: expect.closeTo(await structureAverage(ana.userId, ...week(Date.UTC(2026, 10, 9))), 9),
      scored: 1,
    });
    expect(third).toEqual({
      start: "2026-11-16",
      byStyle: [{ style: "industrial", count: 1 }],
      edits: 0,
      failed: 0,
      creditsCharged: 1,
      creditsRefunded: 0,
      refunds: 0,
      averageRenderMs: RENDER_MS,
      averageStructureScore: expect.closeTo(await structureAverage(ana.userId, ...week(Date.UTC(2026, 10, 16))), 9),
      scored: 1,
    });
    for (const scored of [first, second, third]) expect(scored!.averageStructureScore).toBeGreaterThan(0);
    expect(activity.totals).toEqual({
      finished: 4,
      failed: 1,
      creditsCharged: 5,
      creditsRefunded: 1,
      refunds: 1,
      averageRenderMs: RENDER_MS,
      averageStructureScore: expect.closeTo(await structureAverage(ana.userId, Date.UTC(2026, 7, 31), clock.now()), 9),
      scored: 4,
    });
  });

  it("starts the weeks on Monday in the user's time zone", async () => {
    const activity = await ana.client.render.activity.query({ timeZone: "Europe/Madrid" });
    expect(activity.timeZone).toBe("Europe/Madrid");
    expect(activity.weeks[0]!.start).toBe("2026-09-07");
    const lastFour = activity.weeks.slice(8);
    expect(lastFour.map((week) => [week.start, week.byStyle, week.failed, week.creditsCharged, week.refunds])).toEqual([
      [
        "2026-11-02",
        [
          { style: "modern", count: 1 },
          { style: "scandinavian", count: 1 },
        ],
        0,
        2,
        0,
      ],
      ["2026-11-09", [{ style: "modern", count: 1 }], 1, 2, 1],
      // Sunday 23:30 UTC is Monday 00:30 in Madrid: the render and its credit move to the next week.
      ["2026-11-16", [], 0, 0, 0],
      ["2026-11-23", [{ style: "industrial", count: 1 }], 0, 1, 0],
    ]);
  });

  it("is the signed-in user's only: a new account has only zeros, a visitor is refused, an unknown time zone too", async () => {
    const newcomer = await newUser();
    const activity = await newcomer.client.render.activity.query({ timeZone: "America/New_York" });
    expect(activity.weeks).toHaveLength(12);
    for (const week of activity.weeks) expect(week).toEqual({ start: week.start, ...EMPTY_WEEK });
    expect(activity.totals).toMatchObject({
      finished: 0,
      failed: 0,
      creditsCharged: 0,
      averageRenderMs: null,
      averageStructureScore: null,
    });

    const visitor = createStudioClient(server.url);
    await expect(visitor.client.render.activity.query()).rejects.toSatisfy((error) => failure(error).data?.code === "UNAUTHORIZED");
    await expect(newcomer.client.render.activity.query({ timeZone: "Mars/Olympus_Mons" })).rejects.toSatisfy(
      (error) => failure(error).data?.code === "BAD_REQUEST",
    );
  });
});
