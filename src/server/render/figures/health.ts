/** The self-test's render-queue check: is anything stuck? */
import { RENDER_QUEUE_LIMITS, checkText, failedWith, passedWith, type ServerCheckResult } from "../../../shared/self-test-checks";
import type { RenderContext } from "../context";
import { RUNNING } from "../records";

/**
 * Not stuck: no render waiting longer than maxWaitMs while the worker has a free slot (a long
 * queue behind busy slots is only busy), and none running past its deadline plus a margin.
 */
export async function checkRenderQueue(deps: Pick<RenderContext, "db" | "env" | "clock">, activeJobs: number): Promise<ServerCheckResult> {
  const now = deps.clock.now();
  const slots = deps.env.RENDER_CONCURRENCY;
  const active = activeJobs;
  const queued = await deps.db
    .selectFrom("render_jobs")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min<number | null>("updated_at").as("oldest")])
    .where("status", "=", "queued")
    .executeTakeFirstOrThrow();
  const running = await deps.db
    .selectFrom("render_jobs")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min<number | null>("started_at").as("oldest")])
    .where("status", "in", RUNNING)
    .executeTakeFirstOrThrow();
  const waiting = Number(queued.count);
  const rendering = Number(running.count);

  const runLimit = deps.env.RENDER_DEADLINE_MS + RENDER_QUEUE_LIMITS.runningMarginMs;
  if (rendering > 0 && running.oldest !== null) {
    const overdue = await deps.db
      .selectFrom("render_jobs")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("status", "in", RUNNING)
      .where("started_at", "<", now - runLimit)
      .executeTakeFirstOrThrow();
    const count = Number(overdue.count);
    if (count > 0) {
      return failedWith(
        checkText("rendersOverdue", { count, runningMs: now - Number(running.oldest), deadlineMs: deps.env.RENDER_DEADLINE_MS }),
      );
    }
  }
  if (waiting > 0 && queued.oldest !== null && now - Number(queued.oldest) > RENDER_QUEUE_LIMITS.maxWaitMs && active < slots) {
    return failedWith(checkText("rendersWaiting", { count: waiting, waitedMs: now - Number(queued.oldest), free: slots - active, slots }));
  }
  const state = { waiting, rendering, active, slots };
  if (waiting === 0 || queued.oldest === null) return passedWith(checkText("queueState", state));
  // Whole seconds: the wait is shown as "12 s", not to the millisecond.
  const oldestMs = Math.round((now - Number(queued.oldest)) / 1000) * 1000;
  return passedWith(checkText("queueStateOldest", { ...state, oldestMs }));
}

/** How the engine's latest finished render ended, for /readyz (the engine is not called for this). */
export async function lastFinishedRender(deps: Pick<RenderContext, "db">, providerId: string) {
  const last = await deps.db
    .selectFrom("render_jobs")
    .select(["status", "error", "updated_at"])
    .where("provider", "=", providerId)
    .where("status", "in", ["succeeded", "failed"])
    .orderBy("updated_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return last ? { outcome: last.status as "succeeded" | "failed", at: last.updated_at, error: last.error } : null;
}
