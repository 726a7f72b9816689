/**
 * The render module: the whole life of a render behind one surface, in five parts, each a folder
 * behind its own index.ts (lint keeps it so):
 *   intake/   uploads, storage and upload budgets, visitors' demo work;
 *   jobs/     the queue and its charges, the worker, edits, upscales, cancel/retry/delete, reading jobs;
 *   live/     render events: stored with each change, then streamed (the fan-out);
 *   engines/  the engines (Preview, ComfyUI, Replicate, OpenAI), prompts, workflows, the structure check;
 *   figures/  measured figures, statistics, example pairs, the queue's health.
 * What every part shares sits beside this file: context.ts (the adapters and the ports to projects,
 * accounts and credits), owner.ts, records.ts (finding and removing rows and files), views.ts,
 * links.ts, signals.ts. routes.ts serves the pictures; housekeeping.ts is the module's cleaning pass.
 *
 * Routers and HTTP routes call the functions of RenderModule only; the module owns the tables
 * uploads, render_jobs, render_edits, render_events, upload_budgets and visitor_demo_renders.
 * It imports no service: credits, projects and accounts come in through ports (context.ts).
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { Router } from "express";
import { CREDITS, PRODUCT_NAME, UPLOAD_BUCKET } from "../../shared/constants";
import { DEFAULT_PAINT_SETTINGS } from "../../shared/paint";
import { OUTSIDE_SERVICE_TIMEOUT_MS } from "../../shared/self-test-checks";
import type { EngineTask, RenderEvent } from "../../shared/render";
import type { EngineEnv, Env } from "../env";
import type { Infra } from "../infra";
import type { Clock } from "../clock";
import { DomainError, notFound } from "../errors";
import type { AccountDirectory, CreditLedger, ProjectDirectory, RenderContext, StyleDirectory, TeamDirectory } from "./context";
import {
  buildEngineSet,
  EngineRouteError,
  EngineStates,
  PredictionWaiters,
  singleEngineSet,
  type EngineSet,
  type FallbackDeps,
  type RenderProvider,
} from "./engines";
import { createFigures } from "./figures";
import { runHousekeeping } from "./housekeeping";
import { createIntake, findOwnedUpload } from "./intake";
import { createJobs, demoRefusal, keepsFreeCredits, type RenderWorkerOptions } from "./jobs";
import { EVENTS_PATH, EventFanOut, eventsAfterForAll, InProcessRelay, PostgresRelay, RenderEventBus, type StoredRenderEvent } from "./live";
import { ownerKey, rowKey, type Owner, type OwnerOfRequest } from "./owner";
import { findOwnedJob } from "./records";
import { renderRoutes } from "./routes";
import { RenderSignals } from "./signals";

export type { Owner, OwnerOfRequest } from "./owner";
export { ownerOf, userOwner, visitorOwner } from "./owner";
export type { AccountDirectory, CreditLedger, Payer, ProjectDirectory, StyleDirectory, TeamDirectory } from "./context";
export type { JobView, UploadView } from "./views";
export type { RenderProvider, RenderRequest, RenderResult } from "./engines";
export { listedUpscaleModels, renderPresetFor, REPLICATE_RENDER_MODELS, upscaleModelOf } from "./engines";
export type { AdminJobRow, ListingSource, RenderWorkerOptions, ReviewPicture } from "./jobs";
export type { StoredRenderEvent } from "./live";
export { LANDING_CACHE_MS, percentile } from "./figures";

/** A render module given no styles directory finds no custom style. */
const NO_CUSTOM_STYLES: StyleDirectory = {
  take: async () => {
    throw new DomainError("not-found", "customStyleNotFound");
  },
};

