/**
 * The public REST API (issue 31, decision 094): API keys (the table api_keys), /api/v1 with its
 * OpenAPI document. It reaches the other capabilities through ports (context.ts) and never queries
 * their tables; the rest of the server imports this file only.
 */
import type { CreateApiKeyInput } from "../../shared/api";
import type { Infra } from "../infra";
import type { ApiContext, ApiCounts, ApiCredits, ApiRender, ApiSpaces } from "./context";
import { pruneIdempotency } from "./idempotency";
import { createApiKey, listApiKeys, revokeApiKey } from "./keys";
import { apiRoutes } from "./routes";
import { pruneUsage, usageReport } from "./usage";

export type { ApiCaller } from "./keys";

export function createApiModule(
  infra: Pick<Infra, "db" | "clock" | "log" | "version" | "env">,
  ports: { spaces: ApiSpaces; credits: ApiCredits; render: ApiRender; counts: ApiCounts },
) {
  const deps: ApiContext = {
    db: infra.db,
    clock: infra.clock,
    log: infra.log,
    requestsPerMinute: infra.env.API_REQUESTS_PER_MINUTE,
    ...ports,
  };
  return {
    /** The space's keys (personal, or a team's for its Owner and Admins), newest first. */
    listKeys: (userId: string, teamId: string | null) => listApiKeys(deps, userId, teamId),
    /** A new key: the token with its secret is in this answer only. */
    createKey: (userId: string, input: CreateApiKeyInput) => createApiKey(deps, userId, input),
    revokeKey: (userId: string, keyId: string) => revokeApiKey(deps, userId, keyId),
    /** The space's requests per key and day over the last `days` days (a team's: Owner and Admin). */
    usage: (userId: string, teamId: string | null, days: number) => usageReport(deps, { userId, teamId }, days),
    /** Removes usage counts older than API_USAGE.keepDays (housekeeping); how many rows. */
    pruneUsage: () => pruneUsage(deps),
    /** Removes Idempotency-Key answers older than a day (housekeeping); how many. */
    pruneIdempotency: () => pruneIdempotency(deps),
    /** /api/v1 and its OpenAPI document. */
    routes: () => apiRoutes(deps, infra.version),
  };
}

export type ApiModule = ReturnType<typeof createApiModule>;
