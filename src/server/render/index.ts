/**
 * The render module: the whole life of a render behind one surface. Uploads are checked and
 * stored; ai-render makes jobs and charges them in one transaction; the in-process worker claims
 * them, runs the engine and stores the pictures; every change is an event, stored then streamed;
 * failures and cancels refund once; the pictures are served only to their owner. Nobody outside
 * holds the worker: it wakes on the module's own "job added" signal.
 *
 * Routers and HTTP routes call the functions of RenderModule only; the module owns the tables
 * uploads, render_jobs, render_events and visitor_demo_renders.
 */
import { Router } from "express";
import type { Language } from "../../shared/constants";
import { isFinalStatus, RENDER, type RenderRequestInput, type StructureStrength } from "../../shared/render";
import type { ServerCheckResult } from "../../shared/self-test-checks";
import type { Clock } from "../clock";
import type { EngineEnv } from "../env";
import type { Infra } from "../infra";
import { creditBalance, freeCreditsHeld } from "../services/credits";
import type { AccountDirectory, ProjectDirectory, RenderContext } from "./context";
import { storageQuota, storageUsed } from "./upload-budgets";
import { RenderEventBus, type StoredRenderEvent } from "./events";
import { EVENTS_PATH, EventFanOut } from "./event-fan-out";
import { exampleGalleryPairs } from "./examples";
import { checkRenderQueue } from "./health";
import { runHousekeeping } from "./housekeeping";
import {
  gallerySharedRenders,
  jobOwnerOf,
  listAllJobs,
  listOwnedJobs,
  moveToProject,
  ownedJobView,
  projectRenderSummaries,
  queueCounts,
  setSharing,
  sharedRender,
  userRenderCount,
  userRenderCounts,
  userRenderStatistics,
} from "./jobs";
import { ownerKey, rowOwner, type Owner } from "./owner";
import { createRenderProvider, engineInfo } from "./providers";
import type { RenderProvider } from "./providers/provider";
import { PredictionWaiters } from "./providers/replicate-webhook";
import {
  cancelJob,
  createRenderJobs,
  deleteJob,
  demoRefusal,
  findOwnedJob,
  keepsFreeCredits,
  recoverInterruptedJobs,
  rerenderJob,
  retryJob,
} from "./queue";
import { upscaleJob } from "./upscale";
import { deleteUserImages } from "./removal";
import { renderRoutes, type OwnerOfRequest } from "./routes";
import { RenderSignals } from "./signals";
import {
  landingFigures,
  performanceFigures,
  percentile,
  renderDurations,
  rendersPerDay,
  structureByEngine,
  userActivity,
} from "./statistics";
import { findOwnedUpload, saveUpload, type UploadChoices } from "./uploads";
import { uploadView, type JobView, type UploadView } from "./views";
import { listingSource } from "./listing-source";
import { adoptVisitorWork } from "./visitor-work";
import { RenderWorker, type RenderWorkerOptions } from "./worker";
import { DomainError, notFound } from "../errors";
import { createEditJob, relinkChildren, repeatEdit, unfinishedChildEdits, versionTree } from "./edits";
import type { EditRequestInput } from "../../shared/edits";

export type { Owner } from "./owner";
export { ownerOf, userOwner, visitorOwner } from "./owner";
export type { AccountDirectory, ProjectDirectory } from "./context";
export type { JobView, UploadView } from "./views";
export type { RenderProvider, RenderRequest, RenderResult } from "./providers/provider";
export type { RenderWorkerOptions } from "./worker";
export type { StoredRenderEvent } from "./events";
export type { AdminJobRow } from "./jobs";
export type { ListingSource } from "./listing-source";
export { percentile } from "./statistics";
export { renderPresetFor, REPLICATE_RENDER_MODELS } from "./providers/replicate-presets";

export interface RenderModuleOptions {
  /** Where uploads are filed and whose projects a render may name. */
  projects: ProjectDirectory;
  /** Whose e-mail address is confirmed (free credits on an engine that bills each render). */
  accounts: AccountDirectory;
  /** Replaces the engine RENDER_PROVIDER picks (tests, the benchmark). */
  provider?: RenderProvider;
  /** Free demo renders per address per day in force (the operator's settings; default DEMO_RENDERS_PER_IP_PER_DAY). */
  freeDemoRendersPerAddress?: () => number;
  /** Worker settings beyond RENDER_CONCURRENCY and RENDER_DEADLINE_MS (tests: short backoff). */
  worker?: Partial<RenderWorkerOptions>;
}

