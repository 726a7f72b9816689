/**
 * The public REST API (issue 31, decision 094): API keys (the table api_keys), /api/v1 with its
 * OpenAPI document. It reaches the other capabilities through ports (context.ts) and never queries
 * their tables; the rest of the server imports this file only.
 */
import type { CreateApiKeyInput } from "../../shared/api";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/constants";
import type { Infra } from "../infra";
import type { ApiContext, ApiCounts, ApiCredits, ApiListing, ApiProjects, ApiRender, ApiSpaces } from "./context";
import { pruneIdempotency } from "./idempotency";
import { pruneRenderSlots } from "./render-slots";
import { createApiKey, listApiKeys, revokeApiKey } from "./keys";
import { apiRoutes } from "./routes";

export type { ApiCaller } from "./keys";

export function createApiModule(
  infra: Pick<Infra, "db" | "clock" | "log" | "version" | "env">,
  ports: {
    spaces: ApiSpaces;
    credits: ApiCredits;
    render: ApiRender;
    counts: ApiCounts;
    projects: ApiProjects;
    listing: ApiListing;
    publicBase: ApiContext["publicBase"];
  },
) {
  const deps: ApiContext = {
    db: infra.db,
    clock: infra.clock,
    log: infra.log,
    requestsPerMinute: infra.env.API_REQUESTS_PER_MINUTE,
    rendersAtOnce: infra.env.API_RENDERS_AT_ONCE,
    ...ports,
  };
  return {
    /** The space's keys (personal, or a team's for its Owner and Admins), newest first. */
    listKeys: (userId: string, teamId: string | null) => listApiKeys(deps, userId, teamId),
    /** A new key: the token with its secret is in this answer only. It speaks its maker's language (decision 096). */
    createKey: (userId: string, input: CreateApiKeyInput, language: Language = DEFAULT_LANGUAGE) =>
      createApiKey(deps, userId, input, language),
    revokeKey: (userId: string, keyId: string) => revokeApiKey(deps, userId, keyId),
    /** Removes Idempotency-Key answers older than a day (housekeeping); how many. */
    pruneIdempotency: () => pruneIdempotency(deps),
    /** Removes the record of renders run at once that ended more than a day ago (housekeeping); how many. */
    pruneRenderSlots: () => pruneRenderSlots(deps),
    /** /api/v1 and its OpenAPI document. */
    routes: () => apiRoutes(deps, infra.version),
  };
}

export type ApiModule = ReturnType<typeof createApiModule>;
