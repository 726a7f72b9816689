/**
 * Plain HTTP routes of the render flow: the upload endpoint (raw bytes, so the browser can show
 * upload progress), the pictures (each served only to its owner, through a share token, or when
 * shared in the gallery), and the Replicate webhook. Storage keys come from rows, never from the URL.
 */
import express, { type ErrorRequestHandler, type Request, type Response, Router } from "express";
import { UPLOAD, UPLOAD_BUCKET } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { UPLOAD_ENDPOINT, uploadQuerySchema, type UploadResponse } from "../../shared/render";
import type { RenderJob } from "../db/schema";
import type { AppDeps } from "../deps";
import { atOriginalResolution } from "../images/variants";
import { exampleKey } from "../render/examples";
import { ensureVisitorId, ownsRow, readVisitorId, userOwner, visitorOwner, type Owner } from "../render/owner";
import { replicateWebhookHandler } from "../render/providers/replicate-webhook";
import { uploadView } from "../render/views";
import { saveUpload } from "../services/uploads";
import { resolveSession } from "../trpc/context";
import { requestLanguage } from "./request-language";
import { RENDER } from "../../shared/render";

/** Private pictures: the browser may keep them an hour (spec: cache control 3600), proxies may not. */
const PRIVATE_CACHE = "private, max-age=3600";
const PUBLIC_CACHE = "public, max-age=3600";

async function ownerOfRequest(deps: AppDeps, req: Request, res: Response): Promise<Owner | null> {
  const { user } = await resolveSession(deps, req, res);
  if (user) return userOwner(user.id);
  const visitorId = readVisitorId(req);
  return visitorId ? visitorOwner(visitorId) : null;
}

function notFound(res: Response): void {
  res.status(404).json({ error: MESSAGES.notFound });
}

async function sendStored(deps: AppDeps, res: Response, key: string | null, cache: string, download?: string): Promise<void> {
  const stored = key ? await deps.storage.get(UPLOAD_BUCKET, key) : null;
  if (!stored) return notFound(res);
  res.set("Cache-Control", cache);
  res.type(stored.contentType);
  if (download) res.attachment(download);
  res.send(stored.data);
}

const RENDER_VARIANTS = { before: "input_key", full: "result_key", medium: "medium_key", thumb: "thumb_key" } as const;

