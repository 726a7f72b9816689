/** The self-test's render-queue check: is anything stuck? */
import {
  RENDER_QUEUE_LIMITS,
  checkText,
  failedWith,
  passedWith,
  warningWith,
  type ServerCheckResult,
} from "../../../shared/self-test-checks";
import type { RenderContext } from "../context";
import { RUNNING } from "../records";

/** This process's worker when it runs: it is alive by definition, whatever its last written beat says. */
export interface OwnWorker {
  instanceId: string;
  slots: number;
  active: number;
}

/**
 * The render workers alive now, across instances (decision 085): those seen within a lease in
 * render_workers, this process's own, and any other holding a valid lease on a running job (a
 * worker that writes no row, such as one of an older version during an upgrade: its free slots
 * unknown, it counts as busy). Busy slots are the running jobs they hold.
 */
async function liveWorkers(deps: Pick<RenderContext, "db" | "env">, now: number, own: OwnWorker | null) {
  const rows = await deps.db
    .selectFrom("render_workers")
    .select(["instance_id", "slots"])
    .where("seen_at", ">", now - deps.env.RENDER_LEASE_MS)
    .execute();
  const slots = new Map(rows.map((row) => [row.instance_id, Number(row.slots)]));
  if (own) slots.delete(own.instanceId);
  const held = await deps.db
    .selectFrom("render_jobs")
    .select((eb) => ["claimed_by", eb.fn.countAll<number>().as("count")])
    .where("status", "in", RUNNING)
    .where("lease_until", ">", now)
    .where("claimed_by", "is not", null)
    .groupBy("claimed_by")
    .execute();
  let busy = 0;
  for (const { claimed_by: holder, count } of held) {
    if (holder === null || holder === own?.instanceId) continue;
    if (!slots.has(holder)) slots.set(holder, Number(count));
    busy += Number(count);
  }
  const total = [...slots.values()].reduce((sum, count) => sum + count, 0) + (own?.slots ?? 0);
  return { workers: slots.size + (own ? 1 : 0), slots: total, active: Math.min(total, busy + (own?.active ?? 0)) };
}

/**
 * Not stuck: no render waiting longer than maxWaitMs while the live workers have a free slot (a
 * long queue behind busy slots is only busy), none running past its deadline plus a margin, and
 * a worker alive somewhere (on any instance: a web instance has none of its own). No worker seen
 * within a lease is a warning, and a failure once a render has waited past the limit.
 */
export async function checkRenderQueue(
  deps: Pick<RenderContext, "db" | "env" | "clock">,
  own: OwnWorker | null,
): Promise<ServerCheckResult> {
  const now = deps.clock.now();
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
  const { workers, slots, active } = await liveWorkers(deps, now, own);

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
  const waitedMs = queued.oldest === null ? 0 : now - Number(queued.oldest);
  const noWorker = { windowMs: deps.env.RENDER_LEASE_MS };
  if (waiting > 0 && waitedMs > RENDER_QUEUE_LIMITS.maxWaitMs) {
    if (workers === 0) return failedWith(checkText("rendersWaitingNoWorker", { count: waiting, waitedMs, ...noWorker }));
    if (active < slots) return failedWith(checkText("rendersWaiting", { count: waiting, waitedMs, free: slots - active, slots }));
  }
  const state = { waiting, rendering, active, slots };
  // Whole seconds: the wait is shown as "12 s", not to the millisecond.
  const queue =
    waiting === 0 || queued.oldest === null
      ? checkText("queueState", state)
      : checkText("queueStateOldest", { ...state, oldestMs: Math.round(waitedMs / 1000) * 1000 });
  if (workers === 0) return warningWith(checkText("noRenderWorker", noWorker), queue);
  return passedWith(queue, checkText("renderWorkers", { count: workers }));
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
