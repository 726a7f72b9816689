/**
 * /api/v1 over HTTP (issue 31, decision 094): a bearer API key, never cookies (so browsers' CSRF
 * rules do not apply and a signed-in browser cannot call it by accident); every answer JSON. The
 * edge (edge.ts) authenticates, limits, checks scopes and maps errors; routes validate and call a
 * capability. This file has uploads, renders, the catalogue and credits; other resources add their
 * routes from their own files (one call each below).
 */
import express, { type NextFunction, type Request, type Response } from "express";
import type { z } from "zod";
import { API_BASE } from "../../shared/api";
import { MESSAGES } from "../../shared/messages";
import { UPLOAD } from "../../shared/constants";
import { isFinalStatus, RENDER_MODES, type JobStatus } from "../../shared/render";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES } from "../../shared/styles";
import { clientAddress } from "../http/identity";
import type { JobView } from "../render";
import type { ApiContext } from "./context";
import { apiEdge, isoOrNull, parsed, readCursor, SENT, sendError, writeCursor } from "./edge";
import type { ApiCaller } from "./keys";
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
import { rendersOrdered } from "./usage";

/** A render as the API shows it: its own shape, not the web app's. */
function publicRender(view: JobView): z.infer<typeof renderViewSchema> {
  return {
    id: view.id,
    status: view.status,
    imageId: view.uploadId,
    projectId: view.projectId,
    style: view.style,
    roomType: view.roomType,
    mode: view.mode,
    renderMode: view.renderMode,
    note: view.note,
    percent: view.percent,
    position: view.position,
    error: view.error,
    engine: { id: view.engine.id, isAi: view.engine.isAi, model: view.model },
    seed: view.seed,
    createdAt: new Date(view.createdAt).toISOString(),
    startedAt: isoOrNull(view.startedAt),
    finishedAt: isoOrNull(view.finishedAt),
    result:
      view.status === "succeeded" && view.resultWidth !== null && view.resultHeight !== null
        ? { width: view.resultWidth, height: view.resultHeight, imageUrl: `${API_BASE}/renders/${encodeURIComponent(view.id)}/image` }
        : null,
  };
}

/** The picture's type by its first bytes (stored pictures are JPEG, PNG or WebP). */
function pictureType(data: Buffer): string {
  if (data[0] === 0x89 && data[1] === 0x50) return "image/png";
  if (data.subarray(0, 4).toString("latin1") === "RIFF") return "image/webp";
  return "image/jpeg";
}

export function apiRoutes(deps: ApiContext, version: string): express.Router {
  const router = express.Router();
  const { keyed } = apiEdge(deps);

  router.get(`${API_BASE}/openapi.json`, (_req, res) => {
    res.set("Cache-Control", "no-cache").json(openApiDocument(version));
  });

  const renderView = async (caller: ApiCaller, id: string) => publicRender(await deps.render.job(caller.owner, id));

  /** Waits until every job has ended or the time is up, on the jobs' own events; then reads them again. */
  const waitFor = async (caller: ApiCaller, ids: readonly string[], seconds: number) => {
    let views = await Promise.all(ids.map((id) => deps.render.job(caller.owner, id)));
    const open = new Set(views.filter((view) => !isFinalStatus(view.status)).map((view) => view.id));
    if (seconds > 0 && open.size > 0) {
      const signal = AbortSignal.timeout(seconds * 1000);
      try {
        const events = await deps.render.events(caller.owner, {}, signal);
        for await (const stored of events) {
          const event = stored.event as { type: string; jobId?: string };
          if (event.jobId && open.has(event.jobId) && isFinalStatus(event.type as JobStatus)) open.delete(event.jobId);
          if (open.size === 0) break;
        }
      } catch (error) {
        if (!signal.aborted) throw error;
      }
      views = await Promise.all(ids.map((id) => deps.render.job(caller.owner, id)));
    }
    return views.map(publicRender);
  };

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
      const { jobs } = await deps.render.create(caller.owner, { ...body, projectId: upload.projectId ?? undefined }, clientAddress(req));
      rendersOrdered(res, jobs.length);
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
      res.status(200).type(pictureType(picture.data)).set("Cache-Control", "private, no-store").send(picture.data);
      return SENT;
    }),
  );

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

  usageRoutes(router, apiEdge(deps));

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
