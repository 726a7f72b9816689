/**
 * The listing module's HTTP routes. Public (no sign-in, no cookie read or set, no script):
 * /l/<code> and its two pictures, 404 once revoked or when the render is gone. Owner only: the
 * exported picture (preview and download) and a project's zip; anyone else gets 404.
 */
import { type Request, type Response, Router } from "express";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { LISTING_CODE_PATTERN } from "../../shared/listing";
import { MESSAGES } from "../../shared/messages";
import { fileNamePrefix } from "../../shared/studio";
import type { ListingContext } from "./context";
import { writeProjectZip } from "./archive";
import { ownedExport, projectExports, publicExport, setExports } from "./exports";
import { paintLabel } from "./names";
import { listingPageHtml, NOT_FOUND_HTML } from "./page";
import { DomainError } from "../errors";
import type { VideoMaker } from "./videos";

/** The signed-in user's id, resolved at the edge; null for visitors and strangers. */
export type UserOfRequest = (req: Request, res: Response) => Promise<string | null>;

/** Not for search engines or referrer logs; revalidated each time so a revoke takes effect at once. */
function publicHeaders(res: Response): void {
  res.set({ "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-cache" });
}

export function listingRoutes(deps: ListingContext, userOfRequest: UserOfRequest, videos: VideoMaker): Router {
  const routes = Router();

  const live = async (code: string) => (LISTING_CODE_PATTERN.test(code) ? publicExport(deps, code) : null);

  routes.get("/l/:code", async (req, res) => {
    const row = await live(req.params.code);
    publicHeaders(res);
    if (!row) {
      res.status(404).type("html").send(NOT_FOUND_HTML);
      return;
    }
    const paints = row.job_id ? ((await deps.render.paintsInMaking([row.job_id])).get(row.job_id) ?? []) : [];
    res.type("html").send(
      listingPageHtml({
        code: row.code,
        language: row.language,
        disclosure: row.disclosure,
        createdAt: row.created_at,
        width: row.width,
        height: row.height,
        originalWidth: row.original_width,
        originalHeight: row.original_height,
        video: await videos.listingPageHasVideo(row),
        paints: paints.map((paint) => ({ label: paintLabel(paint, row.language), colour: paint.colour })),
      }),
    );
  });

  /** The project's listing video its owner shows on its listing pages; 404 when none is. */
  routes.get("/l/:code/video.mp4", async (req, res) => {
    const row = await live(req.params.code);
    const data = row ? await videos.ofListingPage(row) : null;
    publicHeaders(res);
    if (!data) {
      res.status(404).type("text").send("Not found");
      return;
    }
    res.type("video/mp4").send(data);
  });

  routes.get("/l/:code/:picture", async (req, res) => {
    const picture = req.params.picture;
    const row = picture === "original.jpg" || picture === "altered.jpg" ? await live(req.params.code) : null;
    const key = row ? (picture === "original.jpg" ? row.original_key : row.altered_key) : null;
    const stored = key ? await deps.storage.get(UPLOAD_BUCKET, key) : null;
    publicHeaders(res);
    if (!stored) {
      res.status(404).type("text").send("Not found");
      return;
    }
    res.type("image/jpeg").send(stored.data);
  });

  /** A listing video, for its owner: played in the page, or downloaded (?download=1). */
  routes.get("/files/listing/videos/:id/video.mp4", async (req, res) => {
    const userId = await userOfRequest(req, res);
    const data = userId ? await videos.file(userId, req.params.id).catch(notFoundAsNull) : null;
    if (!data) {
      res.status(404).json({ error: MESSAGES.notFound });
      return;
    }
    res.set("Cache-Control", "private, no-cache");
    if (req.query.download === "1") res.attachment(`${fileNamePrefix(deps.brandName())}-listing-video.mp4`);
    res.type("video/mp4").send(data);
  });

  /** The exported picture: inline for the dialog's preview, or as a download with its file name. */
  routes.get("/files/listing/:id/:variant", async (req, res) => {
    const variant = req.params.variant;
    const userId = variant === "picture.jpg" || variant === "download" ? await userOfRequest(req, res) : null;
    const row = userId ? await ownedExport(deps, userId, req.params.id).catch(notFoundAsNull) : null;
    const stored = row?.picture_key ? await deps.storage.get(UPLOAD_BUCKET, row.picture_key) : null;
    if (!row || !stored) {
      res.status(404).json({ error: MESSAGES.notFound });
      return;
    }
    res.set("Cache-Control", "private, no-cache");
    res.type("image/jpeg");
    if (variant === "download") res.attachment(row.file_name);
    res.send(stored.data);
  });

  /** The project's zip; `?set=<id>`: only that set's pictures (the newest export of each). */
  routes.get("/files/listing/projects/:projectId/zip", async (req, res) => {
    const userId = await userOfRequest(req, res);
    const setId = typeof req.query.set === "string" ? req.query.set : null;
    const exports = !userId
      ? []
      : setId
        ? await setExports(deps, userId, setId)
            .then((rows) => rows.filter((row) => row.project_id === req.params.projectId))
            .catch(notFoundAsEmpty)
        : await projectExports(deps, userId, req.params.projectId);
    if (exports.length === 0) {
      res.status(404).json({ error: MESSAGES.notFound });
      return;
    }
    const date = new Date(deps.clock.now()).toISOString().slice(0, 10);
    res.set("Cache-Control", "private, no-store");
    res.type("application/zip");
    res.attachment(`${fileNamePrefix(deps.brandName())}-listing-pictures-${date}.zip`);
    await writeProjectZip(deps, exports, res);
  });

  return routes;
}

function notFoundAsEmpty(error: unknown): [] {
  if (error instanceof DomainError && error.kind === "not-found") return [];
  throw error;
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof DomainError && error.kind === "not-found") return null;
  throw error;
}
