/**
 * The render module's plain HTTP routes: the pictures (each served only to its owner or, for a
 * team's, to a current member of the team (decision 070), or through a share token (published renders
 * are served by the community module from copies of their own, decision 102); the high-quality download made on first request),
 * the app's own example pictures, and the Replicate webhook. Storage keys come from rows, never
 * from the URL. Who is asking is resolved at the edge and handed in (`ownerOfRequest`).
 */
import express, { type Request, type Response, Router } from "express";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import { AI_ENGINE_IDS } from "../../shared/render";
import { fileNamePrefix } from "../../shared/studio";
import type { RenderJob } from "../db/schema";
import { withAiProvenance } from "../images/provenance";
import type { RenderContext } from "./context";
import { exampleKey } from "./figures";
import { mayUse, type OwnerOfRequest } from "./owner";
import { replicateWebhookHandler, type PredictionWaiters } from "./engines";
import { firstWebhookReceipt } from "./webhook-receipts";

/** Private pictures: the browser may keep them an hour (spec: cache control 3600), proxies may not. */
const PRIVATE_CACHE = "private, max-age=3600";
const PUBLIC_CACHE = "public, max-age=3600";

const RENDER_VARIANTS = { before: "input_key", full: "result_key", medium: "medium_key", thumb: "thumb_key" } as const;

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
    return owner && job && (await mayUse(deps, owner, job)) ? job : null;
  }

  routes.get("/files/uploads/:id/:variant", async (req, res) => {
    const variant = req.params.variant;
    const owner = await ownerOfRequest(req, res);
    const upload = owner ? await deps.db.selectFrom("uploads").selectAll().where("id", "=", req.params.id).executeTakeFirst() : undefined;
    if (!owner || !upload || !(await mayUse(deps, owner, upload)) || (variant !== "original" && variant !== "thumb")) return notFound(res);
    await sendStored(res, variant === "original" ? upload.original_key : upload.thumb_key, PRIVATE_CACHE);
  });

  /**
   * Downloads, each what its label says: "rendered" (the engine's own output, its true size),
   * "upscaled" (an AI upscale, once made), "medium"; "high" is the largest there is. Files of AI
   * renders carry the XMP DigitalSourceType of a photo edited with AI and name the engine; the
   * Preview engine's carry no AI claim.
   */
  routes.get("/files/renders/:id/download/:quality", async (req, res) => {
    const job = await ownedJob(req, res);
    const quality = req.params.quality;
    if (!job || job.status !== "succeeded") return notFound(res);
    const key =
      quality === "rendered"
        ? job.result_key
        : quality === "upscaled"
          ? job.upscaled_key
          : quality === "medium"
            ? job.medium_key
            : quality === "high"
              ? (job.upscaled_key ?? job.result_key)
              : null;
    const stored = key ? await deps.storage.get(UPLOAD_BUCKET, key) : null;
    if (!key || !stored) return notFound(res);
    const extension = EXTENSIONS_BY_MIME[stored.contentType] ?? "jpg";
    const description = provenanceDescription(job, key === job.upscaled_key);
    const data = description ? await withAiProvenance(stored.data, description) : stored.data;
    res.set("Cache-Control", PRIVATE_CACHE);
    res.type(stored.contentType);
    res.attachment(`${fileNamePrefix(deps.brandName())}-${job.style}-${job.id.slice(0, 8)}-${quality}.${extension}`);
    res.send(data);
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

  routes.get("/files/examples/:id/:variant", async (req, res) => {
    await sendStored(res, exampleKey(req.params.id, req.params.variant), PUBLIC_CACHE);
  });

  if (deps.env.REPLICATE_WEBHOOK_SECRET) {
    routes.post(
      "/webhooks/replicate",
      express.raw({ type: "*/*", limit: "5mb" }),
      replicateWebhookHandler({
        secret: deps.env.REPLICATE_WEBHOOK_SECRET,
        waiters: replicateWaiters,
        now: () => deps.clock.now(),
        firstReceipt: (webhookId) => firstWebhookReceipt(deps, webhookId),
      }),
    );
  }

  return routes;
}

const EXTENSIONS_BY_MIME: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

/**
 * The AI claim and description written into a downloaded file, or null for a file no AI touched (the
 * Preview engine's own output). Only the upscaled file says it was upscaled, and with which model on
 * which engine: the upscale may come from an AI engine even when the render did not.
 */
export function provenanceDescription(job: RenderJob, upscaled: boolean): string | null {
  const upscaleEngine = job.upscale_provider ?? job.provider;
  const renderedByAi = AI_ENGINE_IDS.includes(job.provider);
  if (!renderedByAi && !(upscaled && AI_ENGINE_IDS.includes(upscaleEngine))) return null;
  const model = job.model ? `, model ${job.model}${job.model_version ? ` (${job.model_version})` : ""}` : "";
  const what = job.kind === "edit" ? "a painted region repainted" : `${job.style} ${job.render_mode}`;
  const made = renderedByAi
    ? `Room photo edited with AI: ${what} by the ${job.provider} engine${model}`
    : `Room photo colour-graded by the Preview engine (not AI): ${what}`;
  return `${made}${upscaled ? `; AI-upscaled with ${job.upscale_model ?? "an upscaler"} on the ${upscaleEngine} engine` : ""}.`;
}
