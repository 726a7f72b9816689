/**
 * Caps on tRPC request bodies, enforced before anything is read. A body whose Content-Length is
 * over the limit of the procedures it calls is answered 413 at once, and the connection is closed
 * so the rest is never buffered; a body without a length (chunked) is cut by tRPC's own
 * maxBodySize at the largest limit. The biggest legitimate body is a studio edit's mask (a PNG
 * data URL of at most EDIT.maskDataUrlMax characters); everything else is small JSON.
 */
import type { NextFunction, Request, Response } from "express";
import { TRPC_MAX_BATCH_CALLS } from "../../shared/constants";
import { EDIT } from "../../shared/edits";
import { MESSAGES } from "../../shared/messages";
import { STUDIO_LIMITS } from "../../shared/studio-settings";

/** Bytes of JSON one request may carry, unless its procedure says otherwise. */
export const DEFAULT_BODY_LIMIT = 100_000;

/** Procedures that legitimately send more (or are only ever small). */
const PROCEDURE_BODY_LIMITS: Record<string, number> = {
  "render.edit": EDIT.maskDataUrlMax + 20_000,
  "analytics.track": 20_000,
  // A logo as a data URL (base64: 4/3 of its bytes); terms and privacy texts (UTF-8, JSON-escaped).
  "admin.setStudioLogo": Math.ceil((STUDIO_LIMITS.logoBytesMax * 4) / 3) + 20_000,
  "admin.updateStudioBrand": STUDIO_LIMITS.legalTextMax * 2 * 6 + 20_000,
};

/** The largest limit: tRPC's own cap for bodies that arrive without a Content-Length. */
export const MAX_BODY_LIMIT = Math.max(DEFAULT_BODY_LIMIT, ...Object.values(PROCEDURE_BODY_LIMITS));

/** A path decoded, or null when its percent sequences are malformed ("%ff", "%E0%A4%A"), where decodeURIComponent throws. */
export function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The limit of a /trpc path: one procedure, or a batch ("a,b,c"), which gets the largest of its limits. */
export function bodyLimitOf(path: string): number {
  const procedures = (decodedPath(path.replace(/^\//, "")) ?? "").split(",");
  return Math.max(...procedures.map((procedure) => PROCEDURE_BODY_LIMITS[procedure] ?? DEFAULT_BODY_LIMIT));
}

/** A refusal in tRPC's error shape (as its adapter writes one without the transformer's wrapping). */
function refuse(res: Response, status: number, message: string, code: string): void {
  res.status(status).json({ error: { message, code: -32600, data: { code, httpStatus: status } } });
}

/**
 * Express middleware for /trpc: 400 for a path whose percent sequences are malformed (tRPC's adapter
 * decodes the path too and answered 500 with a stack in the log: issue 27, probe finding 1); 413 before
 * reading a body that says it is too long, or for a batch of too many calls.
 */
export function trpcBodyLimit(req: Request, res: Response, next: NextFunction): void {
  if (decodedPath(req.path) === null) {
    // Nothing to log beyond the access line: a client's mistake (or a probe), not the server's.
    refuse(res, 400, MESSAGES.malformedAddress, "BAD_REQUEST");
    return;
  }
  const length = Number(req.headers["content-length"] ?? 0);
  const calls = req.path.split(",").length;
  // Without a body (every GET) there is no limit to look up.
  if (calls > TRPC_MAX_BATCH_CALLS || (Number.isFinite(length) && length > 0 && length > bodyLimitOf(req.path))) {
    res.set("Connection", "close");
    refuse(res, 413, MESSAGES.requestTooLarge, "PAYLOAD_TOO_LARGE");
    return;
  }
  next();
}
