/**
 * The credits ledger and the engines with their prices over /api/v1 (issue 31, decision 096). The
 * ledger is the credits' own (a team key's: the team's, for its Owner and Admins as on the team page);
 * the engines are what the render module offers now (the web app's allowance shows the same).
 */
import type express from "express";
import { API_BASE } from "../../shared/api";
import { CREDITS } from "../../shared/constants";
import { ENGINE_TASKS } from "../../shared/render";
import { parsed, readCursor, writeCursor, type ApiEdge } from "./edge";
import { inLanguageOf } from "./language";
import { enginesSchema, ledgerPageSchema } from "./openapi-credits";
import { cursorQuerySchema } from "./openapi-parts";

export function creditRoutes(router: express.Router, edge: ApiEdge): void {
  const { deps, keyed } = edge;

  router.get(
    `${API_BASE}/credits/ledger`,
    keyed("credits:read", async (caller, req, res) => {
      const { limit, cursor } = parsed(cursorQuerySchema, req.query);
      if (caller.teamId !== null) await deps.spaces.requireRight(caller.userId, caller.teamId, "manageCredits");
      const before = cursor === undefined ? undefined : readCursor(cursor);
      const rows = await deps.credits.ledger(caller.owner, { limit: limit + 1, before });
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      return ledgerPageSchema.parse({
        entries: shown.map((row) => ({
          id: row.id,
          kind: row.kind,
          amount: row.amount,
          renderId: row.jobId,
          // A refund's reason is a server message: in the caller's language like the errors.
          reason: row.reason === null ? null : inLanguageOf(res, row.reason),
          createdAt: new Date(row.createdAt).toISOString(),
        })),
        nextCursor: rows.length > limit && last ? writeCursor({ createdAt: last.createdAt, id: last.id }) : null,
      });
    }),
  );

  router.get(
    `${API_BASE}/engines`,
    keyed(null, async () => {
      const { capabilities, tasks } = deps.render.engine;
      return enginesSchema.parse({
        engines: deps.render
          .engineStatuses()
          .map((engine) => ({ id: engine.id, label: engine.label, isAi: engine.isAi, tasks: engine.tasks })),
        tasks: Object.fromEntries(ENGINE_TASKS.map((task) => [task, tasks[task]])),
        capabilities: {
          modes: capabilities.modes,
          seeds: capabilities.seeds,
          masks: capabilities.masks,
          upscale: capabilities.upscale,
          structureStrength: capabilities.structureStrength,
          floorPlan: capabilities.floorPlan,
          maxOutputLongEdge: capabilities.maxOutputLongEdge,
        },
        // An edit costs what a render does; an upscale costs nothing (render/engines/routing.ts: "an upscale costs no credit").
        prices: { render: CREDITS.perRender, edit: CREDITS.perRender, upscale: 0 },
      });
    }),
  );
}
