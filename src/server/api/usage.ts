/**
 * API usage by day (issue 31, decision 097): each key's requests per UTC day, the renders they
 * ordered and how many were refused (4xx) or failed on our side (5xx), in the table api_usage. The
 * edge counts every request of a known key once it is answered (one upsert, atomic on SQLite and on
 * PostgreSQL, so that instances count together); /developers and GET /api/v1/usage read it; the
 * housekeeping removes days older than API_USAGE.keepDays.
 */
import type { Response } from "express";
import { API_USAGE, utcDay, type UsageCounts, type UsageDay, type UsageReport } from "../../shared/api-usage";
import { API_KEYS } from "../../shared/api";
import { MINUTE_MS } from "../../shared/constants";
import type { ApiContext } from "./context";
import { inSpace } from "./keys";

const ORDERED = "apiRendersOrdered";
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Says that this request ordered `count` renders (the route that orders them calls it). */
export function rendersOrdered(res: Response, count: number): void {
  res.locals[ORDERED] = Number(res.locals[ORDERED] ?? 0) + count;
}

/** Counts the request once it is answered (or its caller has gone): one upsert. A failed count is logged, never the request's failure. */
export function trackUsage(deps: ApiContext, keyId: string, res: Response): void {
  res.once("close", () => {
    countRequest(deps, keyId, res.statusCode, Number(res.locals[ORDERED] ?? 0)).catch((error: unknown) =>
      deps.log.warn("API usage not counted", { error }),
    );
  });
}

export async function countRequest(deps: Pick<ApiContext, "db" | "clock">, keyId: string, status: number, renders: number): Promise<void> {
  await deps.db
    .insertInto("api_usage")
    .values({
      api_key_id: keyId,
      day: utcDay(deps.clock.now()),
      requests: 1,
      renders,
      client_errors: status >= 400 && status < 500 ? 1 : 0,
      server_errors: status >= 500 ? 1 : 0,
    })
    .onConflict((conflict) =>
      conflict.columns(["api_key_id", "day"]).doUpdateSet((eb) => ({
        requests: eb("api_usage.requests", "+", eb.ref("excluded.requests")),
        renders: eb("api_usage.renders", "+", eb.ref("excluded.renders")),
        client_errors: eb("api_usage.client_errors", "+", eb.ref("excluded.client_errors")),
        server_errors: eb("api_usage.server_errors", "+", eb.ref("excluded.server_errors")),
      })),
    )
    .execute();
}

const zero = (): UsageCounts => ({ requests: 0, renders: 0, clientErrors: 0, serverErrors: 0 });

function add(into: UsageCounts, counts: UsageCounts): void {
  into.requests += counts.requests;
  into.renders += counts.renders;
  into.clientErrors += counts.clientErrors;
  into.serverErrors += counts.serverErrors;
}

/** The space's usage over the last `days` UTC days (today included). A team's: Owner and Admin only, unless asked by its key. */
export async function usageReport(
  deps: ApiContext,
  space: { userId: string; teamId: string | null; byKey?: boolean },
  days: number,
): Promise<UsageReport> {
  if (space.teamId !== null && !space.byKey) await deps.spaces.requireRight(space.userId, space.teamId, "manageDevelopers");
  const now = deps.clock.now();
  const dayList = Array.from({ length: days }, (_, i) => utcDay(now - (days - 1 - i) * DAY_MS));
  const from = dayList[0]!;
  const keys = await deps.db
    .selectFrom("api_keys")
    .select(["id", "name", "prefix", "revoked_at", "created_at"])
    .where(inSpace(space.userId, space.teamId))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const rows =
    keys.length === 0
      ? []
      : await deps.db
          .selectFrom("api_usage")
          .selectAll()
          .where(
            "api_key_id",
            "in",
            keys.map((key) => key.id),
          )
          .where("day", ">=", from)
          .orderBy("day")
          .execute();
  const totals = new Map<string, UsageDay>(dayList.map((day) => [day, { day, ...zero() }]));
  const perKey = new Map<string, UsageDay[]>();
  for (const row of rows) {
    const counts = {
      requests: Number(row.requests),
      renders: Number(row.renders),
      clientErrors: Number(row.client_errors),
      serverErrors: Number(row.server_errors),
    };
    const total = totals.get(row.day);
    if (!total) continue;
    add(total, counts);
    perKey.set(row.api_key_id, [...(perKey.get(row.api_key_id) ?? []), { day: row.day, ...counts }]);
  }
  return {
    from,
    to: dayList.at(-1)!,
    days: [...totals.values()],
    keys: keys
      .filter((key) => perKey.has(key.id))
      .map((key) => {
        const keyDays = perKey.get(key.id)!;
        const total = zero();
        for (const day of keyDays) add(total, day);
        return {
          id: key.id,
          name: key.name,
          prefix: `${API_KEYS.tokenPrefix}${key.prefix}`,
          revoked: key.revoked_at !== null,
          total,
          days: keyDays,
        };
      }),
  };
}

/** Removes days older than API_USAGE.keepDays (housekeeping); how many rows. */
export async function pruneUsage(deps: Pick<ApiContext, "db" | "clock">): Promise<number> {
  const firstKept = utcDay(deps.clock.now() - (API_USAGE.keepDays - 1) * DAY_MS);
  const removed = await deps.db.deleteFrom("api_usage").where("day", "<", firstKept).executeTakeFirst();
  return Number(removed.numDeletedRows);
}
