/**
 * What the studio does with a finished render, over /api/v1 (issue 31, decision 096): re-roll, edits
 * with a mask, the AI upscale and listing exports, each through the capability the web app's
 * procedures call (render.rerender, render.edit, render.upscale, listing.create). Renders and edits
 * ordered here count against the key's renders at once (render-slots.ts).
 */
import express from "express";
import type { z } from "zod";
import { API_BASE } from "../../shared/api";
import { EDIT } from "../../shared/edits";
import { clientAddress } from "../http/identity";
import { notFound } from "../errors";
import type { JobView } from "../render";
import { parsed, SENT, type ApiEdge } from "./edge";
import type { ApiCaller } from "./keys";
import { idParams } from "./openapi-parts";
import { rendersSchema, waitQuerySchema } from "./openapi-render-schemas";
import {
  editCreateSchema,
  editViewSchema,
  listingCreateSchema,
  listingExportSchema,
  listingExportsSchema,
  rerollSchema,
  upscaleViewSchema,
} from "./openapi-studio";
import { publicListingExport, publicRender, waitForJobs, waitForRenders } from "./render-view";
import { withRenderSlots } from "./render-slots";

const PNG_DATA_URL = "data:image/png;base64,";

/** An edit as the API shows it: a render's shape with what it was made from and the instruction. */
async function publicEdit(edge: ApiEdge, caller: ApiCaller, view: JobView): Promise<z.infer<typeof editViewSchema>> {
  if (view.kind !== "edit") throw notFound();
  const tree = await edge.deps.render.versions(caller.owner, view.id);
  const node = tree.nodes.find((found) => found.id === view.id);
  return editViewSchema.parse({ ...publicRender(view), sourceId: node?.parentId ?? null, instruction: node?.instruction ?? null });
}

export function studioRoutes(router: express.Router, edge: ApiEdge): void {
  const { deps, keyed } = edge;
  const json = express.json({ limit: "64kb" });
  // A mask as base64 in JSON: up to EDIT.maskDataUrlMax characters, and the instruction.
  const maskJson = express.json({ limit: EDIT.maskDataUrlMax + 16 * 1024 });
  const id = (req: express.Request) => parsed(idParams, req.params).id;

  router.post(
    `${API_BASE}/renders/:id/reroll`,
    json,
    keyed("renders:write", async (caller, req, res) => {
      const { wait } = parsed(waitQuerySchema, req.query);
      const choice = parsed(rerollSchema, req.body ?? {});
      const jobId = id(req);
      const { jobs } = await withRenderSlots(
        deps,
        caller,
        res,
        1,
        () => deps.render.rerender(caller.owner, jobId, choice, clientAddress(req)),
        (made) => made.jobs.map((job) => job.id),
      );
      res.status(201);
      return rendersSchema.parse({
        renders: await waitForRenders(
          deps,
          caller,
          jobs.map((job) => job.id),
          wait,
        ),
      });
    }),
  );

  router.post(
    `${API_BASE}/renders/:id/edits`,
    maskJson,
    keyed("renders:write", async (caller, req, res) => {
      const { wait } = parsed(waitQuerySchema, req.query);
      const body = parsed(editCreateSchema, req.body);
      const sourceJobId = id(req);
      // The studio sends the mask as a data URL; the API takes plain base64 too.
      const mask = body.mask.startsWith("data:") ? body.mask : `${PNG_DATA_URL}${body.mask}`;
      const { jobId } = await withRenderSlots(
        deps,
        caller,
        res,
        1,
        () => deps.render.edit(caller.owner, { sourceJobId, mask, instruction: body.instruction, preset: body.preset }),
        (made) => [made.jobId],
      );
      const [view] = await waitForJobs(deps, caller, [jobId], wait);
      res.status(201);
      return publicEdit(edge, caller, view!);
    }),
  );

  router.get(
    `${API_BASE}/edits/:id`,
    keyed("renders:read", async (caller, req) => publicEdit(edge, caller, await deps.render.job(caller.owner, id(req)))),
  );

  /** The upscale's state: made (the render's picture is the upscale), or not. */
  const upscaleState = (view: JobView): z.infer<typeof upscaleViewSchema> => {
    const upscaled = view.downloads.find((download) => download.kind === "upscaled");
    return upscaleViewSchema.parse({
      state: upscaled ? "done" : "none",
      available: upscaled !== undefined || (deps.render.engine.capabilities.upscale && view.status === "succeeded"),
      width: upscaled?.width ?? null,
      height: upscaled?.height ?? null,
      model: upscaled?.upscaledWith?.model ?? null,
    });
  };
  router.get(
    `${API_BASE}/renders/:id/upscale`,
    keyed("renders:read", async (caller, req) => upscaleState(await deps.render.job(caller.owner, id(req)))),
  );
  router.post(
    `${API_BASE}/renders/:id/upscale`,
    keyed("renders:write", async (caller, req) => {
      const jobId = id(req);
      await deps.render.upscale(caller.owner, jobId);
      return upscaleState(await deps.render.job(caller.owner, jobId));
    }),
  );

  // Listing exports: of the key's space only (the render is read as the key's first), made by the key's maker.
  router.get(
    `${API_BASE}/renders/:id/listing-exports`,
    keyed("renders:read", async (caller, req) => {
      const jobId = id(req);
      await deps.render.job(caller.owner, jobId);
      return listingExportsSchema.parse({ exports: (await deps.listing.forJob(caller.userId, jobId)).map(publicListingExport) });
    }),
  );
  router.post(
    `${API_BASE}/renders/:id/listing-exports`,
    json,
    keyed("renders:write", async (caller, req, res) => {
      const body = parsed(listingCreateSchema, req.body ?? {});
      const jobId = id(req);
      await deps.render.job(caller.owner, jobId);
      const made = await deps.listing.create(
        caller.userId,
        { jobId, disclosure: body.disclosure, language: body.language ?? caller.language },
        deps.publicBase(req),
      );
      res.status(201);
      return listingExportSchema.parse(publicListingExport(made));
    }),
  );
  router.get(
    `${API_BASE}/listing-exports/:id/image`,
    keyed("renders:read", async (caller, req, res) => {
      const picture = await deps.listing.picture(caller.userId, id(req));
      // The key's space only: the exported render must be one the key sees.
      await deps.render.job(caller.owner, picture.jobId);
      res.status(200).type("image/jpeg").set("Cache-Control", "private, no-store").attachment(picture.fileName).send(picture.data);
      return SENT;
    }),
  );
}
