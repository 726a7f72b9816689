/**
 * POST /api/uploads: the raw file as the body, so the browser can show upload progress. A body
 * that says it is too big is refused before it is read; the render module checks and stores it.
 */
import express, { type ErrorRequestHandler, Router } from "express";
import { UPLOAD } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { UPLOAD_ENDPOINT, uploadQuerySchema, type UploadResponse } from "../../shared/render";
import type { Env } from "../env";
import { userOwner, visitorOwner, type RenderModule } from "../render";
import { ensureVisitorId } from "./cookies";
import { sendDomainError } from "./errors";
import { clientAddress, identifyRequest, type IdentityDeps } from "./identity";
import type { RateLimits } from "../coordination";
import { requestLanguage } from "./request-language";

export function uploadRoutes(deps: IdentityDeps & { env: Env; render: RenderModule; rateLimits: RateLimits }): Router {
  const routes = Router();

  routes.post(
    UPLOAD_ENDPOINT,
    async (req, res, next) => {
      if (!(await deps.rateLimits.upload.take(clientAddress(req)))) {
        res.status(429).json({ error: MESSAGES.tooManyRequests });
        return;
      }
      // Refuse at once what says it is too big, before reading it.
      if (Number(req.get("content-length") ?? 0) > UPLOAD.maxBytes) {
        res.set("Connection", "close").status(413).json({ error: MESSAGES.uploadTooLarge });
        return;
      }
      next();
    },
    express.raw({ type: () => true, limit: UPLOAD.maxBytes }),
    async (req, res) => {
      const query = uploadQuerySchema.safeParse(req.query);
      if (!query.success) {
        res.status(400).json({ error: MESSAGES.missingRequiredFields });
        return;
      }
      const { user } = await identifyRequest(deps, req, res);
      const owner = user ? userOwner(user.id, user.spaceTeamId ?? null) : visitorOwner(ensureVisitorId(req, res, deps.env));
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        const view = await deps.render.saveUpload(owner, bytes, query.data, requestLanguage(req), clientAddress(req));
        const body: UploadResponse = {
          imageId: view.id,
          projectId: view.projectId,
          width: view.width,
          height: view.height,
          url: view.url,
          thumbUrl: view.thumbUrl,
        };
        res.status(201).json(body);
      } catch (error) {
        if (!sendDomainError(res, error)) throw error;
      }
    },
  );
  // A body over the limit (sent without a truthful length) ends here.
  const uploadErrors: ErrorRequestHandler = (error: { type?: string; status?: number }, _req, res, next) => {
    if (error.type === "entity.too.large") res.set("Connection", "close").status(413).json({ error: MESSAGES.uploadTooLarge });
    else if (error.status && error.status < 500) res.status(400).json({ error: MESSAGES.uploadUnreadable });
    else next(error);
  };
  routes.use(UPLOAD_ENDPOINT, uploadErrors);
  return routes;
}
