/**
 * The render module's part of housekeeping (the schedule is the housekeeping module's): visitors'
 * demo pictures nobody claimed (and, when the disk runs low, the oldest of them sooner), render
 * events too old for any reconnecting client to ask for, past days' upload budgets, stored files
 * that belong to no upload or render any more, and webhook receipts past the replay window. Each step says how much it removed.
 */
import type { RenderContext } from "./context";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { RENDER } from "../../shared/render";
import { forgetOldUploadBudgets, purgeExpiredVisitorWork, reclaimVisitorSpace } from "./intake";
import { forgetEventsBefore } from "./live";
import { forgetOldWebhookReceipts } from "./webhook-receipts";

const DAY_MS = 86_400_000;

type HousekeepingDeps = Pick<RenderContext, "db" | "clock" | "env" | "storage" | "diskFloor" | "log">;

/** A file younger than this is never an orphan: its row may be on its way (an upload is stored, then recorded). */
const ORPHAN_MIN_AGE_MS = DAY_MS;

export async function runHousekeeping(deps: HousekeepingDeps): Promise<Record<string, number>> {
  const visitorUploads = await purgeExpiredVisitorWork(deps);
  await reclaimVisitorSpace(deps);
  const uploadBudgets = await forgetOldUploadBudgets(deps);
  const events = await forgetEventsBefore(deps.db, deps.clock.now() - RENDER.visitorWorkDays * DAY_MS);
  const orphans = await removeOrphanFiles(deps);
  const webhookReceipts = await forgetOldWebhookReceipts(deps);
  return {
    visitorUploads,
    renderEvents: events,
    uploadBudgets,
    orphanFiles: orphans.files,
    orphanBytes: orphans.bytes,
    webhookReceipts,
  };
}

/**
 * Files under uploads/<id>/ and renders/<id>/ whose upload or render row is gone (a crash between
 * writing a file and recording it, or between removing a row and its files), and self-test probes
 * left behind, once a day old.
 */
export async function removeOrphanFiles(
  deps: Pick<RenderContext, "db" | "clock" | "storage" | "log">,
): Promise<{ files: number; bytes: number }> {
  if (!deps.storage.list) return { files: 0, bytes: 0 };
  const before = deps.clock.now() - ORPHAN_MIN_AGE_MS;
  const candidates = new Map<string, Array<{ key: string; bytes: number }>>();
  for await (const object of deps.storage.list(UPLOAD_BUCKET)) {
    if (object.modifiedAt >= before) continue;
    const [folder, id] = object.key.split("/");
    const owner = folder === "self-test" ? "self-test" : folder === "uploads" || folder === "renders" ? `${folder}/${id}` : null;
    if (!owner) continue;
    const list = candidates.get(owner) ?? [];
    list.push(object);
    candidates.set(owner, list);
  }
  const ids = (folder: string) =>
    [...candidates.keys()].filter((owner) => owner.startsWith(`${folder}/`)).map((owner) => owner.split("/")[1]!);
  const known = new Set<string>();
  for (const [table, folder] of [
    ["uploads", "uploads"],
    ["render_jobs", "renders"],
  ] as const) {
    const wanted = ids(folder);
    for (let start = 0; start < wanted.length; start += 500) {
      const rows = await deps.db
        .selectFrom(table)
        .select("id")
        .where("id", "in", wanted.slice(start, start + 500))
        .execute();
      for (const row of rows) known.add(`${folder}/${row.id}`);
    }
  }
  let files = 0;
  let bytes = 0;
  for (const [owner, objects] of candidates) {
    if (known.has(owner)) continue;
    for (const object of objects) {
      await deps.storage.remove(UPLOAD_BUCKET, object.key);
      files++;
      bytes += object.bytes;
    }
  }
  if (files > 0) deps.log.info("removed stored files that belonged to nothing", { files, bytes });
  return { files, bytes };
}
