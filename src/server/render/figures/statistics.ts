/** Measured figures of the renders made here: times by engine, counts, renders per day, a user's weeks. */
import { isBuiltInStyle } from "../../../shared/custom-styles";
import type { DesignStyle } from "../../../shared/styles";
import type { AppDatabase } from "../../db/client";
import { dayString, periodIndex, utcDayNumber } from "../../db/sql-helpers";
import type { CreditLedger } from "../context";

const DAY_MS = 86_400_000;

/** The p-th percentile (0..100) of sorted values, nearest-rank; null for none. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Claim-to-done times of the renders that succeeded since `since`, by provider, sorted. */
export async function renderDurations(db: AppDatabase, since: number): Promise<Map<string, number[]>> {
  const rows = await db
    .selectFrom("render_jobs")
    .select(["provider", "started_at", "finished_at"])
    .where("status", "=", "succeeded")
    .where("finished_at", ">=", since)
    .where("started_at", "is not", null)
    .execute();
  const byProvider = new Map<string, number[]>();
  for (const row of rows) {
    const list = byProvider.get(row.provider) ?? [];
    list.push(row.finished_at! - row.started_at!);
    byProvider.set(row.provider, list);
  }
  for (const list of byProvider.values()) list.sort((a, b) => a - b);
  return byProvider;
}

/**
 * The landing page's figures: succeeded renders of all time, and the average claim-to-done time of
 * those finished in the last 30 days. Aggregated by SQLite in one statement, not loaded row by row.
 */
export async function landingFigures(db: AppDatabase, now: number) {
  const since = now - 30 * DAY_MS;
  const row = await db
    .selectFrom("render_jobs")
    .select((eb) => [
      eb.fn.countAll<number>().as("made"),
      eb.fn
        .avg<number | null>(
          eb
            .case()
            .when(eb.and([eb("finished_at", ">=", since), eb("started_at", "is not", null)]))
            .then(eb("finished_at", "-", eb.ref("started_at")))
            .end(),
        )
        .as("averageMs"),
    ])
    .where("status", "=", "succeeded")
    .executeTakeFirstOrThrow();
  return {
    rendersMade: Number(row.made),
    averageRenderSeconds: row.averageMs === null ? null : Number(row.averageMs) / 1000,
  };
}

/** The /performance page's figures for the last `days`. */
export async function performanceFigures(db: AppDatabase, now: number, days = 30) {
  const since = now - days * DAY_MS;
  const counts = await db
    .selectFrom("render_jobs")
    .select((eb) => [
      eb.fn.countAll<number>().as("all"),
      eb.fn.sum<number>(eb.case().when("status", "=", "succeeded").then(1).else(0).end()).as("succeeded"),
      eb.fn.sum<number>(eb.case().when("status", "=", "failed").then(1).else(0).end()).as("failed"),
      eb.fn.sum<number>(eb.case().when("status", "=", "queued").then(1).else(0).end()).as("queued"),
    ])
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  const all = [...(await renderDurations(db, since)).values()].flat().sort((a, b) => a - b);
  const queue = await db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "queued")
    .executeTakeFirstOrThrow();
  return {
    days,
    renders: Number(counts.all),
    succeeded: Number(counts.succeeded ?? 0),
    failed: Number(counts.failed ?? 0),
    renderTimeP50Ms: percentile(all, 50),
    renderTimeP95Ms: percentile(all, 95),
    queueLength: Number(queue.n),
  };
}

/** The structure check by engine and model: how many renders were scored since `since`, and their average score. */
export async function structureByEngine(db: AppDatabase, since: number) {
  const rows = await db
    .selectFrom("render_jobs")
    .select((eb) => ["provider", "model", eb.fn.countAll<number>().as("count"), eb.fn.avg<number>("structure_score").as("average")])
    .where("status", "=", "succeeded")
    .where("finished_at", ">=", since)
    .where("structure_score", "is not", null)
    .groupBy(["provider", "model"])
    .orderBy("provider")
    .orderBy("model")
    .execute();
  return rows.map((row) => ({
    provider: row.provider,
    model: row.model ?? "",
    count: Number(row.count),
    averageScore: Number(row.average),
  }));
}

/** Renders asked for since `since`, per day, by outcome. */
export async function rendersPerDay(db: AppDatabase, since: number) {
  const renders = await db
    .selectFrom("render_jobs")
    .select((eb) => [
      utcDayNumber("created_at").as("day"),
      eb.fn.sum<number>(eb.case().when("status", "=", "succeeded").then(1).else(0).end()).as("succeeded"),
      eb.fn.sum<number>(eb.case().when("status", "=", "failed").then(1).else(0).end()).as("failed"),
    ])
    .where("created_at", ">=", since)
    .groupBy("day")
    .orderBy("day")
    .execute();
  return renders.map((row) => ({ day: dayString(row.day), succeeded: Number(row.succeeded ?? 0), failed: Number(row.failed ?? 0) }));
}

/** How many weeks /enhanced-dashboard shows, the current one included. */
export const ACTIVITY_WEEKS = 12;

