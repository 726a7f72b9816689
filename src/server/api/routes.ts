/**
 * /api/v1 over HTTP (issue 31, decision 094): a bearer API key, never cookies (so browsers' CSRF
 * rules do not apply and a signed-in browser cannot call it by accident); every answer JSON; every
 * error `{ "error": { "code", "message" } }` with its status, mapped once here. Routes validate,
 * check the key's scope, and call a capability.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import { API_BASE, type ApiScope } from "../../shared/api";
import { MESSAGES } from "../../shared/messages";
import { RENDER_MODES } from "../../shared/render";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES } from "../../shared/styles";
import { DomainError } from "../errors";
import { HTTP_STATUS } from "../http/errors";
import type { ApiContext } from "./context";
import { authenticateApiKey, type ApiCaller } from "./keys";
import { catalogueSchema, creditsSchema, openApiDocument } from "./openapi";

type Handler = (caller: ApiCaller, req: Request, res: Response) => Promise<unknown>;

function sendError(res: Response, status: number, code: string, message: string) {
  res.status(status).set("Cache-Control", "no-store").json({ error: { code, message } });
}

export function apiRoutes(deps: ApiContext, version: string): express.Router {
  const router = express.Router();

  router.get(`${API_BASE}/openapi.json`, (_req, res) => {
    res.set("Cache-Control", "no-cache").json(openApiDocument(version));
  });

  /** A route for callers with a valid key (and the scope, when one is named). */
  const keyed =
    (scope: ApiScope | null, handler: Handler) =>
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      try {
        const header = req.get("authorization") ?? "";
        const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
        if (!token) return sendError(res, 401, "unauthenticated", MESSAGES.apiKeyMissing);
        const caller = await authenticateApiKey(deps, token);
        if (!caller) return sendError(res, 401, "unauthenticated", MESSAGES.apiKeyInvalid);
        if (scope && !caller.scopes.includes(scope)) {
          return sendError(res, 403, "forbidden", MESSAGES.apiScopeMissing.replace("{{scope}}", scope));
        }
        const body = await handler(caller, req, res);
        res.set("Cache-Control", "no-store").json(body);
      } catch (error) {
        if (error instanceof DomainError) return sendError(res, HTTP_STATUS[error.kind], error.kind, MESSAGES[error.messageName]);
        next(error);
      }
    };

  router.get(
    `${API_BASE}/catalogue`,
    keyed(null, async () =>
      catalogueSchema.parse({ styles: DESIGN_STYLES, roomTypes: ROOM_TYPES, inputModes: INPUT_MODES, renderModes: RENDER_MODES }),
    ),
  );
  router.get(
    `${API_BASE}/credits`,
    keyed("credits:read", async (caller) => creditsSchema.parse({ balance: await deps.credits.balance(caller.owner) })),
  );

  // Anything else under the API: its own 404, and a 500 in the API's shape.
  router.use(API_BASE, (_req, res) => sendError(res, 404, "not-found", MESSAGES.apiNotFound));
  router.use(API_BASE, (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    deps.log.error("API request failed", { error });
    sendError(res, 500, "internal", MESSAGES.internalError);
  });
  return router;
}
