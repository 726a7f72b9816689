/**
 * /api/v1 over HTTP (issue 31, decision 094): a bearer API key, never cookies (so browsers' CSRF
 * rules do not apply and a signed-in browser cannot call it by accident); every answer JSON; every
 * error `{ "error": { "code", "message" } }` with its status, mapped once here. Routes validate,
 * check the key's scope, and call a capability.
 */
import express, { type NextFunction, type Request, type Response } from "express";
import type { z } from "zod";
import { API_BASE, type ApiScope } from "../../shared/api";
import { englishMessage, MESSAGES, readMessage } from "../../shared/messages";
import { MINUTE_MS, UPLOAD } from "../../shared/constants";
import { isFinalStatus, RENDER_MODES, type JobStatus } from "../../shared/render";
import { DESIGN_STYLES, INPUT_MODES, ROOM_TYPES } from "../../shared/styles";
import { DomainError } from "../errors";
import { HTTP_STATUS } from "../http/errors";
import { clientAddress } from "../http/identity";
import type { JobView } from "../render";
import type { ApiContext } from "./context";
import { IDEMPOTENCY_KEY, keepAnswer, rememberRequest, requestHash } from "./idempotency";
import { authenticateApiKey, type ApiCaller } from "./keys";
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

type Handler = (caller: ApiCaller, req: Request, res: Response) => Promise<unknown>;

/** A handler that has answered itself (a picture). */
const SENT = Symbol("sent");

/** A request that breaks its schema: 400 with the first rule's message. */
class ApiInputError extends Error {}

/** A message in English: a keyed one (with parameters) filled in. */
function english(text: string): string {
  const keyed = readMessage(text);
  return keyed ? englishMessage(keyed) : text;
}

function isoOrNull(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

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

/** A page's end as an opaque cursor: the last render's time and id (keyset pagination). */
function writeCursor(at: { createdAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([at.createdAt, at.id])).toString("base64url");
}

function readCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "number" && Number.isSafeInteger(createdAt) && typeof id === "string" && id.length <= 64)
      return { createdAt, id };
  } catch {
    // Not ours: refused below.
  }
  throw new ApiInputError(MESSAGES.apiCursorInvalid);
}

/** The picture's type by its first bytes (stored pictures are JPEG, PNG or WebP). */
function pictureType(data: Buffer): string {
  if (data[0] === 0x89 && data[1] === 0x50) return "image/png";
  if (data.subarray(0, 4).toString("latin1") === "RIFF") return "image/webp";
  return "image/jpeg";
}

/** The answer to an expected refusal (bad input, a domain rule), or null for anything else. */
function refusalOf(error: unknown): { status: number; body: { error: { code: string; message: string } } } | null {
  if (error instanceof ApiInputError) return { status: 400, body: { error: { code: "invalid", message: error.message } } };
  if (error instanceof DomainError)
    return { status: HTTP_STATUS[error.kind], body: { error: { code: error.kind, message: english(error.message) } } };
  return null;
}

function sendError(res: Response, status: number, code: string, message: string) {
  res.status(status).set("Cache-Control", "no-store").json({ error: { code, message } });
}

export function apiRoutes(deps: ApiContext, version: string): express.Router {
  const router = express.Router();

  router.get(`${API_BASE}/openapi.json`, (_req, res) => {
    res.set("Cache-Control", "no-cache").json(openApiDocument(version));
  });

  /**
   * A route for callers with a valid key (and the scope, when one is named). A POST with an
   * Idempotency-Key is answered once: its first answer is kept and given again (idempotency.ts).
   */
  const keyed =
    (scope: ApiScope | null, handler: Handler) =>
    async (req: Request, res: Response, next: NextFunction): Promise<void> => {
      let remembered: { keyId: string; key: string } | null = null;
      try {
        const header = req.get("authorization") ?? "";
        const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
        if (!token) return sendError(res, 401, "unauthenticated", MESSAGES.apiKeyMissing);
        const caller = await authenticateApiKey(deps, token);
        if (!caller) return sendError(res, 401, "unauthenticated", MESSAGES.apiKeyInvalid);
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
          return sendError(res, 403, "forbidden", englishMessage({ key: "apiScopeMissing", params: { scope } }));
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
          const refusal = refusalOf(error);
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

  /** The request's part checked by its schema; a refusal names the first rule broken. */
  const parsed = <T extends z.ZodType>(schema: T, value: unknown): z.infer<T> => {
    const result = schema.safeParse(value);
    if (!result.success) throw new ApiInputError(result.error.issues[0]?.message ?? MESSAGES.missingRequiredFields);
    return result.data;
  };

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
