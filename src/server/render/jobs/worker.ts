/**
 * The in-process render worker. It claims jobs atomically from the durable job table (at most
 * `concurrency` at once) and runs each: sharp preprocessing → render engine (transient failures
 * retried with backoff inside the deadline) → result and its variants stored → done. Every step
 * is a state change with its event; a failure or cancel refunds in the same transaction.
 * Each claim carries a lease (decision 077), renewed while the job runs; every write checks the
 * claim is still this worker's. On shutdown, running jobs go back to the queue; a worker that dies
 * loses its leases, and any worker puts its jobs back once they have run out.
 */
import { setTimeout as delay } from "node:timers/promises";
import { keyedMessage, MESSAGES, messageName } from "../../../shared/messages";
import { UPLOAD_BUCKET } from "../../../shared/constants";
import type { RenderJob } from "../../db/schema";
import type { StyleKey, StyleSnapshot } from "../../../shared/custom-styles";
import { compositeEdit } from "../../images/composite";
import {
  editSource,
  engineInput,
  EXTENSIONS,
  MIME_TYPES,
  photoSizeInput,
  providerInput,
  resultVariants,
  type Picture,
} from "../../images/variants";
import { setReference } from "./sets";
import { maskAtSize } from "../../images/mask";
import { editWork, type EditWork } from "./edits";
import {
  announceQueuePositions,
  claimNextJob,
  failJob,
  markCanceled,
  queuePosition,
  recordEngineWork,
  recordStructureScore,
  recoverExpiredLeases,
  renewLeases,
  transitionJob,
  type Claim,
  type TransitionGuard,
} from "./queue";
import type { RenderContext } from "../context";
import { forgetWorker, forgetWorkersSeenBefore, recordWorkerSeen } from "./workers";
import { resultLinks, styleReferenceKey } from "../links";
import {
  describeSkips,
  type EngineSet,
  NoEngineLeft,
  PermanentRenderError,
  RetryableRenderError,
  runWithFallback,
  structureScore,
  type EngineSkip,
  type EngineWork,
  type FallbackDeps,
  type RenderProvider,
  type RenderResult,
} from "../engines";
import { engineTaskOf } from "../../../shared/render";
import { withLogContext } from "../../logger";
import { isDiskFull } from "../../storage/disk-floor";

type WorkerDeps = Pick<RenderContext, "db" | "clock" | "log" | "storage" | "diskFloor" | "events" | "signals" | "credits">;

/** A worker of this process, as the queue check sees it. */
export interface LocalWorker {
  instanceId: string;
  slots: number;
  active: number;
}

export interface RenderWorkerOptions {
  concurrency: number;
  deadlineMs: number;
  /** Who claims: this process's instance id (new at each start), recorded on each job it claims. */
  instanceId: string;
  /** How long a claim holds unless renewed (RENDER_LEASE_MS). */
  leaseMs: number;
  /** How often the leases of running jobs are renewed (default a quarter of leaseMs). */
  renewEveryMs?: number;
  /** Backoff between attempts: base × 2^(attempt−1), at most max, at least what the engine asked (Retry-After). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /**
   * How often the queue is looked at when nothing wakes the worker (a safety net; a job added
   * through another instance is found this way), and expired leases are looked for.
   */
  idlePollMs?: number;
  /** How often the worker writes that it is alive (render_workers; default a quarter of leaseMs). */
  heartbeatEveryMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long an engine's health check may take before the engine counts as down (default 5000). */
  engineCheckTimeoutMs?: number;
  /** How long an engine found down is skipped without asking it again (default 30000). */
  engineRecheckMs?: number;
  /** The signal that ends an engine's share of the time when another follows it (default AbortSignal.timeout). */
  engineFinishWithin?: (ms: number) => AbortSignal;
}

class ShuttingDown extends Error {
  override name = "ShuttingDown";
}
class CanceledByUser extends Error {
  override name = "CanceledByUser";
}
/** The job is no longer this worker's (its lease ran out and another took it, or it was canceled elsewhere). */
class LeaseLost extends Error {
  override name = "LeaseLost";
}

