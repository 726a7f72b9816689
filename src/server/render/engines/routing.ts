/**
 * Engines chosen per task, with fallback (issue 30, decision 088). Every configured engine is built
 * (the Preview engine always; ComfyUI with its URL; Replicate and OpenAI with their keys); each
 * task (render, stage, declutter, edit, upscale) has its engines in the order they are tried
 * (ENGINES_RENDER … or /admin → Studio; unset, the studio's engine, RENDER_PROVIDER, as before).
 * An engine that is down is skipped for the next one of its task; with one engine, a task behaves
 * as before (its transient failures are retried until the deadline).
 */
import { ENGINE_TASKS, isExteriorMode, RENDER_MODES, type EngineInfo, type EngineTask, type RenderMode } from "../../../shared/render";
import { ENGINE_TASK_VARIABLES, RENDER_PROVIDERS, type EngineEnv, type Env, type RenderProviderName } from "../../env";
import { createRenderProvider } from "./choose";
import { PermanentRenderError, RetryableRenderError, type RenderProvider } from "./provider";
import type { PredictionWaiters } from "./replicate-webhook";
import type { EngineStates } from "./states";

/** The task each render mode belongs to. */
const TASK_OF_MODE: Record<RenderMode, EngineTask> = {
  redesign: "render",
  stage: "stage",
  declutter: "declutter",
  sky: "exterior",
  twilight: "exterior",
  garden: "exterior",
};

/** Whether an engine can do a task at all. */
export function ableFor(provider: RenderProvider, task: EngineTask): boolean {
  const { capabilities } = provider;
  switch (task) {
    case "render":
      return capabilities.modes.includes("redesign");
    case "stage":
    case "declutter":
      return capabilities.modes.includes(task);
    case "exterior":
      // An engine that does one exterior mode does them all (one prompt each, the same kind of edit).
      return capabilities.modes.some(isExteriorMode);
    case "edit":
      return capabilities.masks && typeof provider.inpaint === "function";
    case "upscale":
      return capabilities.upscale && typeof provider.upscale === "function";
  }
}

/** The engines a configuration has what they need for (a key, a URL); the Preview engine always. */
export function configuredEngineIds(config: EngineEnv): RenderProviderName[] {
  return RENDER_PROVIDERS.filter(
    (id) =>
      id === "local" ||
      (id === "comfyui" && Boolean(config.COMFYUI_URL)) ||
      (id === "replicate" && Boolean(config.REPLICATE_API_TOKEN)) ||
      (id === "openai" && Boolean(config.OPENAI_API_KEY)),
  );
}

/** A task lists an engine that is not set up here, or cannot do it. */
export class EngineRouteError extends Error {
  override name = "EngineRouteError";
  constructor(
    readonly engine: string,
    readonly task: EngineTask,
  ) {
    super(`${engine} is not set up here or cannot ${task}`);
  }
}

/** The engines built from one configuration, and each task's engines in order. */
export class EngineSet {
  constructor(
    /** Every engine built, by id. */
    readonly engines: ReadonlyMap<string, RenderProvider>,
    /** Each task's engines, in the order tried (only engines able to do it). */
    readonly routes: Readonly<Record<EngineTask, readonly RenderProvider[]>>,
    /** The studio's engine (RENDER_PROVIDER): it names the studio when no task renders. */
    private readonly main: RenderProvider,
  ) {}

  /** The engine that renders first: new jobs are recorded with it, and the interface names it. */
  get primary(): RenderProvider {
    return this.routes.render[0] ?? this.routes.stage[0] ?? this.routes.declutter[0] ?? this.main;
  }

  chain(task: EngineTask): readonly RenderProvider[] {
    return this.routes[task];
  }

  /** Per task, the engines built here that can do it (what /admin offers). */
  offered(): Record<EngineTask, string[]> {
    const all = [...this.engines.values()];
    return Object.fromEntries(
      ENGINE_TASKS.map((task) => [task, all.filter((engine) => ableFor(engine, task)).map((engine) => engine.id)]),
    ) as Record<EngineTask, string[]>;
  }

