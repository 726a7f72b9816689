/**
 * Scheduled runs claimed across instances (decision 078). Every instance keeps its own timers; before
 * a run, it claims the run's row of `scheduled_runs` with one statement that only one instance can
 * win (an insert that, on the existing row, updates it only when nobody holds it). The winner holds
 * the row for a lease while it runs, renewed while the run lasts, so a claim left by an instance that
 * died lapses; once the run ends, it holds the row until the run is next due, so the other instances'
 * timers skip this period. The same on SQLite and PostgreSQL: no advisory lock (PostgreSQL only, and
 * tied to one pooled connection).
 */
import os from "node:os";
import { randomBytes } from "node:crypto";
import type { AppDatabase } from "../db/client";
import type { Clock } from "../clock";
import type { Logger } from "../logger";

export interface ScheduledRun {
  /** The row's name: one per timer (e.g. "housekeeping"). */
  name: string;
  /** How often the run is due: after a run, every instance skips it until nearly this long after it started. */
  everyMs: number;
  /** How long a claim lasts without renewal: a dead instance's claim lapses after it. */
  leaseMs: number;
}

export type ClaimedRun<T> = { ran: true; value: T } | { ran: false };

/** Who holds a claim, for people reading the table: host and process. */
export const INSTANCE_NAME = `${os.hostname()}:${process.pid}`;

/**
 * A run started at most this much before it is due counts as due: timers drift and may fire a
 * moment early, and one instance's own next tick must not miss by a millisecond.
 */
const slackOf = (everyMs: number) => Math.min(60_000, Math.floor(everyMs / 20));

export function createRunClaims(deps: { db: AppDatabase; clock: Clock; log?: Pick<Logger, "warn"> }, holder = INSTANCE_NAME) {
  const { db, clock } = deps;

  /** Claims the run until `until` when nobody holds it; the claim's id, or null when another holds it. */
  async function claim(name: string, until: number): Promise<string | null> {
    const claimId = randomBytes(12).toString("hex");
    const now = clock.now();
    const won = await db
      .insertInto("scheduled_runs")
      .values({ name, claimed_by: holder, claim_id: claimId, claimed_at: now, held_until: until })
      .onConflict((conflict) =>
        conflict
          .column("name")
          .doUpdateSet((eb) => ({
            claimed_by: eb.ref("excluded.claimed_by"),
            claim_id: eb.ref("excluded.claim_id"),
            claimed_at: eb.ref("excluded.claimed_at"),
            held_until: eb.ref("excluded.held_until"),
          }))
          .where("scheduled_runs.held_until", "<=", now),
      )
      .returning("claim_id")
      .executeTakeFirst();
    return won?.claim_id === claimId ? claimId : null;
  }

  /** Moves the end of our claim (renewal, or the next due time); nothing when the claim is no longer ours. */
  async function holdUntil(name: string, claimId: string, until: number): Promise<void> {
    await db.updateTable("scheduled_runs").set({ held_until: until }).where("name", "=", name).where("claim_id", "=", claimId).execute();
  }

  return {
    holder,
    claim,
    holdUntil,

    /**
     * Runs `task` when this instance wins the run: held for `leaseMs` (renewed while it runs), then
     * until it is next due. A task that throws releases the run (the next tick anywhere may retry) and
     * throws on. `{ ran: false }` when another instance holds it (running, or ran this period).
     */
    async runOnce<T>(run: ScheduledRun, task: () => Promise<T>): Promise<ClaimedRun<T>> {
      const startedAt = clock.now();
      return holding(run.name, run.leaseMs, task, () => startedAt + run.everyMs - slackOf(run.everyMs));
    },

    /**
     * Runs `task` while holding the row `name` for `leaseMs` (renewed while it runs), and releases it
     * when the task ends: one at a time across instances, for a run an admin asks for (decision 085).
     * `{ ran: false }` when another instance holds it now.
     */
    async runExclusive<T>(name: string, leaseMs: number, task: () => Promise<T>): Promise<ClaimedRun<T>> {
      return holding(name, leaseMs, task, () => clock.now());
    },

    /** True while an instance holds the row `name` (a run under way, or a scheduled run done for this period). */
    async isHeld(name: string): Promise<boolean> {
      const row = await db.selectFrom("scheduled_runs").select("held_until").where("name", "=", name).executeTakeFirst();
      return row !== undefined && row.held_until > clock.now();
    },
  };

  /**
   * Claims `name` for a lease, renewed every third of it while `task` runs; then holds it until
   * `afterwards()` (released at once when the task throws, and the error thrown on).
   */
  async function holding<T>(name: string, leaseMs: number, task: () => Promise<T>, afterwards: () => number): Promise<ClaimedRun<T>> {
    const claimId = await claim(name, clock.now() + leaseMs);
    if (!claimId) return { ran: false };
    // Renewals one at a time, and none left in flight when the run ends (a late one would shorten the hold).
    let renewing = Promise.resolve();
    const renew = setInterval(
      () => {
        renewing = renewing
          .then(() => holdUntil(name, claimId, clock.now() + leaseMs))
          .catch((error: unknown) => deps.log?.warn("could not renew a scheduled run's claim", { run: name, error }));
      },
      Math.max(1_000, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let value: T;
    try {
      value = await task();
    } catch (error) {
      clearInterval(renew);
      await renewing;
      await holdUntil(name, claimId, clock.now()).catch(() => undefined);
      throw error;
    }
    clearInterval(renew);
    await renewing;
    await holdUntil(name, claimId, afterwards());
    return { ran: true, value };
  }
}

export type RunClaims = ReturnType<typeof createRunClaims>;
