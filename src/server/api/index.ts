/**
 * The public REST API (issue 31, decision 094): API keys (the table api_keys), /api/v1 with its
 * OpenAPI document. It reaches the other capabilities through ports (context.ts) and never queries
 * their tables; the rest of the server imports this file only.
 */
import type { CreateApiKeyInput } from "../../shared/api";
import type { Infra } from "../infra";
import { DomainError } from "../errors";
import type { ApiContext, ApiCounts, ApiCredits, ApiRender, ApiSpaces, ApiWebhooks } from "./context";
import { pruneIdempotency } from "./idempotency";
import { createApiKey, listApiKeys, revokeApiKey } from "./keys";
import { apiRoutes, publicRender } from "./routes";
import { userOwner } from "../render";

export type { ApiCaller } from "./keys";

export function createApiModule(
  infra: Pick<Infra, "db" | "clock" | "log" | "version" | "env">,
  ports: { spaces: ApiSpaces; credits: ApiCredits; render: ApiRender; counts: ApiCounts; webhooks: ApiWebhooks },
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
    /** Removes Idempotency-Key answers older than a day (housekeeping); how many. */
    pruneIdempotency: () => pruneIdempotency(deps),
    /**
     * A job as the API shows it, to the user in the space (the webhooks' payload, decision 095); null
     * when it is gone or no longer theirs to see.
     */
    describeRender: async (userId: string, teamId: string | null, jobId: string) => {
      try {
        const view = await deps.render.job(userOwner(userId, teamId), jobId);
        return { kind: view.kind === "edit" ? ("edit" as const) : ("render" as const), data: publicRender(view) };
      } catch (error) {
        if (error instanceof DomainError && (error.kind === "not-found" || error.kind === "forbidden")) return null;
        throw error;
      }
    },
    /** /api/v1 and its OpenAPI document. */
    routes: () => apiRoutes(deps, infra.version),
  };
}

export type ApiModule = ReturnType<typeof createApiModule>;
