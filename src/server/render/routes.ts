/**
 * The render module's plain HTTP routes: the pictures (each served only to its owner, through a
 * share token, or when shared in the gallery; the high-quality download made on first request),
 * the app's own example pictures, and the Replicate webhook. Storage keys come from rows, never
 * from the URL. Who is asking is resolved at the edge and handed in (`ownerOfRequest`).
 */
import express, { type Request, type Response, Router } from "express";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import type { RenderJob } from "../db/schema";
import { atOriginalResolution } from "../images/variants";
import type { RenderContext } from "./context";
import { exampleKey } from "./examples";
import { ownsRow, type Owner } from "./owner";
import { replicateWebhookHandler, type PredictionWaiters } from "./providers/replicate-webhook";

/** Private pictures: the browser may keep them an hour (spec: cache control 3600), proxies may not. */
const PRIVATE_CACHE = "private, max-age=3600";
const PUBLIC_CACHE = "public, max-age=3600";

const RENDER_VARIANTS = { before: "input_key", full: "result_key", medium: "medium_key", thumb: "thumb_key" } as const;

export type OwnerOfRequest = (req: Request, res: Response) => Promise<Owner | null>;

function notFound(res: Response): void {
  res.status(404).json({ error: MESSAGES.notFound });
}

export function renderRoutes(deps: RenderContext, ownerOfRequest: OwnerOfRequest, replicateWaiters: PredictionWaiters): Router {
  const routes = Router();

  async function sendStored(res: Response, key: string | null, cache: string, download?: string): Promise<void> {
    const stored = key ? await deps.storage.get(UPLOAD_BUCKET, key) : null;
    if (!stored) return notFound(res);
    res.set("Cache-Control", cache);
    res.type(stored.contentType);
    if (download) res.attachment(download);
    res.send(stored.data);
  }

  async function ownedJob(req: Request, res: Response): Promise<RenderJob | null> {
    const owner = await ownerOfRequest(req, res);
    const job = owner
      ? await deps.db.selectFrom("render_jobs").selectAll().where("id", "=", String(req.params.id)).executeTakeFirst()
      : undefined;
    return owner && job && ownsRow(owner, job) ? job : null;
  }

  routes.get("/files/uploads/:id/:variant", async (req, res) => {
    const variant = req.params.variant;
    const owner = await ownerOfRequest(req, res);
    const upload = owner ? await deps.db.selectFrom("uploads").selectAll().where("id", "=", req.params.id).executeTakeFirst() : undefined;
    if (!owner || !upload || !ownsRow(owner, upload) || (variant !== "original" && variant !== "thumb")) return notFound(res);
    await sendStored(res, variant === "original" ? upload.original_key : upload.thumb_key, PRIVATE_CACHE);
  });

  routes.get("/files/renders/:id/download/:quality", async (req, res) => {
    const job = await ownedJob(req, res);
    const quality = req.params.quality;
    if (!job || job.status !== "succeeded" || (quality !== "high" && quality !== "medium")) return notFound(res);
    const name = `roomcanvas-${job.style}-${job.id.slice(0, 8)}-${quality}.jpg`;
    if (quality === "medium") return sendStored(res, job.medium_key, PRIVATE_CACHE, name);
    await sendStored(
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
    await sendStored(res, job[column], PRIVATE_CACHE);
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
    await sendStored(res, key, PRIVATE_CACHE);
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
    await sendStored(res, key, PUBLIC_CACHE);
  });

  routes.get("/files/examples/:id/:variant", async (req, res) => {
    await sendStored(res, exampleKey(req.params.id, req.params.variant), PUBLIC_CACHE);
  });

  if (deps.env.REPLICATE_WEBHOOK_SECRET) {
    routes.post(
      "/webhooks/replicate",
      express.raw({ type: "*/*", limit: "5mb" }),
      replicateWebhookHandler({ secret: deps.env.REPLICATE_WEBHOOK_SECRET, waiters: replicateWaiters, now: () => deps.clock.now() }),
    );
  }

  return routes;
}

/** The result at the original photo's resolution: made on first download, then kept. */
async function highQualityKey(deps: Pick<RenderContext, "db" | "storage">, job: RenderJob): Promise<string | null> {
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
