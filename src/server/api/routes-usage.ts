/**
 * GET /api/v1/usage (issue 31, decision 097): the requests of the key's space per UTC day, all keys
 * together and per key, as /developers shows them. Any valid key may read its own space's usage.
 * Its OpenAPI paths are here too; openapi.ts spreads them into the document.
 */
import type express from "express";
import { z } from "zod";
import { API_BASE } from "../../shared/api";
import { API_USAGE } from "../../shared/api-usage";
import type { ApiEdge } from "./edge";
import { parsed } from "./edge";
import { errors, type ApiPaths } from "./openapi-parts";
import { usageReport } from "./usage";

export const usageQuerySchema = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(API_USAGE.daysMax)
    .default(API_USAGE.daysShown)
    .meta({ description: `How many UTC days, today included (1 to ${API_USAGE.daysMax}; counts are kept ${API_USAGE.keepDays} days)` }),
});

const countsShape = {
  requests: z.number().int(),
  renders: z.number().int().meta({ description: "Renders ordered (one per style and variation; an idempotent replay orders none)" }),
  clientErrors: z.number().int().meta({ description: "Answers 400–499: refused requests (bad input, missing scope, rate limited…)" }),
  serverErrors: z.number().int().meta({ description: "Answers 500–599" }),
};

const usageDaySchema = z
  .object({ day: z.string().meta({ description: "The UTC day, 2026-11-27" }), ...countsShape })
  .meta({ id: "UsageDay" });

export const usageSchema = z
  .object({
    from: z.string().meta({ description: "The first day covered (UTC)" }),
    to: z.string().meta({ description: "The last day covered (UTC): today" }),
    days: z.array(usageDaySchema).meta({ description: "Every day of the period, oldest first, all the space's keys together" }),
    keys: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          prefix: z.string(),
          revoked: z.boolean(),
          total: z.object(countsShape),
          days: z.array(usageDaySchema).meta({ description: "The key's days that had requests, oldest first" }),
        }),
      )
      .meta({ description: "Each key of the space that made a request in the period" }),
  })
  .meta({ id: "Usage" });

export function usageRoutes(router: express.Router, { deps, keyed }: ApiEdge): void {
  router.get(
    `${API_BASE}/usage`,
    keyed(null, async (caller, req) => {
      const { days } = parsed(usageQuerySchema, req.query);
      return usageSchema.parse(await usageReport(deps, { userId: caller.userId, teamId: caller.teamId, byKey: true }, days));
    }),
  );
}

export const usagePaths: ApiPaths = {
  "/usage": {
    get: {
      operationId: "getUsage",
      summary: "Requests per UTC day of the key's space, all keys together and per key (any key)",
      requestParams: { query: usageQuerySchema },
      responses: {
        "200": { description: "The usage", content: { "application/json": { schema: usageSchema } } },
        ...errors(400, 401),
      },
    },
  },
};