export function renderRoutes(deps: AppDeps): Router {
  const routes = Router();

  routes.post(
    UPLOAD_ENDPOINT,
    (req, res, next) => {
      if (!deps.rateLimits.upload.take(req.ip ?? "unknown")) {
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
      const { user } = await resolveSession(deps, req, res);
      const owner = user ? userOwner(user.id) : visitorOwner(ensureVisitorId(req, res, deps.env));
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const saved = await saveUpload(deps, owner, bytes, query.data, requestLanguage(req));
      if (!saved.ok) {
        res.status(saved.status).json({ error: MESSAGES[saved.message] });
        return;
      }
      const view = uploadView(saved.upload, RENDER.demoProjectId);
      const body: UploadResponse = {
        imageId: view.id,
        projectId: view.projectId,
        width: view.width,
        height: view.height,
        url: view.url,
        thumbUrl: view.thumbUrl,
      };
      res.status(201).json(body);
    },
  );
  // A body over the limit (sent without a truthful length) ends here.
  const uploadErrors: ErrorRequestHandler = (error: { type?: string; status?: number }, _req, res, next) => {
    if (error.type === "entity.too.large") res.set("Connection", "close").status(413).json({ error: MESSAGES.uploadTooLarge });
    else if (error.status && error.status < 500) res.status(400).json({ error: MESSAGES.uploadUnreadable });
    else next(error);
  };
  routes.use(UPLOAD_ENDPOINT, uploadErrors);

  routes.get("/files/uploads/:id/:variant", async (req, res) => {
    const variant = req.params.variant;
    const owner = await ownerOfRequest(deps, req, res);
    const upload = owner ? await deps.db.selectFrom("uploads").selectAll().where("id", "=", req.params.id).executeTakeFirst() : undefined;
    if (!owner || !upload || !ownsRow(owner, upload) || (variant !== "original" && variant !== "thumb")) return notFound(res);
    await sendStored(deps, res, variant === "original" ? upload.original_key : upload.thumb_key, PRIVATE_CACHE);
  });

  async function ownedJob(req: Request, res: Response): Promise<RenderJob | null> {
    const owner = await ownerOfRequest(deps, req, res);
    const job = owner
      ? await deps.db.selectFrom("render_jobs").selectAll().where("id", "=", String(req.params.id)).executeTakeFirst()
      : undefined;
    return owner && job && ownsRow(owner, job) ? job : null;
  }

  routes.get("/files/renders/:id/download/:quality", async (req, res) => {
    const job = await ownedJob(req, res);
    const quality = req.params.quality;
    if (!job || job.status !== "succeeded" || (quality !== "high" && quality !== "medium")) return notFound(res);
    const name = `roomcanvas-${job.style}-${job.id.slice(0, 8)}-${quality}.jpg`;
    if (quality === "medium") return sendStored(deps, res, job.medium_key, PRIVATE_CACHE, name);
    await sendStored(
      deps,
      res,
      await highQualityKey(deps, job),
      PRIVATE_CACHE,
      name.replace(/\.jpg$/, job.high_key?.endsWith(".png") ? ".png" : ".jpg"),
    );
  });

  routes.get("/files/renders/:id/:variant", async (req, res) => {
    const job = await ownedJob(req, res);
    const column = RENDER_VARIANTS[req.params.variant as keyof typeof RENDER_VARIANTS];
    if (!job || !column) return notFound(res);
    await sendStored(deps, res, job[column], PRIVATE_CACHE);
  });

  routes.get("/files/shared/:token/:variant", async (req, res) => {
    const token = req.params.token;
    const job =
      token.length >= 20
        ? await deps.db
            .selectFrom("render_jobs")
            .selectAll()
            .where("share_token", "=", token)
            .where("status", "=", "succeeded")
            .executeTakeFirst()
        : undefined;
    if (!job) return notFound(res);
    const key = req.params.variant === "before" ? job.input_key : req.params.variant === "after" ? job.medium_key : null;
    await sendStored(deps, res, key, PRIVATE_CACHE);
  });

  routes.get("/files/gallery/:id/:variant", async (req, res) => {
    const job = await deps.db
      .selectFrom("render_jobs")
      .selectAll()
      .where("id", "=", req.params.id)
      .where("shared_in_gallery_at", "is not", null)
      .where("status", "=", "succeeded")
      .executeTakeFirst();
    if (!job) return notFound(res);
    const key = req.params.variant === "before" ? job.input_key : req.params.variant === "after" ? job.medium_key : null;
    await sendStored(deps, res, key, PUBLIC_CACHE);
  });

  routes.get("/files/examples/:id/:variant", async (req, res) => {
    await sendStored(deps, res, exampleKey(req.params.id, req.params.variant), PUBLIC_CACHE);
  });

  if (deps.env.REPLICATE_WEBHOOK_SECRET) {
    routes.post(
      "/webhooks/replicate",
      express.raw({ type: "*/*", limit: "5mb" }),
      replicateWebhookHandler({ secret: deps.env.REPLICATE_WEBHOOK_SECRET, waiters: deps.replicateWaiters, now: () => deps.clock.now() }),
    );
  }

  return routes;
}

/** The result at the original photo's resolution: made on first download, then kept. */
async function highQualityKey(deps: AppDeps, job: RenderJob): Promise<string | null> {
  if (job.high_key) return job.high_key;
  const upload = await deps.db.selectFrom("uploads").select(["width", "height"]).where("id", "=", job.upload_id).executeTakeFirst();
  const result = job.result_key ? await deps.storage.get(UPLOAD_BUCKET, job.result_key) : null;
  if (!upload || !result || !job.result_width || !job.result_height) return job.result_key;
  // Already as large as the photo: the engine's output is the high-quality file.
  if (job.result_width >= upload.width && job.result_height >= upload.height) return job.result_key;
  const high = await atOriginalResolution(result.data, upload.width, upload.height);
  const key = `renders/${job.id}/high.jpg`;
  await deps.storage.put(UPLOAD_BUCKET, key, high.data, "image/jpeg");
  await deps.db.updateTable("render_jobs").set({ high_key: key }).where("id", "=", job.id).execute();
  return key;
}
