/**
 * The render queue: creation with its charge in one transaction, and every later change of state
 * with its event (and, on failure or cancel, its refund) in one transaction. The module's public
 * functions and the worker both go through here, so a job is charged once and given back at most once.
 */
import { isCustomStyleKey, type CustomStyleId, type StyleKey, type StyleSnapshot } from "../../../shared/custom-styles";
import { sql, type RawBuilder, type Transaction, type UpdateQueryBuilder, type UpdateResult } from "kysely";
import { lockName } from "../../db/locking";
import { MESSAGES } from "../../../shared/messages";
import {
  isFinalStatus,
  RENDER,
  renderModesFor,
  type JobStatus,
  type QueuePlace,
  type RenderEvent,
  type RenderMode,
  type RenderRequestInput,
  type StructureStrength,
} from "../../../shared/render";
import type { RoomType } from "../../../shared/styles";
import { CREDITS, UPLOAD_BUCKET } from "../../../shared/constants";
import { generateSecureRandomString } from "../../auth/tokens";
import { dialectOf, type AppDatabase } from "../../db/client";
import type { Database, RenderJob, Upload } from "../../db/schema";
import { DomainError, notFound } from "../../errors";
import type { Payer, RenderContext } from "../context";
import { recordRenderEvent, type StoredRenderEvent } from "../live";
import { mayUse, ownerColumns, rowKey, type Owner } from "../owner";
import { deleteJobRows, findOwnedJob, removeJobFiles, RUNNING } from "../records";
import { ensureStorageLeft } from "../intake";
import { styleReferenceKey } from "../links";
import { currentRequestId } from "../../logger";

type Db = AppDatabase | Transaction<Database>;
type EventDeps = Pick<RenderContext, "db" | "events">;
/** What changes a job's state and may give its credit back. */
type RefundDeps = EventDeps & Pick<RenderContext, "credits">;

const DAY_MS = 86_400_000;
/** How many waiting jobs are told their new place when the queue moves. */
const POSITION_UPDATES = 20;

/** The id of one of our own upload links (/files/uploads/<id>/...); no outside URL is ever fetched. */
function imageIdFromUrl(url: string): string | null {
  return /^(?:https?:\/\/[^/]+)?\/files\/uploads\/([a-z2-7]{24})\/(?:original|thumb)$/.exec(url)?.[1] ?? null;
}

/**
 * Queue order is insertion order: queue_seq is given by the database at each insert (an identity on
 * PostgreSQL, a trigger on SQLite: migration 0025), so styles chosen together render in the order
 * they were chosen, even within one millisecond. A job put back in the queue keeps its number.
 */
const queueOrder = sql.ref<number>("render_jobs.queue_seq");

/**
 * A worker's hold on a running job (decision 077): which worker (its instance id) and which claim of
 * the job (`claims` after it). Every write of the worker checks both in its own statement, so a
 * worker whose lease ran out and whose job was taken over can no longer change it.
 */
export interface Claim {
  by: string;
  number: number;
}

/**
 * What must still hold for a transition to happen, besides the job's state: the worker's own claim,
 * or (putting back what a dead worker left) that claim `claims` has run out by `now`.
 */
export type TransitionGuard = { claim: Claim } | { expired: { claims: number; now: number } };

/** 1-based place in the queue (oldest first). */
export async function queuePosition(db: Db, job: Pick<RenderJob, "id">): Promise<number> {
  const row = await db
    .selectFrom("render_jobs")
    .select((eb) => eb.fn.countAll<number>().as("ahead"))
    .where("status", "=", "queued")
    .where(queueOrder, "<", db.selectFrom("render_jobs").select(queueOrder.as("seq")).where("id", "=", job.id))
    .executeTakeFirstOrThrow();
  return Number(row.ahead) + 1;
}

/**
 * A new version's number: one more than the highest its photo has (the photo itself is v1). One
 * statement computes and writes it, so two versions made at once never share a number (a unique
 * index holds the same line). Given once, never recomputed from the tree (decision 069).
 */