export interface RenderModuleOptions {
  /** Where uploads are filed and whose projects a render may name. */
  projects: ProjectDirectory;
  /** Whose e-mail address is confirmed (free credits on an engine that bills each render). */
  accounts: AccountDirectory;
  /** Who is a member of which team, with their monthly cap there (the spaces module). */
  teams: TeamDirectory;
  /** The credits ledger: charges and refunds in the render's own transaction. */
  credits: CreditLedger;
  /** Custom styles (the styles module); without it none is found (tests and benchmarks of built-in styles). */
  styles?: StyleDirectory;
  /** Replaces the engine RENDER_PROVIDER picks (tests, the benchmark). */
  provider?: RenderProvider;
  /** Free demo renders per address per day in force (the operator's settings; default DEMO_RENDERS_PER_IP_PER_DAY). */
  freeDemoRendersPerAddress?: () => number;
  /** What a paint edit costs on the Preview engine, as the operator set it (issue 33; default 0: free). */
  previewPaintCredits?: () => number;
  /** Worker settings beyond RENDER_CONCURRENCY, RENDER_DEADLINE_MS and RENDER_LEASE_MS (tests: short backoff, an instance id). */
  worker?: Partial<RenderWorkerOptions>;
  /** The studio's name in force (downloads are named after it; default the shipped name). */
  brandName?: () => string;
  /**
   * An engine's health check (the self-test's render-engine check): whether it answers with its key
   * within `timeoutMs`. Asked before a task falls back to an engine not seen up (decision 088);
   * without it, every engine counts as up until a call fails.
   */
  engineHealth?: (engineId: string, config: Env, timeoutMs: number) => Promise<{ ok: boolean; detail: string }>;
}

/** An engine as /admin shows it: what it is, which tasks list it, and its state here. */
export interface EngineStatus {
  id: string;
  label: string;
  isAi: boolean;
  tasks: EngineTask[];
  state: "up" | "down" | "unknown";
  at: number | null;
  message: string | null;
  failures: Array<{ at: number; task: EngineTask | "check"; message: string }>;
}

