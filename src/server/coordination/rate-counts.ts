/**
 * Counts per key in the database, so that every instance sharing it counts together (decision 078):
 * the auth rate limits per address and the analytics events an address sends a day. A key's window
 * starts with its first count and lasts `windowMs`; the first count after it starts the next. Each
 * count is one statement (an insert that adds to the existing row and returns the total), atomic on
 * SQLite and on PostgreSQL, so two instances counting at once both count.
 */
import type { Transaction } from "kysely";
import type { AppDatabase } from "../db/client";
import type { Database } from "../db/schema";
import type { Clock } from "../clock";

export interface Counted {
  /** The key's count in its window, with this one. */
  count: number;
  /** When the window ends (its count only grows until then). */
  windowEndsAt: number;
}

/** What a limit counts for an address: "signIn 203.0.113.7". */
export const rateCountKey = (what: string, address: string) => `${what} ${address}`;

export function createRateCounts(deps: { db: AppDatabase; clock: Clock }) {
  const { db, clock } = deps;
  return {
    /**
     * Adds `amount` to the key's count in its current window. `into`: a transaction the count belongs
     * to (on SQLite a commit is a disk sync, so a count made with the write it guards costs none more).
     */
    async add(key: string, windowMs: number, amount = 1, into: AppDatabase | Transaction<Database> = db): Promise<Counted> {
      const now = clock.now();
      const row = await into
        .insertInto("rate_counts")
        .values({ key, count: amount, window_ends_at: now + windowMs })
        .onConflict((conflict) =>
          conflict.column("key").doUpdateSet((eb) => {
            const open = eb("rate_counts.window_ends_at", ">", now);
            return {
              count: eb
                .case()
                .when(open)
                .then(eb("rate_counts.count", "+", eb.ref("excluded.count")))
                .else(eb.ref("excluded.count"))
                .end(),
              window_ends_at: eb.case().when(open).then(eb.ref("rate_counts.window_ends_at")).else(eb.ref("excluded.window_ends_at")).end(),
            };
          }),
        )
        .returning(["count", "window_ends_at"])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), windowEndsAt: Number(row.window_ends_at) };
    },

    /** Removes counts whose window has ended (housekeeping); how many. */
    async prune(): Promise<number> {
      const result = await db.deleteFrom("rate_counts").where("window_ends_at", "<=", clock.now()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type RateCounts = ReturnType<typeof createRateCounts>;