  /** How the interface names the engines and what they offer together. */
  info(): EngineInfo {
    const primary = this.primary;
    const own = primary.capabilities;
    // The primary engine's modes first, in its order, then those other engines bring.
    const modes: RenderMode[] = [...own.modes, ...RENDER_MODES.filter((mode) => !own.modes.includes(mode))].filter(
      (mode) => this.routes[TASK_OF_MODE[mode]].length > 0,
    );
    const planEngine = this.routes.render.find((engine) => engine.capabilities.floorPlan !== "none");
    // The engines of the charged tasks (an upscale costs no credit).
    const charged = new Set(ENGINE_TASKS.filter((task) => task !== "upscale").flatMap((task) => this.routes[task]));
    return {
      id: primary.id,
      label: primary.label,
      isAi: own.isAi,
      // Free credits wait for a confirmed address when any engine of a charged task bills each call.
      billedPerRender: [...charged].some((engine) => engine.billedPerRender === true),
      capabilities: {
        ...own,
        modes,
        masks: this.routes.edit.length > 0,
        upscale: this.routes.upscale.length > 0,
        floorPlan: planEngine?.capabilities.floorPlan ?? "none",
      },
      tasks: Object.fromEntries(ENGINE_TASKS.map((task) => [task, this.routes[task].map((engine) => engine.id)])) as Record<
        EngineTask,
        string[]
      >,
    };
  }
}

/** One engine for everything (a test's or the benchmark's engine): each task it can do. */
export function singleEngineSet(provider: RenderProvider): EngineSet {
  const routes = Object.fromEntries(ENGINE_TASKS.map((task) => [task, ableFor(provider, task) ? [provider] : []]));
  return new EngineSet(new Map([[provider.id, provider]]), routes as Record<EngineTask, RenderProvider[]>, provider);
}

/**
 * Builds every configured engine and each task's list. The studio's engine (RENDER_PROVIDER) must
 * build (as before); another configured engine that cannot is left out, and refused when a task
 * lists it. `strict` (a configuration about to be saved) refuses a listed engine that is not set up
 * or cannot do its task; otherwise such an engine is left out of the list, and `warn` says so.
 */
export function buildEngineSet(
  config: Env,
  waiters: PredictionWaiters,
  options: { strict: boolean; warn?: (message: string, fields: Record<string, unknown>) => void },
): EngineSet {
  const main = createRenderProvider(config, waiters);
  const engines = new Map<string, RenderProvider>([[main.id, main]]);
  const unbuilt = new Map<string, unknown>();
  for (const id of configuredEngineIds(config)) {
    if (engines.has(id)) continue;
    try {
      engines.set(id, createRenderProvider({ ...config, RENDER_PROVIDER: id }, waiters));
    } catch (error) {
      unbuilt.set(id, error);
    }
  }
  const routes = {} as Record<EngineTask, RenderProvider[]>;
  for (const task of ENGINE_TASKS) {
    const listed = config[ENGINE_TASK_VARIABLES[task]];
    if (!listed || listed.length === 0) {
      // As before: the studio's engine does the task when it can.
      routes[task] = ableFor(main, task) ? [main] : [];
      continue;
    }
    routes[task] = [];
    for (const id of listed) {
      const engine = engines.get(id);
      if (engine && ableFor(engine, task)) {
        routes[task].push(engine);
        continue;
      }
      if (options.strict) {
        const error = new EngineRouteError(id, task);
        if (unbuilt.has(id)) error.cause = unbuilt.get(id);
        throw error;
      }
      options.warn?.("an engine listed for a task is not set up here or cannot do it; the task goes without it", { engine: id, task });
    }
  }
  return new EngineSet(engines, routes, main);
}

/** An engine skipped for a job, and why. */
export interface EngineSkip {
  engine: RenderProvider;
  detail: string;
}

/** Every engine of the task was down or failed: nothing made the picture. */
export class NoEngineLeft extends Error {
  override name = "NoEngineLeft";
  constructor(readonly skipped: readonly EngineSkip[]) {
    super(`No engine could do it: ${describeSkips(skipped)}`);
  }
}

/** "ComfyUI (…): did not answer; OpenAI (…): 503" */
export function describeSkips(skipped: readonly EngineSkip[]): string {
  return skipped.map((skip) => `${skip.engine.label}: ${skip.detail}`).join("; ");
}

