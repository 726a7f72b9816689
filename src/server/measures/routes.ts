/**
 * The measures module's HTTP route: a version of a photo downloaded with its measures drawn in
 * (`/files/measured/<version id>?lang=<en|es|fr>`), for whoever may use the photo; anyone else gets 404.
 */
import { Router } from "express";
import { SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import { MESSAGES } from "../../shared/messages";
import type { OwnerOfRequest } from "../render";
import { drawMeasures } from "./burn";
import type { MeasuresContext } from "./context";
import { measuresOfPhoto } from "./measures";

export const MEASURED_PICTURE_ROUTE = "/files/measured/:id";

export function measureRoutes(deps: MeasuresContext, ownerOfRequest: OwnerOfRequest): Router {
  const routes = Router();
  routes.get(MEASURED_PICTURE_ROUTE, async (req, res) => {
    const owner = await ownerOfRequest(req, res);
    const picture = owner ? await deps.photos.picture(owner, String(req.params.id)).catch(() => null) : null;
    if (!owner || !picture) {
      res.status(404).json({ error: MESSAGES.notFound });
      return;
    }
    const language: Language = SUPPORTED_LANGUAGES.includes(req.query.lang as Language) ? (req.query.lang as Language) : "en";
    const measures = await measuresOfPhoto(deps, owner, picture.uploadId);
    const data = await drawMeasures(picture.data, measures, language);
    res.set("Cache-Control", "private, no-cache");
    res.type("image/jpeg");
    res.attachment(`${picture.name}-${String(req.params.id).slice(0, 8)}-measured.jpg`);
    res.send(data);
  });
  return routes;
}
