/**
 * Periodic clean-up, at start and every few hours: visitors' demo pictures nobody claimed, and
 * render events too old for any reconnecting client to ask for.
 */
import type { RenderContext } from "./context";
import { RENDER } from "../../shared/render";
import { purgeExpiredVisitorWork } from "./visitor-work";

const EVERY_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

export async function runHousekeeping(deps: Pick<RenderContext, "db" | "clock" | "storage" | "log">): Promise<void> {
  await purgeExpiredVisitorWork(deps);
  await deps.db
    .deleteFrom("render_events")
    .where("created_at", "<", deps.clock.now() - RENDER.visitorWorkDays * DAY_MS)
    .execute();
}

/** Starts the schedule; returns its stop function. */
export function startHousekeeping(deps: Pick<RenderContext, "db" | "clock" | "storage" | "log">): () => void {
  const run = () => void runHousekeeping(deps).catch((error: unknown) => deps.log.warn("housekeeping failed", { error }));
  run();
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