/**
 * Whether a failure means the engine is down (move on to the next one): unreachable, silent,
 * overloaded or failing for now (RetryableRenderError), or a network error. An engine that answered
 * and refused (PermanentRenderError) is up: its refusal is the render's answer.
 */
export function isDownFailure(error: unknown): boolean {
  if (error instanceof PermanentRenderError) return false;
  if (error instanceof RetryableRenderError) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError" || (error instanceof TypeError && /fetch failed|network/i.test(error.message))) return true;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|EAI_AGAIN|UND_ERR_)/.test(code);
}

export function errorDetail(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

export interface FallbackDeps {
  states: EngineStates;
  now: () => number;
  /** The engine's health check (its cheapest authenticated question, with a short timeout). */
  check: (engine: RenderProvider) => Promise<{ ok: boolean; detail: string }>;
  /** An engine found down is skipped without asking it again for this long; then its health check decides. */
  recheckMs: number;
  /** A signal that aborts after `ms` (an engine followed by another has that long to finish); AbortSignal.timeout by default. */
  finishWithin?: (ms: number) => AbortSignal;
}

/** What an engine followed by another is given of the time left before the deadline: the other half is the next one's. */
const SHARE_OF_TIME_LEFT = 0.5;

/**
 * Runs `attempt` on the task's engines in order until one makes the result. With several engines,
 * one found down within `recheckMs` is skipped, one not seen up since the start or since it went
 * down must pass its health check first, and a down failure moves on to the next; a refusal
 * (PermanentRenderError) or a cancel ends it. One engine at a time: the next starts only after the
 * previous call has ended. With a `deadlineAt`, an engine followed by another has half of the time
 * left to finish: one that accepted the work and then hangs is stopped (its work canceled) and
 * counted as down, and the next has the rest. With one engine, `attempt` is simply called (its
 * retries are its own).
 */
export async function runWithFallback<T>(
  chain: readonly RenderProvider[],
  task: EngineTask,
  deps: FallbackDeps,
  signal: AbortSignal,
  attempt: (engine: RenderProvider, fallback: boolean, signal: AbortSignal) => Promise<T>,
  deadlineAt?: number,
): Promise<{ value: T; engine: RenderProvider; skipped: EngineSkip[] }> {
  const skipped: EngineSkip[] = [];
  const fallback = chain.length > 1;
  for (const [index, engine] of chain.entries()) {
    signal.throwIfAborted();
    if (fallback) {
      const state = deps.states.get(engine.id);
      if (state.state === "down" && state.at !== null && deps.now() - state.at < deps.recheckMs) {
        skipped.push({ engine, detail: state.message ?? "down" });
        continue;
      }
      if (state.state !== "up") {
        const health = await deps.check(engine);
        signal.throwIfAborted();
        if (!health.ok) {
          deps.states.down(engine.id, deps.now(), "check", health.detail);
          skipped.push({ engine, detail: health.detail });
          continue;
        }
        deps.states.up(engine.id, deps.now());
      }
    }
    const followed = fallback && index < chain.length - 1 && deadlineAt !== undefined;
    const shareMs = followed ? Math.max(1, Math.floor((deadlineAt - deps.now()) * SHARE_OF_TIME_LEFT)) : 0;
    const outOfTime = followed ? (deps.finishWithin ?? AbortSignal.timeout)(shareMs) : null;
    try {
      const value = await attempt(engine, fallback, outOfTime ? AbortSignal.any([signal, outOfTime]) : signal);
      deps.states.up(engine.id, deps.now());
      return { value, engine, skipped };
    } catch (error) {
      // Canceled, shut down, past the deadline: not the engine's state.
      if (signal.aborted) throw error;
      if (outOfTime?.aborted) {
        // Accepted, then silent for its share of the time: down, like an engine that does not answer.
        const detail = `did not finish within ${Math.round(shareMs / 1000)} s`;
        deps.states.down(engine.id, deps.now(), task, detail);
        skipped.push({ engine, detail });
        continue;
      }
      if (!isDownFailure(error)) {
        deps.states.failed(engine.id, deps.now(), task, errorDetail(error));
        throw error;
      }
      deps.states.down(engine.id, deps.now(), task, errorDetail(error));
      if (!fallback) throw error;
      skipped.push({ engine, detail: errorDetail(error) });
    }
  }
  throw new NoEngineLeft(skipped);
}