const RUNNING = ["preprocessing", "rendering", "saving"] as const;
/** Progress is written (and sent) at most this often. */
const PROGRESS_INTERVAL_MS = 250;
const QUEUE_ANNOUNCE_INTERVAL_MS = 500;
/** How long the row of a worker that died stays in render_workers (removed by the next worker to start). */
const WORKER_ROWS_KEPT_MS = 86_400_000;

/**
 * A file of one claim of a job: the first claim's files keep their plain names; a later claim's get
 * their own, so a worker that lost a job never removes or overwrites the files of the one that took
 * it over (the row names the files of the claim that finished).
 */
function claimFile(job: Pick<RenderJob, "id" | "claims">, name: string): string {
  return job.claims <= 1 ? `renders/${job.id}/${name}` : `renders/${job.id}/c${job.claims}-${name}`;
}

export class RenderWorker {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void>; claim: Claim }>();
  private renewTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeats: Promise<void> = Promise.resolve();
  private startedAt = 0;
  private renewing: Promise<void> = Promise.resolve();
  private recovering: Promise<void> = Promise.resolve();
  private stopped = true;
  private pumping = false;
  private pumpAgain = false;
  /** The last claiming loop: stop() waits for it, so a claim in flight is not left running after the database closes. */
  private pumpDone: Promise<void> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private announceTimer: NodeJS.Timeout | undefined;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private stopListening: (() => void) | undefined;
  /** The structure checks waiting or running, one after another (see checkStructure). */
  private structureChecks: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: WorkerDeps,
    /** The engines in force: read once per job, which keeps those it started with when they are swapped. */
    private readonly currentEngines: () => EngineSet,
    /** Engine states and health checks, for the fallback between a task's engines (decision 088). */
    private readonly fallback: FallbackDeps,
    private readonly options: RenderWorkerOptions,
  ) {
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    // Cancel and delete ask through the module's signals; only a running worker can answer yes.
    deps.signals.handleAborts((jobId) => this.abort(jobId));
  }

  get activeJobs(): number {
    return this.running.size;
  }

  get instanceId(): string {
    return this.options.instanceId;
  }

  /** This worker as the queue check counts it (its slots and renders now); null when it is not running. */
  get state(): LocalWorker | null {
    return this.stopped ? null : { instanceId: this.options.instanceId, slots: this.options.concurrency, active: this.running.size };
  }

  /**
   * Puts back what dead workers left (jobs whose lease has run out: never one another live worker
   * holds), then starts taking jobs (and wakes whenever one is added), renewing its leases.
   */
  async start(): Promise<void> {
    await this.recoverExpired();
    this.stopped = false;
    // Seen alive from now on, by every instance's queue check (decision 085).
    this.startedAt = this.deps.clock.now();
    await this.heartbeat();
    // Rows of workers that died without removing theirs, a day on: nobody counts them after a lease anyway.
    await forgetWorkersSeenBefore(this.deps, this.startedAt - WORKER_ROWS_KEPT_MS).catch(() => 0);
    this.heartbeatTimer = setInterval(
      () => {
        this.heartbeats = this.heartbeats.then(() => this.heartbeat());
      },
      this.options.heartbeatEveryMs ?? Math.floor(this.options.leaseMs / 4),
    );
    this.heartbeatTimer.unref();
    this.stopListening = this.deps.signals.onJobAdded(() => this.wake());
    this.idleTimer = setInterval(() => {
      this.recovering = this.recovering.then(() => this.recoverExpired()).finally(() => this.wake());
    }, this.options.idlePollMs ?? 2000);
    this.idleTimer.unref();
    this.renewTimer = setInterval(
      () => {
        this.renewing = this.renewing.then(() => this.renew());
      },
      this.options.renewEveryMs ?? Math.floor(this.options.leaseMs / 4),
    );
    this.renewTimer.unref();
    this.wake();
  }

  /** Writes that this worker is alive, with its slots; a failure is logged and the next beat tries again. */
  private async heartbeat(): Promise<void> {
    if (this.stopped) return;
    const seen = { instanceId: this.options.instanceId, slots: this.options.concurrency, startedAt: this.startedAt };
    await recordWorkerSeen(this.deps, seen, this.deps.clock.now()).catch((error: unknown) =>
      this.deps.log.warn("could not record that the render worker is alive", { error }),
    );
  }

  /** Jobs whose worker's lease ran out go back to the queue (or fail, the second time). */
  private async recoverExpired(): Promise<void> {
    try {
      const { resumed } = await recoverExpiredLeases(this.deps, this.deps.clock.now());
      if (resumed > 0) this.deps.signals.jobAdded();
    } catch (error) {
      this.deps.log.warn("could not look for renders whose lease ran out", { error });
    }
  }

  /** Extends the leases of the running jobs; a job no longer this worker's is stopped, and nothing of it is written. */
  private async renew(): Promise<void> {
    const held = [...this.running.entries()].map(([jobId, { claim }]) => ({ jobId, claim }));
    if (held.length === 0) return;
    try {
      const lost = await renewLeases(this.deps, held, this.deps.clock.now(), this.options.leaseMs);
      for (const jobId of lost) this.running.get(jobId)?.controller.abort(new LeaseLost("The render is no longer this worker's"));
    } catch (error) {
      // The lease still holds until it runs out; the next renewal tries again.
      this.deps.log.warn("could not renew render leases", { error });
    }
  }

  /** Looks at the queue now. */
  private wake(): void {
    if (this.stopped) return;
    void this.pump().catch((error: unknown) => this.deps.log.error("render worker could not claim a job", { error }));
  }

  /** Stops the engine for a running job; false when this worker is not running it. */
  private abort(jobId: string): boolean {
    const entry = this.running.get(jobId);
    if (!entry) return false;
    entry.controller.abort(new CanceledByUser("Render canceled"));
    return true;
  }

  /** Takes no more jobs; running ones stop and go back to the queue for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    clearInterval(this.idleTimer);
    clearInterval(this.renewTimer);
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.announceTimer);
    this.announceTimer = undefined;
    // A claim already sent finishes first: the job it brings is then stopped and put back like the others.
    await this.pumpDone.catch(() => undefined);
    const running = [...this.running.values()];
    for (const { controller } of running) controller.abort(new ShuttingDown("Server shutting down"));
    await Promise.all(running.map(({ done }) => done));
    await this.renewing;
    await this.recovering;
    await this.structureChecks;
    await this.heartbeats;
    // Gone at once for the other instances' queue checks (a worker that dies is gone a lease later).
    if (this.heartbeatTimer) {
      this.heartbeatTimer = undefined;
      await forgetWorker(this.deps, this.options.instanceId).catch((error: unknown) =>
        this.deps.log.warn("could not record that the render worker stopped", { error }),
      );
    }
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.pumpDone = this.claimJobs();
    await this.pumpDone;
  }

  private async claimJobs(): Promise<void> {
    let claimed = false;
    try {
      do {
        this.pumpAgain = false;
        while (!this.stopped && this.running.size < this.options.concurrency) {
          const job = await claimNextJob(this.deps, this.deps.clock.now(), this.options.instanceId, this.options.leaseMs, [
            ...this.running.keys(),
          ]);
          if (!job) break;
          claimed = true;
          const controller = new AbortController();
          // Every line logged for this job carries it and the request that asked for it.
          const done = withLogContext({ jobId: job.id, requestId: job.request_id ?? undefined }, () => this.run(job, controller))
            // What could not even be recorded (the database gone): the lease runs out and the job is recovered.
            .catch((error: unknown) => this.deps.log.error("a render's end could not be recorded", { jobId: job.id, error }))
            .finally(() => {
              this.running.delete(job.id);
              this.wake();
            });
          this.running.set(job.id, { controller, done, claim: { by: job.claimed_by!, number: job.claims } });
        }
      } while (this.pumpAgain && !this.stopped);
    } finally {
      this.pumping = false;
    }
    if (claimed) this.scheduleQueueAnnouncement();
  }

  /**
   * Waiting jobs learn their new place at most twice a second: when jobs start in quick
   * succession, one announcement covers them all instead of one per claim.
   */
  private scheduleQueueAnnouncement(): void {
    if (this.announceTimer || this.stopped) return;
    this.announceTimer = setTimeout(() => {
      this.announceTimer = undefined;
      if (this.stopped) return;
      announceQueuePositions(this.deps, this.deps.clock.now()).catch((error: unknown) =>
        this.deps.log.warn("could not announce queue positions", { error }),
      );
    }, QUEUE_ANNOUNCE_INTERVAL_MS);
    this.announceTimer.unref();
  }

  private async run(job: RenderJob, controller: AbortController): Promise<void> {
    const { db, storage, clock, log } = this.deps;
    // Every change of this job checks, in its own statement, that this claim still holds it.
    const guard: TransitionGuard = { claim: { by: this.options.instanceId, number: job.claims } };
    const engines = this.currentEngines();
    // The task's engines in order (a plan only to those that make something of one).
    const task = engineTaskOf(job.kind, job.render_mode);
    const chain = engines
      .chain(task)
      .filter((engine) => job.kind === "edit" || job.mode !== "floor-plan" || engine.capabilities.floorPlan !== "none");
    // The engine at work now (the first of the task, until it is skipped), for the logs.
    let provider: RenderProvider = chain[0] ?? engines.primary;
    const startedAt = job.started_at ?? clock.now();
    const deadline = AbortSignal.timeout(this.options.deadlineMs);
    // When it comes, on the clock the fallback reads: an engine followed by another has half of what is left.
    const deadlineAt = clock.now() + this.options.deadlineMs;
    const signal = AbortSignal.any([controller.signal, deadline]);
    const stored: string[] = [];
    // What this job's files take on disk (the owner's storage quota counts it).
    let storedBytes = job.stored_bytes;
    const put = async (key: string, data: Buffer, mime: string) => {
      // Below the disk floor the job fails and is refunded (below), instead of filling the disk.
      await this.deps.diskFloor.ensureRoom();
      stored.push(key);
      storedBytes += data.length;
      await storage.put(UPLOAD_BUCKET, key, data, mime);
    };
    try {
      const upload = await db.selectFrom("uploads").selectAll().where("id", "=", job.upload_id).executeTakeFirst();
      // An edit repaints a version of the photo (its own picture, mask and instruction).
      const edit = job.kind === "edit" ? await editWork(this.deps, job) : null;
      if (job.kind === "edit" && !edit) throw new PermanentRenderError(MESSAGES.renderEditSourceGone);
      const sourceKey = edit?.sourceKey ?? upload?.original_key;
      // On disk, sharp reads the photo itself, off the main thread; other stores hand over bytes.
      const original =
        !upload || !sourceKey
          ? null
          : storage.localFile
            ? await storage.localFile(UPLOAD_BUCKET, sourceKey)
            : ((await storage.get(UPLOAD_BUCKET, sourceKey))?.data ?? null);
      if (!upload || !original) throw new PermanentRenderError(MESSAGES.renderUploadGone);
      // An edit's result is the version at its own size (up to 24 MP) with the painted region repainted:
      // engines repaint the studio's picture (the mask's size, lossless), the Preview engine the version itself.
      const fullBase = edit ? (await photoSizeInput(original)).data : null;
      // Queued before the operator changed the engines: none left that can do it, so the job fails
      // here and its credit goes back (decision 067 for plans).
      if (chain.length === 0) {
        throw new PermanentRenderError(!edit && job.mode === "floor-plan" ? MESSAGES.floorPlanUnsupported : MESSAGES.engineCannot);
      }
      /**
       * What an engine is given: at 1024 px on the long edge, or at the photo's own size for an
       * engine that works at it (the Preview engine); an edit, its version accordingly; with a set's
       * reference render, the look this picture follows, for an engine that takes one; else, for a
       * render in a custom style ordered with its reference picture, that picture (decision 103).
       */
      const inputOf = async (engine: RenderProvider) => {
        const editBase = !edit ? null : engine.capabilities.photoSize ? fullBase : await editSource(original, edit.width, edit.height);
        const input: Picture & { reference?: { jobId: string | null; picture: Buffer } } = await engineInput(
          editBase ?? original,
          engine.capabilities,
        );
        if (job.set_id && engine.capabilities.referencePicture) input.reference = await setReference(this.deps, job.set_id, job.id);
        if (!input.reference && engine.capabilities.referencePicture && styleSnapshotOf(job).styleSnapshot?.referenceUsed) {
          const picture = (await this.deps.storage.get(UPLOAD_BUCKET, styleReferenceKey(job.id)))?.data;
          if (picture) input.reference = { jobId: null, picture };
        }
        return { editBase, input };
      };
      const first = await inputOf(provider);
      let input = first.input;
      // The "before" of the side by side, at the size of the "after" beside it (1024 px).
      const before = provider.capabilities.photoSize ? await providerInput(first.editBase ?? original) : input;
      const inputKey = claimFile(job, "input.jpg");
      await put(inputKey, before.data, "image/jpeg");
      signal.throwIfAborted();
      /** A fallback engine that works at the other size, or takes a reference, is given the picture made again for it (the "before" stays). */
      const inputKind = (engine: RenderProvider) =>
        `${Boolean(engine.capabilities.photoSize)}:${Boolean(engine.capabilities.referencePicture)}`;
      let inputMadeFor = inputKind(provider);
      const inputFor = async (engine: RenderProvider) => {
        if (inputKind(engine) !== inputMadeFor) {
          input = (await inputOf(engine)).input;
          inputMadeFor = inputKind(engine);
        }
        return input;
      };

      const rendering = await transitionJob(
        this.deps,
        job.id,
        ["preprocessing"],
        "rendering",
        // The engine that really renders is recorded (it may have been swapped since the job was queued).
        { input_key: inputKey, attempts: 1, engine_started_at: clock.now(), provider: provider.id },
        () => ({
          type: "rendering",
          jobId: job.id,
          at: clock.now(),
          startedAt,
          percent: null,
          attempt: 1,
        }),
        clock.now(),
        guard,
      );
      if (!rendering) return this.discard(stored);

      let attempts = 1;
      const made = await runWithFallback(
        chain,
        task,
        this.fallback,
        signal,
        async (engine, fallback, engineSignal) => {
          if (engine !== provider) {
            // The next engine of the task takes over: recorded, and said as a new attempt.
            const now = clock.now();
            attempts++;
            const moved = await transitionJob(
              this.deps,
              job.id,
              ["rendering"],
              "rendering",
              { provider: engine.id, attempts, percent: null },
              () => ({ type: "rendering", jobId: job.id, at: now, startedAt, percent: null, attempt: attempts }),
              now,
              guard,
            );
            if (!moved) throw new LeaseLostHere();
            provider = engine;
            log.warn("render engine skipped for the next one", { engine: engine.id, task });
          }
          return this.renderWithRetries(
            engine,
            { ...rendering, attempts },
            await inputFor(engine),
            edit,
            startedAt,
            engineSignal,
            guard,
            !fallback,
          );
        },
        deadlineAt,
      );
      const engineResult = made.value;
      signal.throwIfAborted();
      // Only the painted region changes, whatever the engine returned outside it.
      const result =
        fullBase && edit ? { ...engineResult, image: await compositeEdit(fullBase, engineResult.image, edit.mask) } : engineResult;
      const engineFinishedAt = clock.now();

      const saving = await transitionJob(
        this.deps,
        job.id,
        ["rendering"],
        "saving",
        { percent: 100, engine_finished_at: engineFinishedAt },
        () => ({ type: "saving", jobId: job.id, at: clock.now(), startedAt }),
        clock.now(),
        guard,
      );
      if (!saving) return this.discard(stored);
      const variants = await resultVariants(result.image);
      const resultKey = claimFile(job, `full.${EXTENSIONS[variants.full.format]}`);
      const mediumKey = claimFile(job, "medium.jpg");
      const thumbKey = claimFile(job, "thumb.jpg");
      await put(resultKey, variants.full.data, MIME_TYPES[variants.full.format]);
      await put(mediumKey, variants.medium.data, "image/jpeg");
      await put(thumbKey, variants.thumb.data, "image/jpeg");

      const finishedAt = clock.now();
      const done = await transitionJob(
        this.deps,
        job.id,
        ["saving"],
        "succeeded",
        {
          result_key: resultKey,
          medium_key: mediumKey,
          thumb_key: thumbKey,
          result_width: variants.full.width,
          result_height: variants.full.height,
          model: result.model,
          model_version: result.modelVersion ?? null,
          seed: result.seed ?? null,
          prompt: result.prompt ?? null,
          // A set's reference render, or the custom style's reference picture, when the engine was given one, is part of what shaped this one.
          parameters:
            result.parameters || input.reference
              ? JSON.stringify({
                  ...result.parameters,
                  ...(input.reference
                    ? input.reference.jobId
                      ? { referenceRender: input.reference.jobId }
                      : { styleReference: true }
                    : {}),
                })
              : null,
          provider: made.engine.id,
          fallback_reason: fallbackReason(made.engine, made.skipped),
          stored_bytes: storedBytes,
          finished_at: finishedAt,
        },
        () => ({
          type: "succeeded",
          jobId: job.id,
          at: finishedAt,
          startedAt,
          elapsedMs: finishedAt - startedAt,
          result: resultLinks(job.id),
        }),
        finishedAt,
        guard,
      );
      // Deleted or canceled while saving, or taken over by another worker: what was written belongs to nobody.
      if (!done) return await this.discard(stored);
      log.info("render succeeded", { engine: provider.id, model: result.model, elapsedMs: finishedAt - startedAt });
      // The structure check (did walls and windows stay?) runs once the result is out and the job's
      // slot is free, so it adds nothing to the wait; its score follows as a "scored" event. Not for
      // a render of a plan: it compares a picture with the one it came from, and was calibrated on room
      // photos (decision 032); against a drawing its figure would mean nothing (decision 067). An
      // edit is compared with the version it edited, as for a photo.
      if (edit || done.mode !== "floor-plan") this.checkStructure(done, edit?.sourceThumbKey ?? upload.thumb_key, variants.thumb.data);
    } catch (error) {
      await this.discard(stored);
      const now = clock.now();
      if (controller.signal.reason instanceof LeaseLost || error instanceof LeaseLostHere) {
        // Another worker has it now (or it was canceled or deleted elsewhere): nothing of it is ours to write.
        log.warn("render stopped: the job is no longer this worker's", { engine: provider.id });
      } else if (controller.signal.reason instanceof ShuttingDown) {
        await transitionJob(
          this.deps,
          job.id,
          RUNNING,
          "queued",
          { percent: null, started_at: null, claimed_by: null, lease_until: null },
          async (row, trx) => ({
            type: "queued",
            jobId: job.id,
            at: now,
            position: await queuePosition(trx, row),
            resumed: true,
          }),
          now,
          guard,
        );
      } else if (controller.signal.aborted) {
        await markCanceled(this.deps, job.id, RUNNING, now, guard);
      } else if (deadline.aborted) {
        await failJob(this.deps, job.id, RUNNING, MESSAGES.renderTimedOut, now, guard);
      } else if (error instanceof NoEngineLeft) {
        log.warn("render failed: no engine of its task could make it", { reason: describeSkips(error.skipped) });
        await failJob(
          this.deps,
          job.id,
          RUNNING,
          keyedMessage("engineNoneAvailable", { detail: describeSkips(error.skipped) }),
          now,
          guard,
        );
      } else if (isDiskFull(error)) {
        log.warn("render failed: the disk is below DISK_FREE_FLOOR_MB", { engine: provider.id });
        await failJob(this.deps, job.id, RUNNING, MESSAGES.serverStorageFull, now, guard);
      } else {
        const shown = error instanceof PermanentRenderError ? failureMessage(error.message) : MESSAGES.renderFailed;
        if (error instanceof PermanentRenderError) log.info("render failed", { engine: provider.id, reason: error.message });
        else log.error("render failed", { engine: provider.id, error });
        await failJob(this.deps, job.id, RUNNING, shown, now, guard);
      }
    }
  }

  /**
   * Queues the structure check of a finished render. Checks run one at a time, outside the job's
   * slot (the next render starts at once). They compare the two thumbnails the pipeline made anyway
   * (the upload's, the result's; 320 px, larger than the check's working size), so the check decodes
   * two small JPEGs instead of two 1024-px pictures.
   */
  private checkStructure(job: RenderJob, inputThumbKey: string, resultThumb: Buffer): void {
    this.structureChecks = this.structureChecks.then(() => this.scoreStructure(job, inputThumbKey, resultThumb));
  }

  private async scoreStructure(job: RenderJob, inputThumbKey: string, resultThumb: Buffer): Promise<void> {
    try {
      const inputThumb = await this.deps.storage.get(UPLOAD_BUCKET, inputThumbKey);
      if (!inputThumb) throw new Error("The upload's thumbnail is no longer there");
      const { score } = await structureScore(inputThumb.data, resultThumb);
      await recordStructureScore(this.deps, job, score, this.deps.clock.now());
    } catch (error) {
      // A check that cannot run leaves the score empty; the render itself is done.
      this.deps.log.warn("structure check failed", { jobId: job.id, error });
    }
  }

  private async discard(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.deps.storage
        .remove(UPLOAD_BUCKET, key)
        .catch((error: unknown) => this.deps.log.warn("could not remove a stored file", { key, error }));
    }
    keys.length = 0;
  }

  /** An edit's engine call: the region painted in the mask (white = change) repainted as the instruction says. */
  private async inpaint(
    provider: RenderProvider,
    job: RenderJob,
    input: { data: Buffer; width: number; height: number },
    edit: EditWork,
    signal: AbortSignal,
    onProgress: (fraction: number) => void,
    guard: TransitionGuard,
  ): Promise<RenderResult> {
    if (!provider.inpaint) throw new PermanentRenderError(MESSAGES.engineCannot);
    return provider.inpaint({
      work: this.engineWork(provider, job, guard),
      image: input.data,
      // The same size as the picture: an engine working at the photo's size is given the mask at that size.
      mask: input.width === edit.width && input.height === edit.height ? edit.mask : await maskAtSize(edit.mask, input.width, input.height),
      prompt: edit.instruction,
      ...(edit.paint ? { paint: edit.paint } : {}),
      ...(job.requested_seed === null ? {} : { seed: job.requested_seed }),
      signal,
      onProgress,
    });
  }

  /**
   * The engine's own id of the job's work (engine_work_id, "<engine>:<id>"): work an earlier claim
   * started on this engine is followed (a takeover pays no second prediction); new work is recorded.
   */
  private engineWork(provider: RenderProvider, job: RenderJob, guard: TransitionGuard): EngineWork {
    const prefix = `${provider.id}:`;
    const recorded = job.engine_work_id?.startsWith(prefix) ? job.engine_work_id.slice(prefix.length) : undefined;
    return {
      ...(recorded ? { resume: recorded } : {}),
      onAccepted: async (workId) => {
        try {
          await recordEngineWork(this.deps.db, job.id, `${prefix}${workId}`, guard);
        } catch (error) {
          // Only a takeover would need it: the render goes on.
          this.deps.log.warn("could not record the engine's id of the work", { jobId: job.id, error });
        }
      },
    };
  }

  /** The engine call, retried on transient failures until the deadline (the signal) ends it. */
  private async renderWithRetries(
    provider: RenderProvider,
    job: RenderJob,
    input: { data: Buffer; width: number; height: number; reference?: { picture: Buffer } },
    edit: EditWork | null,
    startedAt: number,
    signal: AbortSignal,
    guard: TransitionGuard,
    /** Retry transient failures (a task with one engine); with several, the next engine is tried instead. */
    retry = true,
  ): Promise<RenderResult> {
    const { clock } = this.deps;
    let lastProgressAt = 0;
    let lastPercent = -1;
    let progressWrites = Promise.resolve();
    for (let attempt = job.attempts; ; attempt++) {
      const onProgress = (fraction: number) => {
        const percent = Math.max(0, Math.min(99, Math.round(fraction * 100)));
        const now = clock.now();
        if (percent === lastPercent || now - lastProgressAt < PROGRESS_INTERVAL_MS) return;
        lastPercent = percent;
        lastProgressAt = now;
        progressWrites = progressWrites
          .then(() =>
            transitionJob(
              this.deps,
              job.id,
              ["rendering"],
              "rendering",
              { percent },
              () => ({ type: "rendering", jobId: job.id, at: now, startedAt, percent, attempt }),
              now,
              guard,
            ),
          )
          .then(
            () => undefined,
            (error: unknown) => this.deps.log.warn("could not record render progress", { jobId: job.id, error }),
          );
      };
      try {
        // Queued on another engine before the operator switched: this one makes nothing of a plan,
        // so the job fails here and its credit goes back (decision 067).
        if (!edit && job.mode === "floor-plan" && provider.capabilities.floorPlan === "none") {
          throw new PermanentRenderError(MESSAGES.floorPlanUnsupported);
        }
        const result = edit
          ? await this.inpaint(provider, job, input, edit, signal, onProgress, guard)
          : await provider.render({
              image: input.data,
              width: input.width,
              height: input.height,
              style: renderStyle(job),
              ...styleSnapshotOf(job),
              roomType: job.room_type,
              mode: job.mode,
              renderMode: job.render_mode,
              prompt: job.note ?? undefined,
              ...(job.requested_seed === null ? {} : { seed: job.requested_seed }),
              structure: job.structure,
              ...(input.reference ? { reference: input.reference.picture } : {}),
              work: this.engineWork(provider, job, guard),
              signal,
              onProgress,
            });
        await progressWrites;
        return result;
      } catch (error) {
        await progressWrites;
        if (!retry || !(error instanceof RetryableRenderError) || signal.aborted) throw error;
        const asked = (error as RetryableRenderError & { retryAfterMs?: number }).retryAfterMs ?? 0;
        const backoff = Math.min(this.options.retryMaxMs ?? 20_000, (this.options.retryBaseMs ?? 1000) * 2 ** (attempt - 1));
        await this.sleep(Math.max(asked, backoff), signal);
        const now = clock.now();
        await transitionJob(
          this.deps,
          job.id,
          ["rendering"],
          "rendering",
          { attempts: attempt + 1, percent: null },
          () => ({
            type: "rendering",
            jobId: job.id,
            at: now,
            startedAt,
            percent: null,
            attempt: attempt + 1,
          }),
          now,
          guard,
        );
      }
    }
  }
}

