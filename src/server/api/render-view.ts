/**
 * A render as the API shows it (decision 094), and waiting for renders to end (`?wait=`): shared by
 * every group of routes that makes or shows renders (routes.ts, routes-studio.ts).
 */
import type { z } from "zod";
import { API_BASE } from "../../shared/api";
import { isFinalStatus, type JobStatus } from "../../shared/render";
import type { JobView } from "../render";
import type { ApiContext, ApiListingExportView } from "./context";
import { isoOrNull } from "./edge";
import type { ApiCaller } from "./keys";
import type { renderViewSchema } from "./openapi-render-schemas";
import type { listingExportSchema } from "./openapi-studio";

export /** A render as the API shows it: its own shape, not the web app's. */
function publicRender(view: JobView): z.infer<typeof renderViewSchema> {
  return {
    id: view.id,
    status: view.status,
    imageId: view.uploadId,
    projectId: view.projectId,
    style: view.style,
    styleName: view.styleName,
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

/** Waits until every job has ended or the time is up, on the jobs' own events; then reads them again. */
export async function waitForJobs(deps: ApiContext, caller: ApiCaller, ids: readonly string[], seconds: number): Promise<JobView[]> {
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
  return views;
}

/** The renders as the API shows them, once ended or the time is up. */
export async function waitForRenders(deps: ApiContext, caller: ApiCaller, ids: readonly string[], seconds: number) {
  return (await waitForJobs(deps, caller, ids, seconds)).map(publicRender);
}

/** A listing export as the API shows it (its routes, and the listing.created webhook). */
export function publicListingExport(view: ApiListingExportView): z.infer<typeof listingExportSchema> {
  return {
    id: view.id,
    renderId: view.jobId,
    disclosure: view.disclosure,
    language: view.language,
    publicUrl: view.publicUrl,
    imageUrl: `${API_BASE}/listing-exports/${encodeURIComponent(view.id)}/image`,
    width: view.width,
    height: view.height,
    createdAt: new Date(view.createdAt).toISOString(),
  };
}
