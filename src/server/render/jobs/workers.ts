/**
 * Render workers seen alive (decision 085): a worker writes its row (instance id, slots) when it
 * starts and every quarter of its lease, and removes it when it stops. A job's lease shows a busy
 * worker only; this row shows an idle one too, so that any instance (a web instance has no worker)
 * can tell "the workers are busy" from "no worker is running". The table is the render module's.
 */
import type { RenderContext } from "../context";

export interface WorkerSeen {
  instanceId: string;
  slots: number;
  startedAt: number;
}

/** Writes that the worker is alive now (its row, made or renewed). */
export async function recordWorkerSeen(deps: Pick<RenderContext, "db">, worker: WorkerSeen, now: number): Promise<void> {
  await deps.db
    .insertInto("render_workers")
    .values({ instance_id: worker.instanceId, slots: worker.slots, started_at: worker.startedAt, seen_at: now })
    .onConflict((conflict) => conflict.column("instance_id").doUpdateSet({ slots: worker.slots, seen_at: now }))
    .execute();
}

/** A worker that stops removes its row: it is gone at once, not a lease later. */
export async function forgetWorker(deps: Pick<RenderContext, "db">, instanceId: string): Promise<void> {
  await deps.db.deleteFrom("render_workers").where("instance_id", "=", instanceId).execute();
}

/** Rows of workers that died without removing them, once not seen since `before` (housekeeping). */
export async function forgetWorkersSeenBefore(deps: Pick<RenderContext, "db">, before: number): Promise<number> {
  const result = await deps.db.deleteFrom("render_workers").where("seen_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