/** The job moved on without this worker (its claim no longer holds) while it changed engines. */
class LeaseLostHere extends Error {
  override name = "LeaseLostHere";
}

/** Why another engine than the task's first made the picture (a keyed message), or null. */
function fallbackReason(made: RenderProvider, skipped: readonly EngineSkip[]): string | null {
  if (skipped.length === 0) return null;
  return keyedMessage("engineFallback", {
    engine: made.label,
    skipped: skipped.map((skip) => skip.engine.label).join(", "),
    detail: skipped.map((skip) => skip.detail).join("; "),
  });
}

/** A render's style (only edits made from the photo itself have none, and they are not rendered). */
/**
 * What a failed job stores and the owner reads (render_jobs.error): one of our messages as it is
 * (the client translates it by name), the engine's own words inside a sentence the client translates.
 */
export function failureMessage(reason: string): string {
  return messageName(reason) ? reason : keyedMessage("renderEngineStopped", { detail: reason });
}

function renderStyle(job: RenderJob): StyleKey {
  if (job.style === "") throw new PermanentRenderError(MESSAGES.renderFailed);
  return job.style;
}

/** A custom style's content as the job recorded it when ordered (decision 101). */
function styleSnapshotOf(job: RenderJob): { styleSnapshot?: StyleSnapshot } {
  return job.style_snapshot === null ? {} : { styleSnapshot: JSON.parse(job.style_snapshot) as StyleSnapshot };
}
