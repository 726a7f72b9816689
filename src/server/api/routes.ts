/**
 * /api/v1 over HTTP (issue 31, decision 094): a bearer API key, never cookies (so browsers' CSRF
 * rules do not apply and a signed-in browser cannot call it by accident); every answer JSON. The
 * edge (edge.ts) authenticates, limits, checks scopes and maps errors; routes validate and call a
 * capability. This file has uploads, renders, the catalogue and credits; other resources add their
 * routes from their own files (one call each below).
 */
import express, { type NextFunction, type Request, type Response } from "express";
import { API_BASE } from "../../shared/api";
import { MESSAGES } from "../../shared/messages";
import { UPLOAD } from "../../shared/constants";
import { RENDER_MODES } from "../../shared/render";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES } from "../../shared/styles";
import { clientAddress } from "../http/identity";
import { sniffImageMime } from "../images/mime";
import type { ApiContext } from "./context";
import { apiEdge, parsed, readCursor, SENT, sendError, writeCursor } from "./edge";
import { publicRender, waitForRenders } from "./render-view";
import { withRenderSlots } from "./render-slots";
import { creditRoutes } from "./routes-credits";
import { projectRoutes } from "./routes-projects";
import { studioRoutes } from "./routes-studio";
import type { ApiCaller } from "./keys";
import { webhookRoutes } from "./routes-webhooks";
import {
  catalogueSchema,
  creditsSchema,
  openApiDocument,
  pageQuerySchema,
  renderCreateSchema,
  renderPageSchema,
  rendersSchema,
  renderViewSchema,
  uploadQuerySchema,
  uploadViewSchema,
  waitQuerySchema,
} from "./openapi";
import { usageRoutes } from "./routes-usage";

export function apiRoutes(deps: ApiContext, version: string): express.Router {
  const router = express.Router();
  const edge = apiEdge(deps);
  const { keyed } = edge;

  router.get(`${API_BASE}/openapi.json`, (_req, res) => {
    res.set("Cache-Control", "no-cache").json(openApiDocument(version));
  });

  const renderView = async (caller: ApiCaller, id: string) => publicRender(await deps.render.job(caller.owner, id));

  const waitFor = (caller: ApiCaller, ids: readonly string[], seconds: number) => waitForRenders(deps, caller, ids, seconds);

  router.post(
    `${API_BASE}/uploads`,
    (req, res, next) => {
      // Refused at once when it says it is too big, before it is read.
      if (Number(req.get("content-length") ?? 0) > UPLOAD.maxBytes)
        return sendError(res.set("Connection", "close"), 413, "too-large", MESSAGES.uploadTooLarge);
      next();
    },
    express.raw({ type: () => true, limit: UPLOAD.maxBytes }),
    keyed("renders:write", async (caller, req, res) => {
      const query = parsed(uploadQuerySchema, req.query);
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const view = await deps.render.saveUpload(caller.owner, bytes, query, "en", clientAddress(req));
      res.status(201);
      return uploadViewSchema.parse({ id: view.id, projectId: view.projectId, width: view.width, height: view.height });
    }),
  );
  router.post(
    `${API_BASE}/renders`,
    express.json({ limit: "64kb" }),
    keyed("renders:write", async (caller, req, res) => {
      const { wait } = parsed(waitQuerySchema, req.query);
      const body = parsed(renderCreateSchema, req.body);
      const upload = await deps.render.upload(caller.owner, body.imageId);
      // Renders at once per key (decision 096): one per style and variation.
      const { jobs } = await withRenderSlots(
        deps,
        caller,
        res,
        [body.style].flat().length * (body.variations ?? 1),
        () => deps.render.create(caller.owner, { ...body, projectId: upload.projectId ?? undefined }, clientAddress(req)),
        (made) => made.jobs.map((job) => job.id),
      );
      res.status(201);
      return rendersSchema.parse({
        renders: await waitFor(
          caller,
          jobs.map((job) => job.id),
          wait,
        ),
      });
    }),
  );
  router.get(
    `${API_BASE}/renders`,
    keyed("renders:read", async (caller, req) => {
      const { limit, cursor, projectId } = parsed(pageQuerySchema, req.query);
      const before = cursor === undefined ? undefined : readCursor(cursor);
      const page = await deps.render.list(caller.owner, { limit: limit + 1, before, ...(projectId ? { projectId } : {}) });
      const shown = page.slice(0, limit);
      const last = shown.at(-1);
      return renderPageSchema.parse({
        renders: shown.map(publicRender),
        nextCursor: page.length > limit && last ? writeCursor({ createdAt: last.createdAt, id: last.id }) : null,
      });
    }),
  );
  router.get(
    `${API_BASE}/renders/:id`,
    keyed("renders:read", async (caller, req) => renderViewSchema.parse(await renderView(caller, String(req.params.id)))),
  );
  router.post(
    `${API_BASE}/renders/:id/cancel`,
    keyed("renders:write", async (caller, req) => {
      await deps.render.cancel(caller.owner, String(req.params.id));
      return renderViewSchema.parse(await renderView(caller, String(req.params.id)));
    }),
  );
  router.get(
    `${API_BASE}/renders/:id/image`,
    keyed("renders:read", async (caller, req, res) => {
      const picture = await deps.render.versionPicture(caller.owner, String(req.params.id));
      res
        .status(200)
        .type(sniffImageMime(picture.data) ?? "image/jpeg")
        .set("Cache-Control", "private, no-store")
        .send(picture.data);
      return SENT;
    }),
  );

  router.get(
    `${API_BASE}/catalogue`,
    keyed(null, async (caller) => {
      const own = await deps.styles.list(caller.userId, caller.teamId);
      return catalogueSchema.parse({
        styles: DESIGN_STYLES,
        roomTypes: ROOM_TYPES,
        inputModes: INPUT_MODES,
        renderModes: RENDER_MODES,
        customStyles: own.styles.map(({ id, name, description, avoid, palette, tone, hasReference }) => ({
          id,
          name,
          description,
          avoid,
          palette,
          tone,
          hasReference,
        })),
      });
    }),
  );
  router.get(
    `${API_BASE}/credits`,
    keyed("credits:read", async (caller) => creditsSchema.parse({ balance: await deps.credits.balance(caller.owner) })),
  );

  webhookRoutes(router, edge);
  // The other resources, each from its file.
  studioRoutes(router, edge);
  projectRoutes(router, edge);
  creditRoutes(router, edge);
  usageRoutes(router, edge);

  // Anything else under the API: its own 404, and a 500 in the API's shape.
  router.use(API_BASE, (_req, res) => sendError(res, 404, "not-found", MESSAGES.apiNotFound));
  router.use(API_BASE, (error: { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    // A body over its limit, or one that is not what it says (JSON that does not parse).
    if (error.type === "entity.too.large") return sendError(res.set("Connection", "close"), 413, "too-large", MESSAGES.uploadTooLarge);
    if (error.status && error.status < 500) return sendError(res, 400, "invalid", MESSAGES.missingRequiredFields);
    deps.log.error("API request failed", { error });
    sendError(res, 500, "internal", MESSAGES.internalError);
  });
  return router;
}
