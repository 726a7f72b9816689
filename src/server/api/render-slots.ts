/**
 * Renders running at once per API key (issue 31, decision 096). Each render or edit a key orders
 * takes a slot (api_render_slots) before it is made, in a transaction that counts the key's open
 * slots: so two orders on two instances cannot both pass the limit. A slot ends once its render has
 * ended (the render module says so when asked); one taken by a request that failed before making
 * anything is given back at once, or counts no more after PENDING_MS (an instance that died).
 * An order is refused with 429 and Retry-After when it would pass the limit while renders of the key
 * run; with none running it is taken whatever its size (a large batch is not refused forever).
 */
import type { Response } from "express";
import { isFinalStatus } from "../../shared/render";
import { generateSecureRandomString } from "../auth/tokens";
import { lockRows } from "../db/locking";
import { DomainError } from "../errors";
import type { ApiContext } from "./context";
import type { ApiCaller } from "./keys";
import { rendersOrdered } from "./usage";

/** A slot still without its render this long after it was taken was left by a request that never finished. */
const PENDING_MS = 2 * 60_000;
/** What a refused order is told to wait: renders take seconds to minutes; asking again soon is cheap. */
export const RENDERS_AT_ONCE_RETRY_AFTER_SECONDS = 5;
/** Ended slots are kept a day (housekeeping removes them). */
const KEEP_ENDED_MS = 24 * 60 * 60_000;

/** Ends the key's slots whose renders have ended (or are gone), asking the render module. */
async function endFinished(deps: ApiContext, caller: ApiCaller): Promise<void> {
  const now = deps.clock.now();
  const open = await deps.db
    .selectFrom("api_render_slots")
    .select(["id", "job_id", "created_at"])
    .where("api_key_id", "=", caller.keyId)
    .where("ended_at", "is", null)
    .execute();
  const ended: string[] = [];
  for (const slot of open) {
    if (slot.job_id === null) {
      if (slot.created_at <= now - PENDING_MS) ended.push(slot.id);
      continue;
    }
    const status = await deps.render.job(caller.owner, slot.job_id).then(
      (view) => view.status,
      () => null,
    );
    if (status === null || isFinalStatus(status)) ended.push(slot.id);
  }
  if (ended.length > 0) await deps.db.updateTable("api_render_slots").set({ ended_at: now }).where("id", "in", ended).execute();
}

/**
 * Makes `count` renders through `make` if the key may run them now; else 429 (Retry-After set on
 * `res`), nothing made or charged. `jobIdsOf` names the renders made, each keeping its slot.
 */
export async function withRenderSlots<T>(
  deps: ApiContext,
  caller: ApiCaller,
  res: Response,
  count: number,
  make: () => Promise<T>,
  jobIdsOf: (made: T) => readonly string[],
): Promise<T> {
  await endFinished(deps, caller);
  const now = deps.clock.now();
  const ids = Array.from({ length: Math.max(1, count) }, () => generateSecureRandomString());
  const taken = await deps.db.transaction().execute(async (trx) => {
    // One order of this key at a time decides (PostgreSQL: the key's row locked; SQLite: the writer lock).
    await lockRows(trx, trx.selectFrom("api_keys").select("id").where("id", "=", caller.keyId));
    const { running } = await trx
      .selectFrom("api_render_slots")
      .select((eb) => eb.fn.countAll<number>().as("running"))
      .where("api_key_id", "=", caller.keyId)
      .where("ended_at", "is", null)
      .where((eb) => eb.or([eb("job_id", "is not", null), eb("created_at", ">", now - PENDING_MS)]))
      .executeTakeFirstOrThrow();
    if (Number(running) > 0 && Number(running) + ids.length > deps.rendersAtOnce) return false;
    await trx
      .insertInto("api_render_slots")
      .values(ids.map((id) => ({ id, api_key_id: caller.keyId, job_id: null, created_at: now, ended_at: null })))
      .execute();
    return true;
  });
  if (!taken) {
    res.set("Retry-After", String(RENDERS_AT_ONCE_RETRY_AFTER_SECONDS));
    throw new DomainError("rate-limited", "apiRendersAtOnce", { params: { max: deps.rendersAtOnce } });
  }
  let made: T;
  try {
    made = await make();
  } catch (error) {
    await deps.db.deleteFrom("api_render_slots").where("id", "in", ids).execute();
    throw error;
  }
  const jobIds = jobIdsOf(made);
  // Usage by day counts what was ordered (decision 097).
  rendersOrdered(res, jobIds.length);
  for (const [index, id] of ids.entries()) {
    const jobId = jobIds[index];
    if (jobId === undefined) await deps.db.deleteFrom("api_render_slots").where("id", "=", id).execute();
    else await deps.db.updateTable("api_render_slots").set({ job_id: jobId }).where("id", "=", id).execute();
  }
  return made;
}

/** Removes slots ended more than a day ago (housekeeping); how many. */
export async function pruneRenderSlots(deps: ApiContext): Promise<number> {
  const removed = await deps.db
    .deleteFrom("api_render_slots")
    .where("ended_at", "<=", deps.clock.now() - KEEP_ENDED_MS)
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}
