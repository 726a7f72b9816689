/**
 * A custom style's reference picture (decision 100), over plain HTTP as uploads are (decision 013):
 * PUT /api/styles/<id>/reference with the JPEG or PNG file as the raw body, GET the same path for the
 * JPEG kept. Who asks is read before the body: a visitor gets 401, and a body that says it is over
 * CUSTOM_STYLES.referenceMaxBytes is refused before it is read. The styles module checks, decides
 * who may, and keeps it; this route only carries the bytes.
 */
import express, { type ErrorRequestHandler, type Request, type Response, Router } from "express";
import { CUSTOM_STYLES, customStyleIdSchema } from "../../shared/custom-styles";
import { MESSAGES } from "../../shared/messages";
import type { RateLimits } from "../coordination";
import type { StylesModule } from "../styles";
import { sendDomainError } from "./errors";
import { clientAddress, identifyRequest, type IdentityDeps } from "./identity";

/** Express's pattern of customStyleReferencePath (src/shared/custom-styles.ts). */
const ROUTE = "/api/styles/:id/reference";

type Deps = IdentityDeps & { styles: Pick<StylesModule, "setReference" | "referencePicture">; rateLimits: RateLimits };

/** The signed-in user's id and the style id of the path, or null once the refusal is sent. */
async function caller(deps: Deps, req: Request, res: Response): Promise<{ userId: string; styleId: string } | null> {
  const { user } = await identifyRequest(deps, req, res);
  if (!user) {
    res.status(401).json({ error: MESSAGES.notAuthenticated });
    return null;
  }
  const id = customStyleIdSchema.safeParse(req.params.id);
  if (!id.success) {
    res.status(404).json({ error: MESSAGES.customStyleNotFound });
    return null;
  }
  return { userId: user.id, styleId: id.data };
}

export function styleReferenceRoutes(deps: Deps): Router {
  const routes = Router();

  routes.put(
    ROUTE,
    async (req, res, next) => {
      res.set("Cache-Control", "no-store");
      if (!(await deps.rateLimits.upload.take(clientAddress(req)))) {
        res.status(429).json({ error: MESSAGES.tooManyRequests });
        return;
      }
      // Refuse at once what says it is too big, before reading it.
      if (Number(req.get("content-length") ?? 0) > CUSTOM_STYLES.referenceMaxBytes) {
        res.set("Connection", "close").status(413).json({ error: MESSAGES.customStyleReferenceInvalid });
        return;
      }
      const who = await caller(deps, req, res);
      if (!who) return;
      res.locals.styleCaller = who;
      next();
    },
    express.raw({ type: () => true, limit: CUSTOM_STYLES.referenceMaxBytes }),
    async (req, res) => {
      const { userId, styleId } = res.locals.styleCaller as { userId: string; styleId: string };
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        res.status(200).json(await deps.styles.setReference(userId, styleId, bytes));
      } catch (error) {
        if (!sendDomainError(res, error)) throw error;
      }
    },
  );

  routes.get(ROUTE, async (req, res) => {
    // Private to the style's space: no shared cache keeps it; the browser asks again (ETag) each time.
    res.set("Cache-Control", "private, no-cache");
    const who = await caller(deps, req, res);
    if (!who) return;
    try {
      const picture = await deps.styles.referencePicture(who.userId, who.styleId);
      res.type("image/jpeg").send(picture.data);
    } catch (error) {
      if (!sendDomainError(res, error)) throw error;
    }
  });

  // A body over the limit (sent without a truthful length) ends here, as does one that cannot be read.
  const bodyErrors: ErrorRequestHandler = (error: { type?: string; status?: number }, _req, res, next) => {
    if (error.type === "entity.too.large") res.set("Connection", "close").status(413).json({ error: MESSAGES.customStyleReferenceInvalid });
    else if (error.status && error.status < 500) res.status(400).json({ error: MESSAGES.customStyleReferenceInvalid });
    else next(error);
  };
  routes.use(ROUTE, bodyErrors);
  return routes;
}
