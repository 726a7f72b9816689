/**
 * The review module's HTTP routes, public (no sign-in, no cookie read or set): the client's page
 * /review/<token> is the app's page, answered with status 404 once the link is revoked or expired
 * (the app's page then says it is no longer available); and the link's pictures, 404 likewise.
 */
import { Router, type Response } from "express";
import { SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import type { ReviewContext } from "./context";
import { liveLink, pictureFile } from "./links";

/** Not for search engines or referrer logs; revalidated each time so a revoke or a decision shows at once. */
function publicHeaders(res: Response): void {
  res.set({ "Referrer-Policy": "no-referrer", "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-cache" });
}

const languageOf = (value: unknown): Language => (SUPPORTED_LANGUAGES.includes(value as Language) ? (value as Language) : "en");

/** res.locals.pageStatus: the status the app's page answers with (app.ts reads it). */
export function reviewRoutes(deps: ReviewContext): Router {
  const routes = Router();

  routes.get("/review/:token", async (req, res, next) => {
    publicHeaders(res);
    if (!(await liveLink(deps, req.params.token))) res.locals.pageStatus = 404;
    next();
  });

  routes.get("/files/review/:token/:jobId/:side", async (req, res) => {
    const picture = await pictureFile(deps, req.params.token, req.params.jobId, req.params.side, languageOf(req.query.lang));
    publicHeaders(res);
    if (!picture) {
      res.status(404).type("text").send("Not found");
      return;
    }
    res.type("image/jpeg").send(picture);
  });

  return routes;
}
