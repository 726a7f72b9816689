/**
 * The API's HTTP edge (issue 31, decision 094), shared by every group of routes: bearer-key
 * authentication, the per-key rate limit and its headers, scopes, Idempotency-Key, request parsing
 * by schema, and the one error shape `{ "error": { "code", "message" } }` mapped here once.
 * A group of routes (routes.ts, and one file per resource) takes an ApiEdge and adds its routes.
 */
import type { NextFunction, Request, Response } from "express";
import type { z } from "zod";
import type { ApiScope } from "../../shared/api";
import { keyedMessage, MESSAGES } from "../../shared/messages";
import { MINUTE_MS } from "../../shared/constants";
import { DomainError } from "../errors";
import { HTTP_STATUS } from "../http/errors";
import type { ApiContext } from "./context";
import { IDEMPOTENCY_KEY, keepAnswer, rememberRequest, requestHash } from "./idempotency";
import { authenticateApiKey, type ApiCaller } from "./keys";
import { inLanguageOf, useLanguage } from "./language";
import { trackUsage } from "./usage";

/** A route's work: its answer's body (status set on res when not 200), or SENT when it answered itself. */
export type ApiHandler = (caller: ApiCaller, req: Request, res: Response) => Promise<unknown>;

/** A handler that has answered itself (a picture). */
export const SENT = Symbol("sent");

/** A request that breaks its schema: 400 with the first rule's message. */
export class ApiInputError extends Error {}

export function isoOrNull(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

/** The answer to an expected refusal (bad input, a domain rule), or null for anything else; its message in the caller's language. */
function refusalOf(error: unknown, res: Response): { status: number; body: { error: { code: string; message: string } } } | null {
  if (error instanceof ApiInputError)
    return { status: 400, body: { error: { code: "invalid", message: inLanguageOf(res, error.message) } } };
  if (error instanceof DomainError)
    return { status: HTTP_STATUS[error.kind], body: { error: { code: error.kind, message: inLanguageOf(res, error.message) } } };
  return null;
}

/** An error answer; `message` (a known English text or a keyed one) in the caller's language (decision 096). */
export function sendError(res: Response, status: number, code: string, message: string) {
  res
    .status(status)
    .set("Cache-Control", "no-store")
    .json({ error: { code, message: inLanguageOf(res, message) } });
}

/** The request's part checked by its schema; a refusal names the first rule broken. */
export function parsed<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiInputError(result.error.issues[0]?.message ?? MESSAGES.missingRequiredFields);
  return result.data;
}

/** A page's end as an opaque cursor: the last item's time and id (keyset pagination). */
export function writeCursor(at: { createdAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([at.createdAt, at.id])).toString("base64url");
}

export function readCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "number" && Number.isSafeInteger(createdAt) && typeof id === "string" && id.length <= 64)
      return { createdAt, id };
  } catch {
    // Not ours: refused below.
  }
  throw new ApiInputError(MESSAGES.apiCursorInvalid);
}

export interface ApiEdge {
  deps: ApiContext;
  /**
   * A route for callers with a valid key (and the scope, when one is named). A POST with an
   * Idempotency-Key is answered once: its first answer is kept and given again (idempotency.ts).
   */
  keyed(scope: ApiScope | null, handler: ApiHandler): (req: Request, res: Response, next: NextFunction) => Promise<void>;
}

export function apiEdge(deps: ApiContext): ApiEdge {
  const keyed: ApiEdge["keyed"] = (scope, handler) => async (req, res, next) => {
    let remembered: { keyId: string; key: string } | null = null;
    try {
      const header = req.get("authorization") ?? "";
      const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      if (!token) return sendError(res, 401, "unauthenticated", MESSAGES.apiKeyMissing);
      const caller = await authenticateApiKey(deps, token);
      if (!caller) return sendError(res, 401, "unauthenticated", MESSAGES.apiKeyInvalid);
      useLanguage(req, res, caller.language);
      trackUsage(deps, caller.keyId, res);
      // Requests per minute per key, on every instance together; the headers say where the key stands.
      const { count, windowEndsAt } = await deps.counts.add(`api ${caller.keyId}`, MINUTE_MS);
      const resetSeconds = Math.max(0, Math.ceil((windowEndsAt - deps.clock.now()) / 1000));
      res.set({
        "RateLimit-Limit": String(deps.requestsPerMinute),
        "RateLimit-Remaining": String(Math.max(0, deps.requestsPerMinute - count)),
        "RateLimit-Reset": String(resetSeconds),
      });
      if (count > deps.requestsPerMinute) {
        return sendError(res.set("Retry-After", String(Math.max(1, resetSeconds))), 429, "rate-limited", MESSAGES.apiRateLimited);
      }
      if (scope && !caller.scopes.includes(scope)) {
        return sendError(res, 403, "forbidden", keyedMessage("apiScopeMissing", { scope }));
      }
      const key = req.method === "POST" ? req.get("idempotency-key") : undefined;
      if (key !== undefined) {
        if (!IDEMPOTENCY_KEY.test(key)) return sendError(res, 400, "invalid", MESSAGES.idempotencyKeyInvalid);
        const body = Buffer.isBuffer(req.body) ? req.body : JSON.stringify(req.body ?? null);
        const before = await rememberRequest(deps, caller.keyId, key, requestHash(req.method, req.originalUrl, body));
        if (before.kind === "other-request") return sendError(res, 409, "conflict", MESSAGES.idempotencyKeyReused);
        if (before.kind === "in-progress")
          return sendError(res.set("Retry-After", "1"), 409, "conflict", MESSAGES.idempotencyKeyInProgress);
        if (before.kind === "replay") {
          res.status(before.status).set({ "Cache-Control": "no-store", "Idempotent-Replayed": "true" }).json(before.body);
          return;
        }
        remembered = { keyId: caller.keyId, key };
      }
      let status: number;
      let body: unknown;
      try {
        body = await handler(caller, req, res);
        if (body === SENT) return;
        status = res.statusCode;
      } catch (error) {
        const refusal = refusalOf(error, res);
        if (!refusal) throw error;
        ({ status, body } = refusal);
      }
      if (remembered) await keepAnswer(deps, remembered.keyId, remembered.key, status, body);
      res.status(status).set("Cache-Control", "no-store").json(body);
    } catch (error) {
      // Our own failure: the key's request may be sent again.
      if (remembered) await keepAnswer(deps, remembered.keyId, remembered.key, 500, null).catch(() => undefined);
      next(error);
    }
  };
  return { deps, keyed };
}
