/**
 * Figures: what the render module measures and shows. The landing and performance pages' figures,
 * the user's statistics and activity, the admin's charts, the example pairs of the gallery, and the
 * queue's health for the self-test. Every figure is read from what happened, never invented.
 *
 * The rest of the render module imports this file only (lint: render-figures-behind-its-index).
 */
import type { EngineInfo } from "../../../shared/render";
import type { ServerCheckResult } from "../../../shared/self-test-checks";
import type { RenderContext } from "../context";
import { exampleGalleryPairs } from "./examples";
import { checkRenderQueue, lastFinishedRender, type OwnWorker } from "./health";
import {
  landingFigures,
  percentile,
  performanceFigures,
  renderDurations,
  rendersPerDay,
  structureByEngine,
  userActivity,
} from "./statistics";
export { exampleKey } from "./examples";
export { percentile } from "./statistics";

/** How long the landing page's figures are kept before they are read again. */
export const LANDING_CACHE_MS = 60_000;

/**
 * The figures part of the render module's surface. `engine` is the engine in force; `ownWorker`
 * this process's worker when it runs, with its slots and the jobs it runs now (the queue check
 * counts it with the workers other instances run).
 */
export function createFigures(deps: RenderContext, engine: () => EngineInfo, ownWorker: () => OwnWorker | null) {
  let landingCache: { at: number; figures: ReturnType<typeof landingFigures> } | undefined;
  return {
    /** The landing page's figures (renders made, average time over 30 days), read at most once a minute by the injected clock: every visit asks. */
    async landingFigures() {
      const now = deps.clock.now();
      if (!landingCache || now - landingCache.at >= LANDING_CACHE_MS) landingCache = { at: now, figures: landingFigures(deps.db, now) };
      const cached = landingCache;
      try {
        return await cached.figures;
      } catch (error) {
        // A failed read is not kept: the next visit tries again.
        if (landingCache === cached) landingCache = undefined;
        throw error;
      }
    },
    /** The same figures read now (bench and tests). */
    landingFiguresUncached: () => landingFigures(deps.db, deps.clock.now()),
    performanceFigures: () => performanceFigures(deps.db, deps.clock.now()),
    /** Example pairs the app made itself (the gallery). */
    exampleGalleryPairs: () => exampleGalleryPairs(deps),
    /** /enhanced-dashboard: the user's last 12 weeks (Monday to Sunday in `timeZone`, an IANA name), measured. */
    userActivity: (userId: string, timeZone: string) => userActivity(deps.db, deps.credits, userId, deps.clock.now(), timeZone),
    rendersPerDay: (since: number) => rendersPerDay(deps.db, since),
    /** The average "structure kept" score by engine and model (admin analytics). */
    structureByEngine: (since: number) => structureByEngine(deps.db, since),
    /** Claim-to-done times since `since`, by engine: count, p50 and p95. */
    async renderTimeByProvider(since: number) {
      return [...(await renderDurations(deps.db, since))].map(([providerId, list]) => ({
        provider: providerId,
        count: list.length,
        p50Ms: percentile(list, 50),
        p95Ms: percentile(list, 95),
      }));
    },
    /**
     * The engine's last known state, for /readyz: how its latest finished render ended (the
     * engine is not called for this; the self-test's render-provider check does that).
     */
    async engineState() {
      const { id, label } = engine();
      return { id, label, lastRender: await lastFinishedRender(deps, id) };
    },
    /** The self-test's check that no render is stuck. */
    checkQueue: (): Promise<ServerCheckResult> => checkRenderQueue(deps, ownWorker()),
  };
}
