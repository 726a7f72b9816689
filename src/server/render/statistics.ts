/** Measured figures of the renders made here: times by engine, counts, renders per day. */
import type { AppDatabase } from "../db/client";
import { utcDay } from "../db/sql-helpers";

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
      utcDay("created_at").as("day"),
      eb.fn.sum<number>(eb.case().when("status", "=", "succeeded").then(1).else(0).end()).as("succeeded"),
      eb.fn.sum<number>(eb.case().when("status", "=", "failed").then(1).else(0).end()).as("failed"),
    ])
    .where("created_at", ">=", since)
    .groupBy("day")
    .orderBy("day")
    .execute();
  return renders.map((row) => ({ day: row.day, succeeded: Number(row.succeeded ?? 0), failed: Number(row.failed ?? 0) }));
}
