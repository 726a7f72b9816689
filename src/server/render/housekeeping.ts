/**
 * Periodic clean-up, at start and every few hours: visitors' demo pictures nobody claimed (and,
 * when the disk runs low, the oldest of them sooner), render events too old for any reconnecting
 * client to ask for, and past days' upload budgets.
 */
import type { RenderContext } from "./context";
import { RENDER } from "../../shared/render";
import { forgetOldUploadBudgets } from "./upload-budgets";
import { purgeExpiredVisitorWork, reclaimVisitorSpace } from "./visitor-work";

const EVERY_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

type HousekeepingDeps = Pick<RenderContext, "db" | "clock" | "env" | "storage" | "log">;

export async function runHousekeeping(deps: HousekeepingDeps): Promise<void> {
  await purgeExpiredVisitorWork(deps);
  await reclaimVisitorSpace(deps);
  await forgetOldUploadBudgets(deps);
  await deps.db
    .deleteFrom("render_events")
    .where("created_at", "<", deps.clock.now() - RENDER.visitorWorkDays * DAY_MS)
    .execute();
}

/** Starts the schedule; returns its stop function. */
export function startHousekeeping(deps: HousekeepingDeps): () => void {
  const run = () => void runHousekeeping(deps).catch((error: unknown) => deps.log.warn("housekeeping failed", { error }));
  run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
