/**
 * The public REST API (issue 31, decision 094): API keys (the table api_keys), /api/v1 with its
 * OpenAPI document. It reaches the other capabilities through ports (context.ts) and never queries
 * their tables; the rest of the server imports this file only.
 */
import type { CreateApiKeyInput } from "../../shared/api";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/constants";
import type { Infra } from "../infra";
import { DomainError } from "../errors";
import type {
  ApiAccounts,
  ApiContext,
  ApiCounts,
  ApiCredits,
  ApiListing,
  ApiProjects,
  ApiRender,
  ApiSpaces,
  ApiStyles,
  ApiWebhooks,
} from "./context";
import { pruneIdempotency } from "./idempotency";
import { pruneRenderSlots } from "./render-slots";
import { createApiKey, listApiKeys, revokeApiKey } from "./keys";
import { publicListingExport, publicRender } from "./render-view";
import { apiRoutes } from "./routes";
import { userOwner } from "../render";
import { pruneUsage, usageReport } from "./usage";

export type { ApiCaller } from "./keys";

export function createApiModule(
  infra: Pick<Infra, "db" | "clock" | "log" | "version" | "env">,
  ports: {
    spaces: ApiSpaces;
    accounts: ApiAccounts;
    credits: ApiCredits;
    render: ApiRender;
    counts: ApiCounts;
    projects: ApiProjects;
    listing: ApiListing;
    styles: ApiStyles;
    publicBase: ApiContext["publicBase"];
    webhooks: ApiWebhooks;
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
    /** The space's requests per key and day over the last `days` days (a team's: Owner and Admin). */
    usage: (userId: string, teamId: string | null, days: number) => usageReport(deps, { userId, teamId }, days),
    /** Removes usage counts older than API_USAGE.keepDays (housekeeping); how many rows. */
    pruneUsage: () => pruneUsage(deps),
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
    /**
     * A listing export as the API shows it, to the user in the space (the listing.created webhook's
     * payload, decision 098); null when it is gone (revoked) or not theirs to see there.
     */
    describeListing: async (userId: string, teamId: string | null, exportId: string) => {
      try {
        const view = await deps.listing.view(userId, exportId);
        await deps.render.job(userOwner(userId, teamId), view.jobId);
        return publicListingExport(view);
      } catch (error) {
        if (error instanceof DomainError && (error.kind === "not-found" || error.kind === "forbidden")) return null;
        throw error;
      }
    },
    /** Removes the record of renders run at once that ended more than a day ago (housekeeping); how many. */
    pruneRenderSlots: () => pruneRenderSlots(deps),
    /** /api/v1 and its OpenAPI document. */
    routes: () => apiRoutes(deps, infra.version),
  };
}

export type ApiModule = ReturnType<typeof createApiModule>;
