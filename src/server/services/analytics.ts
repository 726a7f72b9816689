/**
 * Analytics (spec section 4): batches of the client's queued events, stored with the server's idea
 * of the user; and the admin's summary of what happened here (renders, sign-ups, conversion, events).
 * Owns analytics_events; sign-ups come from accounts, purchasers from payments (decision 054).
 */
import type { AnalyticsBatch } from "../../shared/analytics";
import type { Infra } from "../infra";
import { createRateCounts, rateCountKey } from "../coordination";
import type { RenderModule } from "../render";
import { countAccounts, signUpsPerDay } from "./accounts";
import { countPurchasers } from "./payments";

type Deps = Pick<Infra, "db" | "clock" | "env" | "log">;

const DAY_MS = 86_400_000;
/** Event times the client claims are kept within this of the server's clock. */
const CLOCK_SKEW_MS = 24 * 3_600_000;

export function createAnalyticsService(deps: Deps, render: RenderModule) {
  const { db, clock } = deps;
  /**
   * Events stored per client address a day, counted in the database so that every instance counts
   * together (decision 078), in the transaction that stores the batch: one commit, as before.
   */
  const counts = createRateCounts(deps);
  /** Addresses whose day is full, until when: refused from memory, with no write. */
  const fullUntil = new Map<string, number>();
  /** Events older than ANALYTICS_RETENTION_DAYS go. */
  /** Removes events older than ANALYTICS_RETENTION_DAYS; returns how many. */
  const prune = async (): Promise<number> => {
    const result = await db
      .deleteFrom("analytics_events")
      .where("received_at", "<", clock.now() - deps.env.ANALYTICS_RETENTION_DAYS * DAY_MS)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  return {
    /**
     * Stores a batch; the signed-in user as the server knows them (the client's own id is not
     * trusted). An address gets ANALYTICS_EVENTS_PER_ADDRESS_PER_DAY events a day; the rest of a
     * batch is dropped quietly (analytics never fails a page).
     */
    async track(batch: AnalyticsBatch, userId: string | null, clientAddress = "local"): Promise<{ accepted: number }> {
      const now = clock.now();
      const cap = deps.env.ANALYTICS_EVENTS_PER_ADDRESS_PER_DAY;
      if (batch.events.length === 0 || (fullUntil.get(clientAddress) ?? 0) > now) return { accepted: 0 };
      const accepted = await db.transaction().execute(async (trx) => {
        // The whole batch is counted; what the day's total leaves room for is kept.
        const { count, windowEndsAt } = await counts.add(rateCountKey("analyticsEvents", clientAddress), DAY_MS, batch.events.length, trx);
        if (count >= cap) {
          if (fullUntil.size > 50_000) for (const [address, until] of fullUntil) if (until <= now) fullUntil.delete(address);
          fullUntil.set(clientAddress, windowEndsAt);
        }
        const events = batch.events.slice(0, Math.max(0, cap - (count - batch.events.length)));
        if (events.length === 0) return 0;
        await trx
          .insertInto("analytics_events")
          .values(
            events.map((event) => ({
              category: event.category,
              action: event.action,
              label: event.label ?? null,
              value: event.value ?? null,
              metadata: event.metadata ? JSON.stringify(event.metadata) : null,
              user_id: userId,
              session_id: event.sessionId,
              occurred_at: Math.min(now, Math.max(now - CLOCK_SKEW_MS, event.timestamp)),
              received_at: now,
            })),
          )
          .execute();
        return events.length;
      });
      return { accepted };
    },

    /** Housekeeping's analytics step (the housekeeping module runs it on its schedule). */
    prune,

    async summary(days: number) {
      const since = clock.now() - days * DAY_MS;
      const signUps = await signUpsPerDay(db, since);
      const userCount = await countAccounts(db);
      const purchaserCount = await countPurchasers(db);
      const events = await db
        .selectFrom("analytics_events")
        .select((eb) => ["category", eb.fn.countAll<number>().as("count")])
        .where("occurred_at", ">=", since)
        .groupBy("category")
        .orderBy("count", "desc")
        .execute();
      return {
        days,
        rendersPerDay: await render.rendersPerDay(since),
        renderTimeByProvider: await render.renderTimeByProvider(since),
        structureByEngine: await render.structureByEngine(since),
        signUpsPerDay: signUps,
        conversion: { users: userCount, purchasers: purchaserCount, rate: userCount === 0 ? 0 : purchaserCount / userCount },
        eventsByCategory: events.map((row) => ({ category: row.category, count: Number(row.count) })),
      };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
