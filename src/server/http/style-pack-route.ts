/**
 * Style packs over plain HTTP (decision 104), as the reference picture's route (decision 100):
 * GET /api/styles/pack?teamId=<team>&ids=<cs_…,cs_…> downloads the space's styles (all of them without
 * ids) as a pack file; POST /api/styles/pack?teamId=<team> with the pack as the raw body imports it
 * (no teamId: the caller's personal space). Who asks is read before the body: a visitor gets 401, and
 * a body that says it is over STYLE_PACKS.maxBytes is refused before it is read. The styles module
 * checks the file, decides who may, and keeps the styles; this route only carries the bytes.
 */
import express, { type ErrorRequestHandler, type Request, type Response, Router } from "express";
import { z } from "zod";
import { MESSAGES } from "../../shared/messages";
import { STYLE_PACK_FILE_NAME, STYLE_PACKS, stylePackPath } from "../../shared/style-packs";
import type { RateLimits } from "../coordination";
import type { StylesModule } from "../styles";
import { sendDomainError } from "./errors";
import { clientAddress, identifyRequest, type IdentityDeps } from "./identity";

type Deps = IdentityDeps & { styles: Pick<StylesModule, "exportPack" | "importPack">; rateLimits: RateLimits };

const querySchema = z.object({
  teamId: z.string().min(1).max(64).optional(),
  ids: z
    .string()
    .max(60 * STYLE_PACKS.maxStyles)
    .transform((text) => text.split(",").filter((id) => id.length > 0))
    .pipe(z.array(z.string().max(64)).max(STYLE_PACKS.maxStyles))
    .optional(),
});

interface PackCaller {
  userId: string;
  teamId: string | null;
  ids: string[] | null;
}

/** The signed-in user and the space the query names, or null once the refusal is sent. */
async function caller(deps: Deps, req: Request, res: Response): Promise<PackCaller | null> {
  const { user } = await identifyRequest(deps, req, res);
  if (!user) {
    res.status(401).json({ error: MESSAGES.notAuthenticated });
    return null;
  }
  const query = querySchema.safeParse(req.query);
  if (!query.success) {
    res.status(400).json({ error: MESSAGES.missingRequiredFields });
    return null;
  }
  return { userId: user.id, teamId: query.data.teamId ?? null, ids: query.data.ids ?? null };
}

export function stylePackRoutes(deps: Deps): Router {
  const routes = Router();

  routes.get(stylePackPath, async (req, res) => {
    res.set("Cache-Control", "private, no-store");
    const who = await caller(deps, req, res);
    if (!who) return;
    try {
      const pack = await deps.styles.exportPack(who.userId, who.teamId, who.ids);
      res.type("application/zip").attachment(STYLE_PACK_FILE_NAME).send(pack);
    } catch (error) {
      if (!sendDomainError(res, error)) throw error;
    }
  });

  routes.post(
    stylePackPath,
    async (req, res, next) => {
      res.set("Cache-Control", "no-store");
      if (!(await deps.rateLimits.upload.take(clientAddress(req)))) {
        res.status(429).json({ error: MESSAGES.tooManyRequests });
        return;
      }
      // Refuse at once what says it is too big, before reading it.
      if (Number(req.get("content-length") ?? 0) > STYLE_PACKS.maxBytes) {
        res.set("Connection", "close").status(413).json({ error: MESSAGES.stylePackTooLarge });
        return;
      }
      const who = await caller(deps, req, res);
      if (!who) return;
      res.locals.packCaller = who;
      next();
    },
    express.raw({ type: () => true, limit: STYLE_PACKS.maxBytes }),
    async (req, res) => {
      const { userId, teamId } = res.locals.packCaller as PackCaller;
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        res.status(200).json({ styles: await deps.styles.importPack(userId, teamId, bytes) });
      } catch (error) {
        if (!sendDomainError(res, error)) throw error;
      }
    },
  );

  // A body over the limit (sent without a truthful length) ends here, as does one that cannot be read.
  const bodyErrors: ErrorRequestHandler = (error: { type?: string; status?: number }, _req, res, next) => {
    if (error.type === "entity.too.large") res.set("Connection", "close").status(413).json({ error: MESSAGES.stylePackTooLarge });
    else if (error.status && error.status < 500) res.status(400).json({ error: MESSAGES.stylePackUnreadable });
    else next(error);
  };
  routes.use(stylePackPath, bodyErrors);
  return routes;
}
