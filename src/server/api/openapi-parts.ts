/**
 * What every part of the OpenAPI document shares (decision 094): a path id, the Idempotency-Key
 * header every POST takes, and the refusals a route lists. Each group of routes writes its paths
 * with these (openapi.ts for renders; one file per other resource) and openapi.ts joins them.
 */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { z } from "zod";
import { API_PAGE_MAX, apiErrorSchema } from "../../shared/api";

export type ApiPaths = ZodOpenApiPathsObject;

export const idParams = z.object({ id: z.string().min(1).max(64) });

/** Every POST takes one: the same key and request within 24 hours get the first answer again. */
export const idempotencyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(255).optional().meta({
    description:
      "Sent again with the same request, the first answer comes back (header Idempotent-Replayed: true); with another request, 409",
  }),
});

/** The refusals a route may answer, and the one every keyed route may: too many requests this minute. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(
    [...statuses, 429].map((status) => [
      String(status),
      { description: ERROR_DESCRIPTIONS[status] ?? "Error", content: { "application/json": { schema: apiErrorSchema } } },
    ]),
  );

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "The request breaks a rule (the message says which)",
  402: "Not enough credits",
  409: "The render is not in a state that allows this",
  413: "The picture is over the size limit",
  415: "Not a picture this takes",
  401: "No API key, or one that is unknown, revoked or expired",
  403: "The key lacks the scope this needs",
  404: "Not found, or not the key's to see",
  429: "Too many requests with this key this minute (RateLimit-* headers on every answer), or, ordering renders and edits, too many of the key's renders running at once (API_RENDERS_AT_ONCE): wait for Retry-After seconds",
};

/** A page of a list: `limit` 1–100 and the cursor the page before gave. */
export const cursorQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(API_PAGE_MAX)
    .default(20)
    .meta({ description: `1 to ${API_PAGE_MAX}` }),
  cursor: z.string().max(200).optional().meta({ description: "The nextCursor of the page before" }),
});
