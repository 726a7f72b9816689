/**
 * Housekeeping (issue 16): one pass at start and every six hours, or when an admin asks, over the
 * steps each owner provides (expired sessions and mail links, old analytics, visitors' unclaimed
 * pictures, old render events and upload budgets, files nothing refers to). Each pass is a row of
 * `housekeeping_runs` (this module's table) with what each step removed, which /admin shows.
 * Instances sharing one database claim each scheduled pass first (decision 078): one of them runs it.
 */
import { generateSecureRandomString } from "../auth/tokens";
import { createRunClaims, type ScheduledRun } from "../coordination";
import { DomainError } from "../errors";
import type { HousekeepingRunsTable } from "../db/schema";
import type { Infra } from "../infra";

const EVERY_MS = 6 * 3_600_000;
/** The scheduled pass, claimed by one instance; a claim left by a dead instance lapses after the lease. */
export const HOUSEKEEPING_SCHEDULE: ScheduledRun = { name: "housekeeping", everyMs: EVERY_MS, leaseMs: 10 * 60_000 };
/**
 * Held while a pass runs, whoever asked for it (the schedule or an admin's "Run now"): one pass at a
 * time across instances (decision 085). A dead instance's hold lapses after the schedule's lease.
 */
const PASS_UNDER_WAY = "housekeeping:running";
/** How often each instance looks whether the pass is due (so another takes over a dead one's soon). */
const CHECK_EVERY_MS = 5 * 60_000;

/** One owner's part: removes what is due and says how many of each kind went. */
export interface HousekeepingStep {
  name: string;
  run(): Promise<Record<string, number>>;
}

export interface HousekeepingRun {
  id: string;
  trigger: HousekeepingRunsTable["trigger"];
  startedAt: number;
  finishedAt: number | null;
  /** What went, by kind (e.g. expiredSessions: 3, orphanBytes: 12000). */
  removed: Record<string, number>;
  /** Steps that failed, with why (the other steps still ran). */
  errors: Record<string, string>;
}

export function createHousekeeping(deps: Pick<Infra, "db" | "clock" | "log">, steps: readonly HousekeepingStep[]) {
  const { db, clock, log } = deps;
  let running: Promise<HousekeepingRun> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const claims = createRunClaims(deps);

  async function pass(trigger: HousekeepingRun["trigger"]): Promise<HousekeepingRun> {
    const id = generateSecureRandomString();
    const startedAt = clock.now();
    await db.insertInto("housekeeping_runs").values({ id, trigger, started_at: startedAt, removed: "{}", errors: "{}" }).execute();
    const removed: Record<string, number> = {};
    const errors: Record<string, string> = {};
    for (const step of steps) {
      try {
        for (const [kind, count] of Object.entries(await step.run())) removed[kind] = (removed[kind] ?? 0) + count;
      } catch (error) {
        errors[step.name] = error instanceof Error ? error.message : String(error);
        log.warn("housekeeping step failed", { step: step.name, error });
      }
    }
    const finishedAt = clock.now();
    await db
      .updateTable("housekeeping_runs")
      .set({ finished_at: finishedAt, removed: JSON.stringify(removed), errors: JSON.stringify(errors) })
      .where("id", "=", id)
      .execute();
    // Old runs are housekeeping too: the last 100 are plenty to look back on.
    await db
      .deleteFrom("housekeeping_runs")
      .where("id", "not in", db.selectFrom("housekeeping_runs").select("id").orderBy("started_at", "desc").limit(100))
      .execute();
    if (Object.values(removed).some((count) => count > 0)) log.info("housekeeping removed", removed);
    return { id, trigger, startedAt, finishedAt, removed, errors };
  }

  /** One pass, unless one runs here or on another instance (refused: housekeepingRunning). */
  function run(trigger: HousekeepingRun["trigger"]): Promise<HousekeepingRun> {
    if (running) throw new DomainError("conflict", "housekeepingRunning");
    const started = (async () => {
      const claimed = await claims.runExclusive(PASS_UNDER_WAY, HOUSEKEEPING_SCHEDULE.leaseMs, () => pass(trigger));
      if (!claimed.ran) throw new DomainError("conflict", "housekeepingRunning");
      return claimed.value;
    })();
    running = started;
    void started.then(
      () => (running = null),
      (error: unknown) => {
        running = null;
        if (!isRunningElsewhere(error)) log.warn("housekeeping failed", { error });
      },
    );
    return started;
  }

  /** The schedule's step: a pass when it is due and this instance wins it; null when not due, or another instance has it. */
  async function runScheduled(): Promise<HousekeepingRun | null> {
    if (running) return null;
    try {
      const claimed = await claims.runOnce(HOUSEKEEPING_SCHEDULE, () => run("schedule"));
      return claimed.ran ? claimed.value : null;
    } catch (error) {
      // An admin's pass under way elsewhere: the schedule's claim was released, its next look runs it.
      if (isRunningElsewhere(error)) return null;
      throw error;
    }
  }

  return {
    /** One pass now (an admin's "Run now"; tests). Refused while one runs. */
    runNow: (trigger: HousekeepingRun["trigger"] = "admin") => run(trigger),

    runScheduled,

    /** The latest pass, finished or not. */
    async last(): Promise<HousekeepingRun | null> {
      const row = await db.selectFrom("housekeeping_runs").selectAll().orderBy("started_at", "desc").limit(1).executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        trigger: row.trigger,
        startedAt: row.started_at,
        finishedAt: row.finished_at,
        removed: JSON.parse(row.removed) as Record<string, number>,
        errors: JSON.parse(row.errors) as Record<string, string>,
      };
    },

    /** Whether a pass runs now, here or on another instance. */
    async isRunning(): Promise<boolean> {
      return running !== null || (await claims.isHeld(PASS_UNDER_WAY));
    },

    /** A pass at start and every six hours, by whichever instance claims it first. */
    start(): void {
      if (timer) return;
      const scheduled = () => void runScheduled().catch((error: unknown) => log.warn("scheduled housekeeping failed", { error }));
      scheduled();
      timer = setInterval(scheduled, CHECK_EVERY_MS);
      timer.unref();
    },

    /** Stops the schedule and waits for a pass under way. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

export type Housekeeping = ReturnType<typeof createHousekeeping>;

const isRunningElsewhere = (error: unknown) => error instanceof DomainError && error.messageName === "housekeepingRunning";
