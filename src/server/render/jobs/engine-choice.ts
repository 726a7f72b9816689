/**
 * The upscale task's engines with fallback (decision 088), as the one engine upscale.ts asks: the
 * first engine of the task that is up makes the upscale, and which one did and why another was
 * skipped are recorded with the render afterwards.
 */
import { keyedMessage } from "../../../shared/messages";
import type { RenderContext } from "../context";
import {
  describeSkips,
  NoEngineLeft,
  PermanentRenderError,
  runWithFallback,
  type EngineSet,
  type EngineSkip,
  type FallbackDeps,
  type RenderProvider,
} from "../engines";

/** Which engine made an upscale, and the engines skipped before it. */
export interface UpscaleOutcome {
  engine?: RenderProvider;
  skipped?: readonly EngineSkip[];
}

/** An engine whose upscale() tries the upscale task's engines in turn; it can upscale when the task has one. */
export function routedUpscaler(engines: EngineSet, fallback: FallbackDeps, outcome: UpscaleOutcome): RenderProvider {
  const chain = engines.chain("upscale");
  const first = chain[0] ?? engines.primary;
  const upscaler: RenderProvider = {
    id: first.id,
    label: first.label,
    capabilities: { ...first.capabilities, upscale: chain.length > 0 },
    render: () => Promise.reject(new PermanentRenderError("This engine only upscales")),
  };
  if (chain.length > 0) {
    upscaler.upscale = async (request) => {
      try {
        const made = await runWithFallback(chain, "upscale", fallback, request.signal, (engine) => engine.upscale!(request));
        outcome.engine = made.engine;
        outcome.skipped = made.skipped;
        return made.value;
      } catch (error) {
        // upscale.ts says "the upscale failed" for an engine's failure; none left is one.
        if (error instanceof NoEngineLeft) throw new PermanentRenderError(`No engine could upscale: ${describeSkips(error.skipped)}`);
        throw error;
      }
    };
  }
  return upscaler;
}

/** Records which engine made the job's upscale and why another was skipped (null when the first made it). */
export async function recordUpscaleEngine(deps: Pick<RenderContext, "db">, jobId: string, outcome: UpscaleOutcome): Promise<void> {
  if (!outcome.engine) return;
  const skipped = outcome.skipped ?? [];
  await deps.db
    .updateTable("render_jobs")
    .set({
      upscale_provider: outcome.engine.id,
      upscale_fallback_reason:
        skipped.length === 0
          ? null
          : keyedMessage("engineFallback", {
              engine: outcome.engine.label,
              skipped: skipped.map((skip) => skip.engine.label).join(", "),
              detail: skipped.map((skip) => skip.detail).join("; "),
            }),
    })
    .where("id", "=", jobId)
    .execute();
}
