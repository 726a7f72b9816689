/**
 * The published pictures' one route (decision 102): GET /files/published/<id>/<before|after|card> (the
 * share card: decision 106), for anyone while the publication is published and not hidden; 404
 * otherwise. "no-cache": a browser asks again each time (an ETag makes that cheap), so an unpublished
 * or hidden picture is gone at once.
 */
import { Router, type Response } from "express";
import { MESSAGES } from "../../shared/messages";
import { DomainError } from "../errors";
import type { CommunityContext } from "./context";
import { publicationFile } from "./publications";

function notFound(res: Response): void {
  res.status(404).json({ error: MESSAGES.notFound });
}

export function communityRoutes(deps: CommunityContext): Router {
  const routes = Router();
  routes.get("/files/published/:id/:variant", async (req, res) => {
    try {
      const data = await publicationFile(deps, String(req.params.id), String(req.params.variant));
      res.set("Cache-Control", "public, no-cache");
      res.type("image/jpeg");
      res.send(data);
    } catch (error) {
      if (error instanceof DomainError && error.kind === "not-found") return notFound(res);
      throw error;
    }
  });
  return routes;
}