/** How long the landing page's figures are kept before they are read again. */
export const LANDING_CACHE_MS = 60_000;

export function createRenderModule(infra: Pick<Infra, "db" | "clock" | "env" | "storage" | "log">, options: RenderModuleOptions) {
  const replicateWaiters = new PredictionWaiters();
  /** Builds the engine a configuration describes; throws when it cannot be built (a model without a preset). */
  const buildEngine = (config: EngineEnv) => createRenderProvider({ ...infra.env, ...config }, replicateWaiters);
  // The engine in force; /admin → Studio may swap it while the server runs (useEngine). Jobs running keep theirs.
  let provider = options.provider ?? buildEngine(infra.env);
  let engine = engineInfo(provider);
  const deps: RenderContext = {
    db: infra.db,
    clock: infra.clock,
    env: infra.env,
    storage: infra.storage,
    log: infra.log,
    events: new RenderEventBus(),
    signals: new RenderSignals(),
    get providerId() {
      return provider.id;
    },
    get capabilities() {
      return provider.capabilities;
    },
    get billedPerRender() {
      return provider.billedPerRender === true;
    },
    projects: options.projects,
    accounts: options.accounts,
    freeDemoRendersPerAddress: options.freeDemoRendersPerAddress ?? (() => infra.env.DEMO_RENDERS_PER_IP_PER_DAY),
  };
  const worker = new RenderWorker(deps, () => provider, {
    concurrency: infra.env.RENDER_CONCURRENCY,
    deadlineMs: infra.env.RENDER_DEADLINE_MS,
    ...options.worker,
  });
  const fanOut = new EventFanOut(deps);
  let landingCache: { at: number; figures: ReturnType<typeof landingFigures> } | undefined;

  return {
    /** The engine this server renders with; only the outside engines are AI. */
    get engine() {
      return engine;
    },

    /**
     * Refuses a configuration no engine can be built from (a Replicate model without a preset),
     * before the settings that describe it are saved.
     */
    checkEngine(config: EngineEnv): void {
      try {
        buildEngine(config);
      } catch (error) {
        throw new DomainError("invalid", "engineModelUnknown", { cause: error });
      }
    },
    /** Swaps the engine for the jobs claimed from now on (settings saved in /admin → Studio); no restart. */
    useEngine(config: EngineEnv): void {
      provider = buildEngine(config);
      engine = engineInfo(provider);
      infra.log.info("render engine changed", { engine: provider.id });
    },

    /** Recovers what a crash left running, then starts taking jobs. */
    startWorker: () => worker.start(),
    /**
     * The render module's housekeeping pass (the housekeeping module runs it on its schedule): what
     * it removed, by kind. `clock` lets a test run it as if days had passed.
     */
    runHousekeeping: (clock: Clock = deps.clock) => runHousekeeping({ ...deps, clock }),
    /** What start-up does after a crash: jobs left running are queued again once, or failed and refunded. */
    recoverInterruptedJobs: () => recoverInterruptedJobs(deps, deps.clock.now()),
    /** Ends every open event stream (first step of a graceful shutdown). */
    closeEventStreams: () => deps.events.close(),
    /** Stops the worker; running jobs go back to the queue. */
    async stop(): Promise<void> {
      await worker.stop();
    },

    /**
     * What this visitor or user may render now, and with which engine. A visitor learns before
     * uploading whether the free demo is still theirs (this browser, and this address today).
     */
    async allowance(owner: Owner | null, ipAddress: string) {
      if (owner?.userId) {
        // Free credits an unconfirmed account keeps until its address is confirmed (engines that bill each render).
        const freeCreditsLocked = (await keepsFreeCredits(deps, owner.userId)) ? await freeCreditsHeld(deps.db, owner.userId) : 0;
        const credits = await creditBalance(deps.db, owner.userId);
        return { signedIn: true, credits, freeCreditsLocked, demoAvailable: false, demoRefusal: null, engine };
      }
      const refusal = await demoRefusal(deps, owner?.visitorId ?? null, ipAddress);
      return { signedIn: false, credits: null, freeCreditsLocked: 0, demoAvailable: refusal === null, demoRefusal: refusal, engine };
    },

    /** Checks and stores an uploaded file; refusals are DomainErrors (type, size, pixels, unreadable, empty). */
    async saveUpload(owner: Owner, bytes: Buffer, choices: UploadChoices, language: Language, address: string): Promise<UploadView> {
      return uploadView(await saveUpload(deps, owner, bytes, choices, language, address), RENDER.demoProjectId);
    },
    /** What the account's photos and renders take, and its quota (null: none). */
    async storageUse(userId: string): Promise<{ usedBytes: number; quotaBytes: number | null }> {
      return { usedBytes: await storageUsed(deps.db, userId), quotaBytes: storageQuota(deps.env) };
    },
    async upload(owner: Owner, uploadId: string): Promise<UploadView> {
      return uploadView(await findOwnedUpload(deps, owner, uploadId), RENDER.demoProjectId);
    },

    /** ai-render: one job per style, each charged (or the visitor's free demo), all in one transaction. */
    create: (owner: Owner, input: RenderRequestInput, ipAddress: string) => createRenderJobs(deps, owner, input, ipAddress),
    job: (owner: Owner, jobId: string): Promise<JobView> => ownedJobView(deps, owner, jobId, provider.label),
    list: (owner: Owner, filter: { projectId?: string; limit?: number }): Promise<JobView[]> =>
      listOwnedJobs(deps, owner, filter, provider.label),
    cancel: (owner: Owner, jobId: string) => cancelJob(deps, owner, jobId),
    /**
     * Deletes a render or an edit with its files. Edits made from it hang from its own parent
     * instead (they keep their pictures); unfinished ones cannot run without it and are canceled.
     */
    async delete(owner: Owner, jobId: string) {
      await findOwnedJob(deps.db, owner, jobId);
      for (const child of await unfinishedChildEdits(deps, jobId)) await cancelJob(deps, owner, child);
      await relinkChildren(deps, jobId);
      await deleteJob(deps, owner, jobId);
    },
    /** The modification studio: repaint a painted region of a version, one credit, through the queue. */
    edit: (owner: Owner, input: EditRequestInput) => createEditJob(deps, owner, input),
    /** Every version of the photo a picture (upload or job) belongs to, as a tree. */
    versions: (owner: Owner, pictureId: string) => versionTree(deps, owner, pictureId),
    setSharing: (owner: Owner, jobId: string, choice: { link?: boolean; gallery?: boolean }) => setSharing(deps, owner, jobId, choice),
    moveToProject: (userId: string, jobId: string, projectId: string) => moveToProject(deps, userId, jobId, projectId),
    /** A new render of a finished one: new seed (re-roll), same seed, or a stronger structure setting; charged like any render. */
    async rerender(owner: Owner, jobId: string, choice: { seed: "new" | "same"; structure?: StructureStrength }, ipAddress: string) {
      const job = await findOwnedJob(deps.db, owner, jobId);
      if (job.kind !== "edit") return rerenderJob(deps, owner, jobId, choice, ipAddress);
      // An edit again: the same version, mask and instruction.
      if (!isFinalStatus(job.status)) throw new DomainError("conflict", "renderNotFinished");
      if (choice.seed === "same" && job.seed === null) throw new DomainError("invalid", "engineCannot");
      return repeatEdit(deps, owner, job, choice.seed === "same" ? (job.seed ?? undefined) : undefined);
    },
    /** The optional AI upscale to the photo's size (engines with an upscaler), made once and kept. */
    upscale: (owner: Owner, jobId: string) => upscaleJob(deps, provider, owner, jobId),
    shared: (token: string) => sharedRender(deps, token),
    /** A finished render of the owner as the listing export needs it (files, engine, mode). */
    listingSource: (owner: Owner, jobId: string) => listingSource(deps, owner, jobId, provider.label),
    /** Renders users chose to show, and example pairs the app made itself. */
    async gallery() {
      return { examples: await exampleGalleryPairs(deps), shared: await gallerySharedRenders(deps) };
    },

    /**
     * The owner's events (of one job, or all), after lastEventId: stored ones, then live ones.
     * The job's owner is checked before the stream starts.
     */
    async events(
      owner: Owner,
      filter: { jobId?: string; lastEventId?: number },
      signal?: AbortSignal,
    ): Promise<AsyncGenerator<StoredRenderEvent>> {
      if (filter.jobId) await findOwnedJob(deps.db, owner, filter.jobId);
      return deps.events.stream(deps.db, { owner: ownerKey(owner), jobId: filter.jobId, lastEventId: filter.lastEventId }, signal, {
        perOwner: deps.env.EVENT_STREAMS_PER_OWNER,
        total: deps.env.EVENT_STREAMS_TOTAL,
      });
    },
    /** Sees every event as it is published (the benchmark's probe); returns the way to stop. */
    observeEvents: (observer: (events: readonly StoredRenderEvent[]) => void) => deps.events.observe(observer),
    /** Open event streams, all owners together (the benchmark watches it). */
    get eventListenerCount(): number {
      return deps.events.openStreams;
    },

    /**
     * render.events for browsers: one encoding per event for all the owner's streams
     * (event-fan-out.ts). Mounted before /trpc, whose adapter would otherwise answer it.
     */
    eventRoutes(ownerOfRequest: OwnerOfRequest): Router {
      const routes = Router();
      routes.get(EVENTS_PATH, fanOut.handler(ownerOfRequest));
      return routes;
    },
    /** The pictures' routes; `ownerOfRequest` says who is asking (resolved at the edge). */
    routes: (ownerOfRequest: OwnerOfRequest): Router => renderRoutes(deps, ownerOfRequest, replicateWaiters),

    /** A visitor's demo work becomes the user's when they sign in from the same browser. */
    adoptVisitorWork: (visitorId: string, userId: string, language: Language) => adoptVisitorWork(deps, visitorId, userId, language),
    /** Deletes the user's uploads and renders (of one project, or all), with their files. */
    deleteUserImages: (filter: { userId: string; projectId?: string }) => deleteUserImages(deps, filter),

    projectRenderSummaries: (projectIds: string[]) => projectRenderSummaries(deps, projectIds),
    userRenderStatistics: (userId: string) => userRenderStatistics(deps, userId),
    /** /enhanced-dashboard: the user's last 12 weeks (Monday to Sunday in `timeZone`, an IANA name), measured. */
    userActivity: (userId: string, timeZone: string) => userActivity(deps.db, userId, deps.clock.now(), timeZone),
    userRenderCount: (userId: string) => userRenderCount(deps, userId),
    userRenderCounts: (userIds: readonly string[]) => userRenderCounts(deps, userIds),

    // Administration.
    queueCounts: () => queueCounts(deps),
    /**
     * The engine's last known state, for /readyz: how its latest finished render ended (the
     * engine is not called for this; the self-test's render-provider check does that).
     */
    async engineState() {
      const last = await deps.db
        .selectFrom("render_jobs")
        .select(["status", "error", "engine_finished_at", "updated_at"])
        .where("provider", "=", engine.id)
        .where("status", "in", ["succeeded", "failed"])
        .orderBy("updated_at", "desc")
        .limit(1)
        .executeTakeFirst();
      return {
        id: engine.id,
        label: engine.label,
        lastRender: last ? { outcome: last.status as "succeeded" | "failed", at: last.updated_at, error: last.error } : null,
      };
    },
    /** Finished renders' engine, kind, input mode and credits, for the metrics (by id). */
    async jobFacts(jobIds: readonly string[]) {
      if (jobIds.length === 0) return [];
      return deps.db
        .selectFrom("render_jobs")
        .select(["id", "provider", "kind", "mode", "credits_charged"])
        .where("id", "in", [...jobIds])
        .execute();
    },
    listAllJobs: (filter: Parameters<typeof listAllJobs>[1]) => listAllJobs(deps, filter),
    /** Puts a failed or canceled render back in the queue, free of charge; false in any other state. */
    retry: (jobId: string) => retryJob(deps, jobId),
    /** Cancels anyone's render; returns its owner's user id (null for a visitor). */
    async cancelAny(jobId: string) {
      const job = await jobOwnerOf(deps, jobId);
      if (!job) throw notFound();
      return { status: await cancelJob(deps, rowOwner(job), jobId), userId: job.user_id };
    },
    /** The self-test's check that no render is stuck. */
    checkQueue: (): Promise<ServerCheckResult> => checkRenderQueue(deps, worker.activeJobs),

    // Measured figures.
    /** Renders made, and their average time over the last 30 days (the landing page). */
    /** The landing page's figures, computed at most once a minute (by the injected clock): every visit asks. */
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
  };
}

export type RenderModule = ReturnType<typeof createRenderModule>;