export function createRenderModule(
  infra: Pick<Infra, "db" | "clock" | "env" | "storage" | "diskFloor" | "log" | "crossInstance">,
  options: RenderModuleOptions,
) {
  const replicateWaiters = new PredictionWaiters();
  /**
   * Builds every engine a configuration describes and each task's engines; throws when the studio's
   * engine cannot be built (a model without a preset), or, `strict`, when a task lists an engine
   * that is not set up or cannot do it.
   */
  const buildEngines = (config: EngineEnv, strict: boolean) =>
    buildEngineSet({ ...infra.env, ...config }, replicateWaiters, { strict, warn: (message, fields) => infra.log.warn(message, fields) });
  // The engines in force; /admin → Studio may swap them while the server runs (useEngine). Jobs running keep theirs.
  let engineConfig: Env = infra.env;
  let engines: EngineSet = options.provider ? singleEngineSet(options.provider) : buildEngines(infra.env, false);
  let engine = engines.info();
  // What this process saw of each engine (decision 088: in memory, per process).
  const states = new EngineStates();
  const checkTimeoutMs = options.worker?.engineCheckTimeoutMs ?? OUTSIDE_SERVICE_TIMEOUT_MS;
  const fallback: FallbackDeps = {
    states,
    now: () => infra.clock.now(),
    recheckMs: options.worker?.engineRecheckMs ?? 30_000,
    ...(options.worker?.engineFinishWithin ? { finishWithin: options.worker.engineFinishWithin } : {}),
    check: async (candidate: RenderProvider) => {
      if (candidate.id === "local" || !options.engineHealth) return { ok: true, detail: "" };
      try {
        return await options.engineHealth(candidate.id, engineConfig, checkTimeoutMs);
      } catch (error) {
        return { ok: false, detail: error instanceof Error ? error.message : String(error) };
      }
    },
  };
  // Several instances may share a PostgreSQL database: events (decision 082), new jobs and cancels
  // (decision 083) travel between them.
  const others = infra.crossInstance;
  const deps: RenderContext = {
    db: infra.db,
    clock: infra.clock,
    env: infra.env,
    storage: infra.storage,
    diskFloor: infra.diskFloor,
    log: infra.log,
    events: new RenderEventBus(others ? new PostgresRelay(infra.db, others, infra.log) : new InProcessRelay()),
    signals: new RenderSignals(others),
    // New jobs are recorded with the engine that renders first; what ai-render and edits accept is
    // what the tasks' engines can do together.
    get providerId() {
      return engines.primary.id;
    },
    get capabilities() {
      return engine.capabilities;
    },
    get billedPerRender() {
      return engine.billedPerRender;
    },
    projects: options.projects,
    accounts: options.accounts,
    teams: options.teams,
    credits: options.credits,
    styles: options.styles ?? NO_CUSTOM_STYLES,
    freeDemoRendersPerAddress: options.freeDemoRendersPerAddress ?? (() => infra.env.DEMO_RENDERS_PER_IP_PER_DAY),
    brandName: options.brandName ?? (() => PRODUCT_NAME),
    // The Preview engine's recolour costs what the operator set; an AI engine's paint is an edit like any.
    paintPrice: () =>
      engine.tasks.edit[0] === "local" ? (options.previewPaintCredits?.() ?? DEFAULT_PAINT_SETTINGS.previewCredits) : CREDITS.perRender,
  };
  const jobs = createJobs(deps, () => engines, fallback, {
    concurrency: infra.env.RENDER_CONCURRENCY,
    deadlineMs: infra.env.RENDER_DEADLINE_MS,
    leaseMs: infra.env.RENDER_LEASE_MS,
    instanceId: newInstanceId(),
    ...options.worker,
  });
  const jobSurface = jobs.surface;
  const { exampleGalleryPairs, ...figures } = createFigures(
    deps,
    () => engine,
    () => jobs.worker.state,
  );
  const fanOut = new EventFanOut(deps);

  return {
    ...createIntake(deps),
    ...jobSurface,
    ...figures,

    // The engine.
    /** The engine this server renders with; only the outside engines are AI. */
    get engine() {
      return engine;
    },
    /**
     * Refuses a configuration no engine can be built from (a Replicate model without a preset), or
     * whose task lists an engine not set up or unable to do it, before the settings are saved.
     */
    checkEngine(config: EngineEnv): void {
      try {
        buildEngines(config, true);
      } catch (error) {
        if (error instanceof EngineRouteError) {
          throw new DomainError("invalid", "engineRouteUnable", { cause: error, params: { engine: error.engine, task: error.task } });
        }
        throw new DomainError("invalid", "engineModelUnknown", { cause: error });
      }
    },
    /** Swaps the engines for the jobs claimed from now on (settings saved in /admin → Studio); no restart. */
    useEngine(config: EngineEnv): void {
      engines = buildEngines(config, false);
      engineConfig = { ...infra.env, ...config };
      engine = engines.info();
      infra.log.info("render engines changed", { engine: engines.primary.id, tasks: engine.tasks });
    },
    /** Per task, the engines built here that can do it: what /admin → Studio offers for each task. */
    engineOffer: () => engines.offered(),
    /** Each engine built here, the tasks listing it and its state as this process saw it (decision 088). */
    engineStatuses(): EngineStatus[] {
      return [...engines.engines.values()].map((built) => {
        const { state, at, message, failures } = states.get(built.id);
        const tasks = (Object.keys(engine.tasks) as EngineTask[]).filter((task) => engine.tasks[task].includes(built.id));
        return { id: built.id, label: built.label, isAi: built.capabilities.isAi, tasks, state, at, message, failures };
      });
    },

    /**
     * What this visitor or user may render now, and with which engine. A visitor learns before
     * uploading whether the free demo is still theirs (this browser, and this address today).
     */
    async allowance(owner: Owner | null, ipAddress: string) {
      if (owner?.userId) {
        // Free credits an unconfirmed account keeps until its address is confirmed (engines that bill each render).
        const freeCreditsLocked =
          owner.teamId === null && (await keepsFreeCredits(deps, owner.userId))
            ? await deps.credits.freeCreditsHeld(deps.db, owner.userId)
            : 0;
        // The balance of the space the user works in: a team's renders are paid by the team.
        const credits = await deps.credits.balance(deps.db, { userId: owner.userId, teamId: owner.teamId });
        return { signedIn: true, credits, freeCreditsLocked, demoAvailable: false, demoRefusal: null, engine, teamId: owner.teamId };
      }
      const refusal = await demoRefusal(deps, owner?.visitorId ?? null, ipAddress);
      return {
        signedIn: false,
        credits: null,
        freeCreditsLocked: 0,
        demoAvailable: refusal === null,
        demoRefusal: refusal,
        engine,
        teamId: null,
      };
    },
    /**
     * A version of a photo at its largest, for a download drawn over (measures, decision 089): the photo
     * itself (an upload's id) or a finished render or edit of it (the AI upscale when there is one). Throws
     * not-found when the owner may not use it.
     */
    async versionPicture(owner: Owner, id: string): Promise<{ uploadId: string; data: Buffer; name: string }> {
      const upload = await findOwnedUpload(deps, owner, id).catch(() => null);
      const job = upload ? null : await findOwnedJob(deps, owner, id);
      if (job && job.status !== "succeeded") throw notFound();
      const key = upload ? upload.original_key : (job!.upscaled_key ?? job!.result_key);
      const stored = key ? await deps.storage.get(UPLOAD_BUCKET, key) : null;
      if (!stored) throw notFound();
      return { uploadId: upload ? upload.id : job!.upload_id, data: stored.data, name: upload ? "photo" : (job!.style ?? job!.kind) };
    },
    /** Example pairs the app made itself (the published renders are the community module's: decision 102). */
    async gallery() {
      return { examples: await exampleGalleryPairs() };
    },

    // Live events.
    /**
     * The owner's events (of one job, or all), after lastEventId: stored ones, then live ones.
     * The job's owner is checked before the stream starts.
     */
    async events(
      owner: Owner,
      filter: { jobId?: string; lastEventId?: number },
      signal?: AbortSignal,
    ): Promise<AsyncGenerator<StoredRenderEvent>> {
      // One job's events come on its own key (a team's render on the team's), else the space's.
      const key = filter.jobId ? rowKey(await findOwnedJob(deps, owner, filter.jobId)) : ownerKey(owner);
      return deps.events.stream(
        deps.db,
        { owner: key, viewer: owner.userId, jobId: filter.jobId, lastEventId: filter.lastEventId },
        signal,
        {
          perOwner: deps.env.EVENT_STREAMS_PER_OWNER,
          total: deps.env.EVENT_STREAMS_TOTAL,
        },
      );
    },
    /**
     * Every owner's stored events after `afterId` (at most `limit` rows): all their ids, and the events of
     * the given types. The webhooks' fan-out reads them with a cursor of its own (decision 095).
     */
    eventsAfter: (afterId: number, limit: number, types: readonly RenderEvent["type"][]) =>
      eventsAfterForAll(deps.db, afterId, limit, types),
    /** Sees every event as it is published (the benchmark's probe); returns the way to stop. */
    observeEvents: (observer: (events: readonly StoredRenderEvent[]) => void) => deps.events.observe(observer),
    /** Sees the events this process writes (the metrics: every event counted once across instances). */
    observeWrittenEvents: (observer: (events: readonly StoredRenderEvent[]) => void) => deps.events.observeWritten(observer),
    /** Open event streams, all owners together (the benchmark watches it). */
    get eventListenerCount(): number {
      return deps.events.openStreams;
    },
    /** Ends the streams a user holds on a team's events (they were removed from it or left: decision 070). */
    dismissFromTeam: (teamId: string, userId: string) => deps.events.dismiss(`t:${teamId}`, userId),
    /** Ends every open event stream (first step of a graceful shutdown). */
    closeEventStreams: () => deps.events.close(),
    /**
     * render.events for browsers: one encoding per event for all the owner's streams
     * (live/event-fan-out.ts). Mounted before /trpc, whose adapter would otherwise answer it.
     */
    eventRoutes(ownerOfRequest: OwnerOfRequest): Router {
      const routes = Router();
      routes.get(EVENTS_PATH, fanOut.handler(ownerOfRequest));
      return routes;
    },

    /** The pictures' routes; `ownerOfRequest` says who is asking (resolved at the edge). */
    routes: (ownerOfRequest: OwnerOfRequest): Router => renderRoutes(deps, ownerOfRequest, replicateWaiters),
    /**
     * The render module's housekeeping pass (the housekeeping module runs it on its schedule): what
     * it removed, by kind. `clock` lets a test run it as if days had passed.
     */
    runHousekeeping: (clock: Clock = deps.clock) => runHousekeeping({ ...deps, clock }),
  };
}

export type RenderModule = ReturnType<typeof createRenderModule>;

/** Who this process is, new at each start: host, process id and a random part (two starts never share one). */
function newInstanceId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}
