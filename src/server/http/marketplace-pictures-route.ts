/**
 * A marketplace listing's cover and example pictures (decision 104), for signed-in users (the
 * marketplace is not public): GET /api/marketplace/<listing>/cover and /examples/<1..6>, a JPEG the
 * marketplace module made clean at publication. A visitor gets 401; an unknown listing or number 404.
 */
import { type Request, type Response, Router } from "express";
import { MARKETPLACE } from "../../shared/marketplace";
import { MESSAGES } from "../../shared/messages";
import type { MarketplaceModule } from "../marketplace";
import { sendDomainError } from "./errors";
import { identifyRequest, type IdentityDeps } from "./identity";

type Deps = IdentityDeps & { marketplace: Pick<MarketplaceModule, "picture"> };

export function marketplacePictureRoutes(deps: Deps): Router {
  const routes = Router();
  const send = (picture: (params: Record<string, string>) => "cover" | number | null) => async (req: Request, res: Response) => {
    // Private to signed-in users; a new version replaces the pictures (the browser asks again each time).
    res.set("Cache-Control", "private, no-cache");
    const { user } = await identifyRequest(deps, req, res);
    if (!user) {
      res.status(401).json({ error: MESSAGES.notAuthenticated });
      return;
    }
    const which = picture(req.params as Record<string, string>);
    if (which === null) {
      res.status(404).json({ error: MESSAGES.notFound });
      return;
    }
    try {
      res.type("image/jpeg").send(await deps.marketplace.picture(String(req.params.id), which));
    } catch (error) {
      if (!sendDomainError(res, error)) throw error;
    }
  };
  routes.get(
    "/api/marketplace/:id/cover",
    send(() => "cover"),
  );
  routes.get(
    "/api/marketplace/:id/examples/:number",
    send(({ number }) => {
      const n = /^[1-9]$/.test(number ?? "") ? Number(number) : 0;
      return n >= 1 && n <= MARKETPLACE.examplesMax ? n : null;
    }),
  );
  return routes;
}
