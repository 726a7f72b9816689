/**
 * The OpenAPI description (decision 096) of the credits ledger and the engines with their prices,
 * made from the same zod schemas routes-credits.ts answers with.
 */
import { z } from "zod";
import { ENGINE_TASKS, FLOOR_PLAN_RENDERS, RENDER_MODES } from "../../shared/render";
import { errors, type ApiPaths } from "./openapi-parts";
import { cursorQuerySchema } from "./openapi-parts";

export const ledgerEntrySchema = z
  .object({
    id: z.string(),
    kind: z
      .enum(["grant", "charge", "refund", "purchase", "admin", "transfer"])
      .meta({ description: "grant: sign-up credits; charge: a render or edit; refund: one that failed or was canceled" }),
    amount: z.number().int().meta({ description: "Credits added (positive) or taken (negative)" }),
    renderId: z.string().nullable().meta({ description: "The render or edit charged or refunded" }),
    reason: z.string().nullable(),
    createdAt: z.string().meta({ description: "ISO 8601" }),
  })
  .meta({ id: "LedgerEntry" });

export const ledgerPageSchema = z
  .object({
    entries: z.array(ledgerEntrySchema),
    nextCursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last" }),
  })
  .meta({ id: "LedgerPage" });

const task = z.enum(ENGINE_TASKS);

export const enginesSchema = z
  .object({
    engines: z
      .array(z.object({ id: z.string(), label: z.string(), isAi: z.boolean(), tasks: z.array(task) }))
      .meta({ description: "The engines this server offers, each with the tasks it does here" }),
    tasks: z
      .record(task, z.array(z.string()))
      .meta({ description: "Per task, its engines in the order they are tried (empty: not offered here)" }),
    capabilities: z
      .object({
        modes: z.array(z.enum(RENDER_MODES)),
        seeds: z.boolean().meta({ description: "A seed may be asked for, and a re-roll with the same seed" }),
        masks: z.boolean().meta({ description: "Edits with a mask" }),
        upscale: z.boolean(),
        structureStrength: z.boolean(),
        floorPlan: z.enum(FLOOR_PLAN_RENDERS),
        maxOutputLongEdge: z.number().int(),
      })
      .meta({ description: "What the engines can do together" }),
    prices: z
      .object({
        render: z.number().int().meta({ description: "Credits per render (per style and variation), and per re-roll" }),
        edit: z.number().int(),
        upscale: z.number().int(),
      })
      .meta({ description: "In credits; a render or edit that fails or is canceled gives its credit back" }),
  })
  .meta({ id: "Engines" });

export const creditPaths: ApiPaths = {
  "/credits/ledger": {
    get: {
      operationId: "listLedger",
      summary:
        "The space's credit ledger, newest first, a page at a time (scope credits:read; a team's: its Owner and Admins, as on the team page)",
      requestParams: { query: cursorQuerySchema },
      responses: {
        "200": { description: "A page", content: { "application/json": { schema: ledgerPageSchema } } },
        ...errors(400, 401, 403),
      },
    },
  },
  "/engines": {
    get: {
      operationId: "getEngines",
      summary: "The engines offered, what each can do, and the price of each task in credits",
      responses: {
        "200": { description: "The engines", content: { "application/json": { schema: enginesSchema } } },
        ...errors(401),
      },
    },
  },
};