/** How far the wall clock of `timeZone` is ahead of UTC at `at` (ms, to the second). */
function zoneOffset(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant at which the wall clock of `timeZone` shows `wall` (a wall time written as UTC milliseconds). */
function wallToInstant(wall: number, timeZone: string): number {
  const guess = wall - zoneOffset(wall, timeZone);
  return wall - zoneOffset(guess, timeZone);
}

/**
 * The last `count` weeks, Monday 00:00 to Monday 00:00 in `timeZone`, oldest first and the one
 * holding `now` last: each week's first instant and its Monday's date (YYYY-MM-DD), and the end of
 * the last week.
 */
export function activityWeeks(now: number, timeZone: string, count = ACTIVITY_WEEKS) {
  const wallNow = now + zoneOffset(now, timeZone);
  const today = Math.floor(wallNow / DAY_MS) * DAY_MS;
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  const weeks: { start: number; date: string }[] = [];
  for (let index = count - 1; index >= 0; index--) {
    const wall = monday - index * 7 * DAY_MS;
    weeks.push({ start: wallToInstant(wall, timeZone), date: new Date(wall).toISOString().slice(0, 10) });
  }
  return { weeks, end: wallToInstant(monday + 7 * DAY_MS, timeZone) };
}

/** A week of the user's activity; counts are of jobs that ended that week (claim to done for the times). */
export interface ActivityWeek {
  /** The week's Monday in the user's time zone, YYYY-MM-DD. */
  start: string;
  /** Renders that succeeded, by style (edits of the modification studio apart). */
  byStyle: { style: DesignStyle; count: number }[];
  /** Modification-studio edits that succeeded. */
  edits: number;
  /** Renders and edits that failed. */
  failed: number;
  /** Credits the user's renders and edits took (ledger charges). */
  creditsCharged: number;
  /** Credits given back for failed or canceled ones (ledger refunds), and how many were refunded. */
  creditsRefunded: number;
  refunds: number;
  /** Average claim-to-done time of the succeeded ones; null without any. */
  averageRenderMs: number | null;
  /** Average structure score (0..1) of the scored ones, and how many were scored. */
  averageStructureScore: number | null;
  scored: number;
}

/**
 * /enhanced-dashboard: the user's last ACTIVITY_WEEKS weeks (Monday to Sunday in `timeZone`),
 * measured from render_jobs (one grouped statement) and the credit ledger (credits.ts). Weeks without
 * anything are zeros.
 */
export async function userActivity(
  db: AppDatabase,
  ledger: Pick<CreditLedger, "useByPeriod">,
  userId: string,
  now: number,
  timeZone: string,
) {
  const { weeks, end } = activityWeeks(now, timeZone);
  const starts = weeks.map((week) => week.start);
  const [rows, credits] = await Promise.all([
    db
      .selectFrom("render_jobs")
      .select((eb) => [
        periodIndex("finished_at", starts).as("week"),
        "kind",
        "style",
        "status",
        eb.fn.countAll<number>().as("count"),
        eb.fn
          .sum<number | null>(
            eb
              .case()
              .when("started_at", "is not", null)
              .then(eb("finished_at", "-", eb.ref("started_at")))
              .end(),
          )
          .as("durationTotal"),
        eb.fn.count<number>("started_at").as("durationCount"),
        eb.fn.sum<number | null>("structure_score").as("scoreTotal"),
        eb.fn.count<number>("structure_score").as("scoreCount"),
      ])
      .where("user_id", "=", userId)
      .where("status", "in", ["succeeded", "failed"])
      .where("finished_at", ">=", starts[0]!)
      .where("finished_at", "<", end)
      .groupBy(["week", "kind", "style", "status"])
      .execute(),
    ledger.useByPeriod(db, userId, starts, end),
  ]);
  const totals = weeks.map(() => ({ durationTotal: 0, durationCount: 0, scoreTotal: 0, scoreCount: 0 }));
  const result: ActivityWeek[] = weeks.map((week, index) => ({
    start: week.date,
    byStyle: [],
    edits: 0,
    failed: 0,
    creditsCharged: credits[index]!.charged,
    creditsRefunded: credits[index]!.refunded,
    refunds: credits[index]!.refunds,
    averageRenderMs: null,
    averageStructureScore: null,
    scored: 0,
  }));
  for (const row of rows) {
    const index = Number(row.week);
    const week = result[index];
    const total = totals[index];
    if (!week || !total) continue;
    const count = Number(row.count);
    if (row.status === "failed") {
      week.failed += count;
      continue;
    }
    if (row.kind === "edit" || row.style === "") week.edits += count;
    // The chart names the built-in styles; renders in a custom style count in the totals only (for now).
    else if (isBuiltInStyle(row.style)) week.byStyle.push({ style: row.style, count });
    total.durationTotal += Number(row.durationTotal ?? 0);
    total.durationCount += Number(row.durationCount);
    total.scoreTotal += Number(row.scoreTotal ?? 0);
    total.scoreCount += Number(row.scoreCount);
  }
  const all = { durationTotal: 0, durationCount: 0, scoreTotal: 0, scoreCount: 0 };
  result.forEach((week, index) => {
    const total = totals[index]!;
    week.byStyle.sort((a, b) => b.count - a.count || a.style.localeCompare(b.style));
    week.averageRenderMs = total.durationCount > 0 ? total.durationTotal / total.durationCount : null;
    week.averageStructureScore = total.scoreCount > 0 ? total.scoreTotal / total.scoreCount : null;
    week.scored = total.scoreCount;
    for (const key of ["durationTotal", "durationCount", "scoreTotal", "scoreCount"] as const) all[key] += total[key];
  });
  const sum = (value: (week: ActivityWeek) => number) => result.reduce((total, week) => total + value(week), 0);
  return {
    timeZone,
    weeks: result,
    /** The whole period; the averages are over every render of it, not averages of the weeks. */
    totals: {
      finished: sum((week) => week.edits + week.byStyle.reduce((total, style) => total + style.count, 0)),
      failed: sum((week) => week.failed),
      creditsCharged: sum((week) => week.creditsCharged),
      creditsRefunded: sum((week) => week.creditsRefunded),
      refunds: sum((week) => week.refunds),
      averageRenderMs: all.durationCount > 0 ? all.durationTotal / all.durationCount : null,
      averageStructureScore: all.scoreCount > 0 ? all.scoreTotal / all.scoreCount : null,
      scored: all.scoreCount,
    },
  };
}