export function nextVersionNumber(uploadId: string | RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(SELECT coalesce(max(numbered.version_number), 1) + 1 FROM render_jobs AS numbered WHERE numbered.upload_id = ${uploadId})`;
}

/**
 * Called in the transaction that numbers a version of the photo `uploadId`, before it does. On
 * PostgreSQL two transactions numbering versions of one photo at once would read the same highest
 * number (each statement sees what was committed when it began) and one would fail on the unique
 * index: the photo's row is locked first, so they take turns, and the second reads the first's
 * number. On SQLite the single writer already serialises them.
 */
export async function lockVersionNumbering(trx: Transaction<Database>, uploadId: string | RawBuilder<string>): Promise<void> {
  if (dialectOf(trx) !== "postgres") return;
  await trx.selectFrom("uploads").select("id").where("id", "=", uploadId).forNoKeyUpdate().execute();
}

/** For an update of one job: its own number if it has one (an edit's, given when queued), else the next. */
const ownOrNextVersionNumber = sql<number>`coalesce(render_jobs.version_number, ${nextVersionNumber(sql.ref("render_jobs.upload_id"))})`;

/** Why a visitor may not have a free demo render now: used in this browser, or the address's daily limit reached. */
export type DemoRefusal = "used" | "address-limit";

/**
 * Whether this visitor's free demo render is still available: the same two rules ai-render applies
 * (one per visitor cookie, the operator's free demo renders per address per day), so the page can say
 * so before the visitor uploads anything.
 */
export async function demoRefusal(
  deps: Pick<RenderContext, "db" | "clock" | "freeDemoRendersPerAddress">,
  visitorId: string | null,
  ipAddress: string,
): Promise<DemoRefusal | null> {
  if (visitorId) {
    const used = await deps.db
      .selectFrom("visitor_demo_renders")
      .select("visitor_id")
      .where("visitor_id", "=", visitorId)
      .executeTakeFirst();
    if (used) return "used";
  }
  const fromAddress = await deps.db
    .selectFrom("visitor_demo_renders")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("ip_address", "=", ipAddress)
    .where("created_at", ">", deps.clock.now() - DAY_MS)
    .executeTakeFirstOrThrow();
  return Number(fromAddress.count) >= deps.freeDemoRendersPerAddress() ? "address-limit" : null;
}

/**
 * Who pays for a user's job in a project of `teamId` (null: personal): the team, with the member's
 * cap, when the user is still its member; a former member is refused like a stranger.
 */
export async function payerFor(deps: Pick<RenderContext, "teams">, userId: string, teamId: string | null): Promise<Payer> {
  if (teamId === null) return { userId, teamId: null };
  const membership = await deps.teams.membership(userId, teamId);
  if (!membership) throw notFound();
  return { userId, teamId, monthlyCap: membership.monthlyCap };
}

/** An unconfirmed account on an engine that bills each render keeps its free credits for later. */
export async function keepsFreeCredits(deps: Pick<RenderContext, "billedPerRender" | "accounts">, userId: string): Promise<boolean> {
  return deps.billedPerRender && !(await deps.accounts.emailConfirmed(userId));
}

/** One queued render of an upload, what it asks of the engine. */
export interface QueuedRender {
  upload: Pick<Upload, "id" | "mode">;
  projectId: string | null;
  style: StyleKey;
  /** A custom style's content as this render uses it (null: a built-in style). */
  styleSnapshot: StyleSnapshot | null;
  /** Its reference picture, kept with the render for its engine (only when styleSnapshot.referenceUsed). */
  styleReference: Buffer | null;
  roomType: RoomType;
  note: string | null;
  renderMode: RenderMode;
  structure: StructureStrength;
  seed: number | null;
  variation: { number: number; of: number } | null;
  /** The set of the project's photos it belongs to ("Apply to the whole project"). */
  setId: string | null;
  keepFreeCredits: boolean;
  ipAddress: string;
  now: number;
}

/**
 * Inserts one queued job with its charge (or the visitor's free demo) and its "queued" event, inside
 * the caller's transaction: every way of asking for renders queues them through here.
 */
export async function queueJob(
  trx: Transaction<Database>,
  deps: RenderContext,
  owner: Owner,
  payer: Payer | null,
  render: QueuedRender,
): Promise<{ id: string; event: StoredRenderEvent; files: string[] }> {
  const id = generateSecureRandomString();
  const job = await trx
    .insertInto("render_jobs")
    .values({
      id,
      ...ownerColumns(owner),
      team_id: payer?.teamId ?? null,
      project_id: render.projectId,
      upload_id: render.upload.id,
      style: render.style,
      style_snapshot: render.styleSnapshot === null ? null : JSON.stringify(render.styleSnapshot),
      room_type: render.roomType,
      mode: render.upload.mode,
      note: render.note,
      render_mode: render.renderMode,
      structure: render.structure,
      requested_seed: render.seed,
      variation: render.variation?.number ?? null,
      variation_count: render.variation?.of ?? null,
      set_id: render.setId,
      provider: deps.providerId,
      request_id: currentRequestId() ?? null,
      status: "queued",
      credits_charged: owner.userId !== null ? CREDITS.perRender : 0,
      created_at: render.now,
      updated_at: render.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (payer !== null) await deps.credits.chargeForJob(trx, payer, id, render.now, { keepFreeCredits: render.keepFreeCredits });
  else if (owner.visitorId !== null)
    await trx
      .insertInto("visitor_demo_renders")
      .values({ visitor_id: owner.visitorId, ip_address: render.ipAddress, job_id: id, created_at: render.now })
      .execute();
  const event = await recordRenderEvent(trx, rowKey({ ...ownerColumns(owner), team_id: payer?.teamId ?? null }), {
    type: "queued",
    jobId: id,
    at: render.now,
    position: await queuePosition(trx, job),
  });
  // Written last: a refusal above (too few credits) leaves no file; the caller removes the files of
  // the jobs before it when its transaction fails after them.
  const files: string[] = [];
  if (render.styleReference !== null) {
    await deps.storage.put(UPLOAD_BUCKET, styleReferenceKey(id), render.styleReference, "image/jpeg");
    files.push(styleReferenceKey(id));
  }
  return { id, event, files };
}

/**
 * A custom style as a render ordered now uses it: its snapshot, and its reference picture when it has
 * one and the engine in use takes one (the snapshot then says so: referenceUsed).
 */
export async function takeCustomStyle(
  deps: Pick<RenderContext, "styles" | "capabilities">,
  space: { userId: string; teamId: string | null },
  styleId: CustomStyleId,
  options: { reference: boolean } = { reference: true },
): Promise<{ snapshot: StyleSnapshot; reference: Buffer | null }> {
  const { snapshot, reference } = await deps.styles.take(space, styleId);
  const sent = options.reference && deps.capabilities.referencePicture === true ? reference : null;
  return { snapshot: { ...snapshot, referenceUsed: sent !== null }, reference: sent };
}

/** Removes files written for jobs whose transaction did not commit. */
export async function removeUnqueuedFiles(deps: Pick<RenderContext, "storage" | "log">, files: string[]): Promise<void> {
  for (const key of files) {
    await deps.storage
      .remove(UPLOAD_BUCKET, key)
      .catch((error: unknown) => deps.log.warn("could not remove a stored file", { key, error }));
  }
}

/** ai-render: one job per style, each charged one credit (or the visitor's one free demo), in one transaction. */
export async function createRenderJobs(
  deps: RenderContext,
  owner: Owner,
  input: RenderRequestInput,
  ipAddress: string,
): Promise<{ jobs: Array<{ id: string; style: StyleKey; variation: number }>; credits: number | null }> {
  const imageId = input.imageId ?? (input.imageUrl ? imageIdFromUrl(input.imageUrl) : null);
  const styles = input.style === undefined ? [] : [...new Set(Array.isArray(input.style) ? input.style : [input.style])];
  if (!input.projectId || !imageId || styles.length === 0) {
    if (input.imageUrl && !imageId && input.projectId && styles.length > 0) throw notFound();
    throw new DomainError("invalid", "missingRequiredFields");
  }
  const upload = await deps.db.selectFrom("uploads").selectAll().where("id", "=", imageId).executeTakeFirst();
  if (!upload || !(await mayUse(deps, owner, upload))) throw notFound();

  let projectId: string | null = null;
  // Who pays: the user, or the team whose project it is (with the member's cap there).
  let payer: Payer | null = null;
  if (owner.userId !== null) {
    const project = await deps.projects.projectAccess(owner.userId, input.projectId);
    if (!project) throw notFound();
    projectId = input.projectId;
    payer = await payerFor(deps, owner.userId, project.teamId);
  } else {
    if (input.projectId !== RENDER.demoProjectId) throw notFound();
    if (styles.length > 1) throw new DomainError("forbidden", "demoOneStyle");
    if ((input.variations ?? 1) > 1) throw new DomainError("forbidden", "demoOneVariation");
  }
  const renderMode = input.renderMode ?? "redesign";
  const structure = input.structure ?? "normal";
  // The interface offers only what the engine can do; the server holds the same line, before any charge.
  // A plan on an engine that makes nothing of one says so in its own words (decision 067).
  if (upload.mode === "floor-plan" && deps.capabilities.floorPlan === "none") throw new DomainError("invalid", "floorPlanUnsupported");
  // An exterior on engines that have none of its modes (the Preview engine) says so in its own words (issue 33).
  if (upload.room_type === "exterior" && renderModesFor(deps.capabilities, upload.mode, "exterior").length === 0)
    throw new DomainError("invalid", "exteriorNeedsAi");
  if (
    !renderModesFor(deps.capabilities, upload.mode, upload.room_type).includes(renderMode) ||
    (input.seed !== undefined && !deps.capabilities.seeds) ||
    (structure === "strong" && !deps.capabilities.structureStrength)
  ) {
    throw new DomainError("invalid", "engineCannot");
  }
  const variations = input.variations ?? 1;
  // Refused before the charge: a render (or re-render) writes its pictures.
  await deps.diskFloor.ensureRoom();
  if (owner.userId !== null) await ensureStorageLeft(deps, owner.userId);
  // Free credits are a person's: a team's balance has none to keep.
  const keepFreeCredits = payer !== null && payer.teamId === null && (await keepsFreeCredits(deps, payer.userId));

  const now = deps.clock.now();
  const note = input.note?.trim() || null;
  const events: StoredRenderEvent[] = [];
  const jobs: Array<{ id: string; style: StyleKey; variation: number }> = [];
  // Custom styles are taken as they are now (their snapshot stays with each render): a visitor has none.
  const customStyles = new Map<StyleKey, { snapshot: StyleSnapshot; reference: Buffer | null }>();
  for (const style of styles) {
    if (!isCustomStyleKey(style)) continue;
    if (owner.userId === null) throw new DomainError("not-found", "customStyleNotFound");
    customStyles.set(style, await takeCustomStyle(deps, { userId: owner.userId, teamId: payer?.teamId ?? null }, style));
  }
  let credits: number | null = null;
  const files: string[] = [];
  await deps.db
    .transaction()
    .execute(async (trx) => {
      // Checked inside the transaction that records the demo, so two requests cannot both take it; the
      // visitor's and the address's demos are counted one request at a time (on PostgreSQL under locks named after them).
      if (owner.visitorId !== null) {
        await lockName(trx, `demo-visitor:${owner.visitorId}`);
        await lockName(trx, `demo-address:${ipAddress}`);
      }
      if (owner.visitorId !== null && (await demoRefusal({ ...deps, db: trx }, owner.visitorId, ipAddress))) {
        throw new DomainError("forbidden", "demoUsed");
      }
      for (const [style, variation] of styles.flatMap((style) =>
        Array.from({ length: variations }, (_, index) => [style, index + 1] as const),
      )) {
        const {
          id,
          event,
          files: written,
        } = await queueJob(trx, deps, owner, payer, {
          upload,
          projectId,
          style,
          styleSnapshot: customStyles.get(style)?.snapshot ?? null,
          styleReference: customStyles.get(style)?.reference ?? null,
          roomType: upload.room_type,
          note,
          renderMode,
          structure,
          // Variations of one request with a chosen seed get neighbouring seeds, so each differs and each can be repeated.
          seed: input.seed === undefined ? null : (input.seed + variation - 1) % (RENDER.maxSeed + 1),
          // "Variation 2 of 4" on its card; a request for one picture has none.
          variation: variations > 1 ? { number: variation, of: variations } : null,
          setId: null,
          keepFreeCredits,
          ipAddress,
          now,
        });
        files.push(...written);
        events.push(event);
        jobs.push({ id, style, variation });
      }
      if (payer !== null) credits = await deps.credits.balance(trx, payer);
    })
    .catch(async (error: unknown) => {
      await removeUnqueuedFiles(deps, files);
      throw error;
    });
  deps.events.publish(events);
  deps.signals.jobAdded();
  return { jobs, credits };
}

/**
 * Moves a job from one of `from` to `to` with its event, atomically; null when the job was not in
 * one of those states (someone else moved it first), so each transition happens once.
 */
export async function transitionJob(
  deps: EventDeps,
  jobId: string,
  from: readonly JobStatus[],
  to: JobStatus,
  changes: Partial<
    Pick<
      RenderJob,
      | "percent"
      | "error"
      | "provider"
      | "fallback_reason"
      | "model"
      | "input_key"
      | "result_key"
      | "medium_key"
      | "thumb_key"
      | "result_width"
      | "result_height"
      | "started_at"
      | "finished_at"
      | "attempts"
      | "engine_started_at"
      | "engine_finished_at"
      | "seed"
      | "model_version"
      | "prompt"
      | "parameters"
      | "structure_score"
      | "stored_bytes"
      | "claimed_by"
      | "lease_until"
    >
  >,
  event: (job: RenderJob, trx: Transaction<Database>) => Promise<RenderEvent> | RenderEvent,
  now: number,
  guard?: TransitionGuard,
): Promise<RenderJob | null> {
  let stored: StoredRenderEvent | undefined;
  const job = await deps.db.transaction().execute(async (trx) => {
    if (to === "succeeded") {
      await lockVersionNumbering(trx, sql<string>`(SELECT numbered.upload_id FROM render_jobs AS numbered WHERE numbered.id = ${jobId})`);
    }
    const update = trx
      .updateTable("render_jobs")
      // A render becomes a version of its photo when it succeeds: it is numbered then, once.
      .set({ ...changes, status: to, updated_at: now, ...(to === "succeeded" ? { version_number: ownOrNextVersionNumber } : {}) })
      .where("id", "=", jobId)
      .where("status", "in", from);
    const updated = await held(update, guard).returningAll().executeTakeFirst();
    if (!updated) return null;
    stored = await recordRenderEvent(trx, rowKey(updated), await event(updated, trx));
    return updated;
  });
  if (stored) deps.events.publish([stored]);
  return job;
}

/** An update of a job limited to while the worker's guard holds: its claim, or a lease run out. */
function held(update: JobUpdate, guard?: TransitionGuard): JobUpdate {
  if (guard && "claim" in guard) return update.where("claimed_by", "=", guard.claim.by).where("claims", "=", guard.claim.number);
  if (guard && "expired" in guard) {
    const { claims, now: at } = guard.expired;
    return update.where("claims", "=", claims).where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", at)]));
  }
  return update;
}
type JobUpdate = UpdateQueryBuilder<Database, "render_jobs", "render_jobs", UpdateResult>;

/**
 * Records the engine's own id of a rendering job's work ("replicate:<prediction id>"), while the
 * worker's guard holds: a worker taking the job over follows that work instead of starting it again.
 */
export async function recordEngineWork(db: AppDatabase, jobId: string, workId: string, guard: TransitionGuard): Promise<void> {
  await held(
    db.updateTable("render_jobs").set({ engine_work_id: workId }).where("id", "=", jobId).where("status", "=", "rendering"),
    guard,
  ).execute();
}

/** Gives back what the job took: its credit, or the visitor's free demo. Inside the ending transaction. */
async function giveBack(
  credits: RenderContext["credits"],
  trx: Transaction<Database>,
  job: RenderJob,
  now: number,
  reason: string,
): Promise<boolean> {
  if (job.user_id !== null && job.credits_charged > 0)
    return credits.refundJob(trx, { userId: job.user_id, teamId: job.team_id }, job.id, now, reason);
  if (job.visitor_id !== null) {
    const released = await trx.deleteFrom("visitor_demo_renders").where("job_id", "=", job.id).executeTakeFirst();
    return Number(released.numDeletedRows) > 0;
  }
  return false;
}

/** Marks a job failed and refunds it, in one transaction, once (a worker's job: only while `guard` holds). */
export function failJob(
  deps: RefundDeps,
  jobId: string,
  from: readonly JobStatus[],
  message: string,
  now: number,
  guard?: TransitionGuard,
): Promise<RenderJob | null> {
  return transitionJob(
    deps,
    jobId,
    from,
    "failed",
    { error: message, finished_at: now, percent: null },
    async (job, trx) => ({
      type: "failed",
      jobId,
      at: now,
      message,
      refunded: await giveBack(deps.credits, trx, job, now, `render failed: ${message}`),
    }),
    now,
    guard,
  );
}

export function markCanceled(
  deps: RefundDeps,
  jobId: string,
  from: readonly JobStatus[],
  now: number,
  guard?: TransitionGuard,
): Promise<RenderJob | null> {
  return transitionJob(
    deps,
    jobId,
    from,
    "canceled",
    { finished_at: now, percent: null },
    async (job, trx) => ({
      type: "canceled",
      jobId,
      at: now,
      refunded: await giveBack(deps.credits, trx, job, now, "render canceled"),
    }),
    now,
    guard,
  );
}

/**
 * Cancel while queued or running. The cancel and its refund are stored first, in one transaction,
 * and only then is a running worker told to stop the engine: the answer is only what is stored, so
 * a crash right after it cannot resume (and charge) the job. The worker's own later writes all
 * expect a running job, so they change nothing once it is canceled.
 */
export async function cancelJob(deps: RenderContext, owner: Owner | "admin", jobId: string): Promise<JobStatus> {
  // The server's admin may cancel anyone's render (a team's too, whoever is still in the team).
  const job =
    owner === "admin"
      ? await deps.db.selectFrom("render_jobs").selectAll().where("id", "=", jobId).executeTakeFirst()
      : await findOwnedJob(deps, owner, jobId);
  if (!job) throw notFound();
  if (job.status === "queued" || RUNNING.includes(job.status)) {
    const canceled = await markCanceled(deps, jobId, ["queued", ...RUNNING], deps.clock.now());
    if (canceled) {
      deps.signals.abortRunning(jobId);
      if (job.status === "queued") await announceQueuePositions(deps, deps.clock.now());
      return "canceled";
    }
  }
  throw new DomainError("conflict", "renderNotCancelable");
}

/** Removes a job's row, events and pictures (canceling and refunding it first when it is not finished). */
export async function deleteJob(deps: RenderContext, owner: Owner, jobId: string): Promise<void> {
  const job = await findOwnedJob(deps, owner, jobId);
  if (job.status === "queued" || RUNNING.includes(job.status)) {
    // Stored first, then the worker told (as cancelJob).
    await markCanceled(deps, jobId, ["queued", ...RUNNING], deps.clock.now());
    deps.signals.abortRunning(jobId);
  }
  await deleteJobRows(deps.db, [jobId]);
  await removeJobFiles(deps, [job]);
}

/**
 * Tells the first waiting jobs their new place (after a job left the queue): one "positions" event
 * per owner with all of that owner's places, not one event per job (a queue of 20 made 20 events
 * on every move, half of all events). Read and written in one transaction, so no job claimed in
 * between is told it is still waiting.
 */
export async function announceQueuePositions(deps: EventDeps, now: number): Promise<void> {
  const events = await deps.db.transaction().execute(async (trx) => {
    const waiting = await trx
      .selectFrom("render_jobs")
      .select(["id", "user_id", "visitor_id", "team_id"])
      .where("status", "=", "queued")
      .orderBy(queueOrder)
      .limit(POSITION_UPDATES)
      .execute();
    const byOwner = new Map<string, QueuePlace[]>();
    for (const [index, job] of waiting.entries()) {
      const owner = rowKey(job);
      const places = byOwner.get(owner) ?? [];
      places.push({ jobId: job.id, position: index + 1 });
      byOwner.set(owner, places);
    }
    const stored: StoredRenderEvent[] = [];
    // In the owners' order: on PostgreSQL each event takes its owner's lock (decision 082), and two
    // announcements taking the same owners' locks in one order cannot deadlock.
    for (const [owner, positions] of [...byOwner].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      stored.push(await recordRenderEvent(trx, owner, { type: "positions", jobId: positions[0]!.jobId, at: now, positions }));
    }
    return stored;
  });
  if (events.length > 0) deps.events.publish(events);
}

/**
 * Oldest queued job, claimed atomically (the status moves in the same statement) by worker `by`, with
 * a lease until `now + leaseMs`. On PostgreSQL the oldest row is locked with SKIP LOCKED, so workers
 * claiming at once each take a different job instead of waiting on one and finding it gone; on
 * SQLite the single writer already serialises claims.
 */
export async function claimNextJob(
  deps: EventDeps,
  now: number,
  by: string,
  leaseMs: number,
  /** Jobs this worker is still winding down (a claim it lost): another worker takes them, not this one. */
  notThese: readonly string[] = [],
): Promise<RenderJob | null> {
  let stored: StoredRenderEvent | undefined;
  const job = await deps.db.transaction().execute(async (trx) => {
    let oldest = trx.selectFrom("render_jobs").select("id").where("status", "=", "queued").orderBy(queueOrder).limit(1);
    if (notThese.length > 0) oldest = oldest.where("id", "not in", notThese);
    const claimed = await trx
      .updateTable("render_jobs")
      .set({
        status: "preprocessing",
        started_at: now,
        updated_at: now,
        percent: null,
        claimed_by: by,
        lease_until: now + leaseMs,
        claims: sql<number>`claims + 1`,
      })
      .where("id", "=", dialectOf(trx) === "postgres" ? oldest.forUpdate().skipLocked() : oldest)
      .where("status", "=", "queued")
      .returningAll()
      .executeTakeFirst();
    if (!claimed) return null;
    stored = await recordRenderEvent(trx, rowKey(claimed), {
      type: "preprocessing",
      jobId: claimed.id,
      at: now,
      startedAt: now,
    });
    return claimed;
  });
  if (stored) deps.events.publish([stored]);
  return job ?? null;
}

/**
 * Extends a worker's lease on its running jobs to `now + leaseMs`; returns the ids it no longer
 * holds (taken over after its lease ran out, canceled or deleted elsewhere): their work must stop.
 */
export async function renewLeases(
  deps: Pick<RenderContext, "db">,
  held: ReadonlyArray<{ jobId: string; claim: Claim }>,
  now: number,
  leaseMs: number,
): Promise<string[]> {
  const lost: string[] = [];
  for (const { jobId, claim } of held) {
    const renewed = await deps.db
      .updateTable("render_jobs")
      .set({ lease_until: now + leaseMs })
      .where("id", "=", jobId)
      .where("status", "in", RUNNING)
      .where("claimed_by", "=", claim.by)
      .where("claims", "=", claim.number)
      .executeTakeFirst();
    if (Number(renewed.numUpdatedRows) === 0) lost.push(jobId);
  }
  return lost;
}

/**
 * Running jobs whose lease has run out (their worker died, hung or lost the database; or they were
 * left running before leases existed): put back in the queue once (their input is stored, so the
 * render simply runs again, still charged once); a job whose lease runs out a second time fails and
 * is refunded. Each change checks, in its own statement, that the same claim is still the expired
 * one, so a worker never takes a job whose lease another has just renewed, and two workers looking
 * at once put it back once. A job held under a valid lease is never touched: a worker that starts
 * or restarts leaves the others' work alone.
 */
export async function recoverExpiredLeases(
  deps: RefundDeps & Pick<RenderContext, "log">,
  now: number,
): Promise<{ resumed: number; failed: number }> {
  const expired = await deps.db
    .selectFrom("render_jobs")
    .select(["id", "recoveries", "claims", "claimed_by"])
    .where("status", "in", RUNNING)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<=", now)]))
    .execute();
  let resumed = 0;
  let failed = 0;
  for (const job of expired) {
    const guard: TransitionGuard = { expired: { claims: job.claims, now } };
    if (job.recoveries < 1) {
      const back = await transitionJob(
        deps,
        job.id,
        RUNNING,
        "queued",
        { percent: null, started_at: null, claimed_by: null, lease_until: null },
        async (row, trx) => {
          await trx
            .updateTable("render_jobs")
            .set({ recoveries: sql`recoveries + 1` })
            .where("id", "=", row.id)
            .execute();
          return { type: "queued", jobId: row.id, at: now, position: await queuePosition(trx, row), resumed: true };
        },
        now,
        guard,
      );
      if (back) resumed++;
    } else if (await failJob(deps, job.id, RUNNING, MESSAGES.renderInterrupted, now, guard)) {
      failed++;
    }
  }
  if (resumed + failed > 0) {
    const workers = [...new Set(expired.map((job) => job.claimed_by ?? "none"))];
    deps.log.warn("render jobs whose worker's lease ran out", { resumed, failed, workers });
  }
  return { resumed, failed };
}

/** Puts a failed or canceled render back in the queue, free of charge (its credit was refunded); false when it is in another state. */
export async function retryJob(deps: RenderContext, jobId: string): Promise<boolean> {
  await deps.diskFloor.ensureRoom();
  const now = deps.clock.now();
  const stored = await deps.db.transaction().execute(async (trx) => {
    const job = await trx
      .updateTable("render_jobs")
      .set({
        status: "queued",
        credits_charged: 0,
        error: null,
        percent: null,
        attempts: 0,
        recoveries: 0,
        started_at: null,
        claimed_by: null,
        lease_until: null,
        finished_at: null,
        updated_at: now,
      })
      .where("id", "=", jobId)
      .where("status", "in", ["failed", "canceled"])
      .returningAll()
      .executeTakeFirst();
    if (!job) return null;
    return recordRenderEvent(trx, rowKey(job), {
      type: "queued",
      jobId: job.id,
      at: now,
      position: await queuePosition(trx, job),
    });
  });
  if (!stored) return false;
  deps.events.publish([stored]);
  deps.signals.jobAdded();
  return true;
}

/**
 * Renders one of the owner's finished renders again, as a new job charged like any other: with a
 * new seed (re-roll), with the same seed (engines with seeds), or at a stronger structure setting
 * (after a low structure score, engines that have one). The photo, style, mode and note are kept.
 */
export async function rerenderJob(
  deps: RenderContext,
  owner: Owner,
  jobId: string,
  choice: { seed: "new" | "same"; structure?: StructureStrength },
  ipAddress: string,
) {
  const job = await findOwnedJob(deps, owner, jobId);
  if (!isFinalStatus(job.status)) throw new DomainError("conflict", "renderNotFinished");
  if (choice.seed === "same" && job.seed === null) throw new DomainError("invalid", "engineCannot");
  // Edits are repeated by the edits module (same version, mask and instruction).
  if (job.style === "") throw new DomainError("invalid", "engineCannot");
  return createRenderJobs(
    deps,
    owner,
    {
      projectId: job.project_id ?? RENDER.demoProjectId,
      imageId: job.upload_id,
      style: job.style,
      note: job.note ?? undefined,
      renderMode: job.render_mode,
      structure: choice.structure ?? job.structure,
      ...(choice.seed === "same" && job.seed !== null ? { seed: job.seed } : {}),
    },
    ipAddress,
  );
}

/** Records a finished render's structure score with its "scored" event (the render stays succeeded). */
export async function recordStructureScore(
  deps: EventDeps,
  job: Pick<RenderJob, "id" | "user_id" | "visitor_id" | "team_id">,
  score: number,
  now: number,
): Promise<void> {
  const stored = await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("render_jobs")
      .set({ structure_score: score })
      .where("id", "=", job.id)
      .where("status", "=", "succeeded")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return null;
    return recordRenderEvent(trx, rowKey(job), {
      type: "scored",
      jobId: job.id,
      at: now,
      structureScore: score,
      flagged: score < RENDER.structureWarningBelow,
    });
  });
  if (stored) deps.events.publish([stored]);
}
