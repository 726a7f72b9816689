/**
 * Listing videos (issue 33): a user orders a video of a project's renders; it waits in this
 * process's queue (one made at a time: ffmpeg uses both cores), is made by makeListingVideo with its
 * progress stored and sent to whoever follows it, can be canceled queued or while it is made, and is
 * stored for download. Each picture is the render over the photo it was made from, captioned with
 * its disclosure (the render's current listing export's, else the default for its mode).
 *
 * A video being made when the process stops is queued again at the next start (of any process on the
 * database; one claims it). A process makes the videos ordered through it and those it finds queued
 * when it starts.
 */
import { generateSecureRandomString } from "../auth/tokens";
import { UPLOAD_BUCKET, type Language } from "../../shared/constants";
import { defaultDisclosure } from "../../shared/listing";
import type { ListingVideoRequest } from "../../shared/listing-video";
import { MESSAGES } from "../../shared/messages";
import type { ListingVideosTable } from "../db/schema";
import type { Selectable } from "kysely";
import { DomainError, notFound } from "../errors";
import { userOwner } from "../render";
import type { ListingContext } from "./context";
import { makeListingVideo, type VideoPicture } from "./video";

type VideoRow = Selectable<ListingVideosTable>;
/** Whose project a listing export's public page belongs to. */
type ListingPageOwner = { user_id: string | null; project_id: string | null };

/** What the owner sees of a video. */
export interface ListingVideoView {
  id: string;
  projectId: string;
  format: "landscape" | "portrait";
  seconds: number;
  pictures: number;
  status: VideoRow["status"];
  progress: number;
  error: string | null;
  /** Where it plays and downloads once made. */
  url: string | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  createdAt: number;
  finishedAt: number | null;
  /** Shown on the public pages of the project's listing exports. */
  onListingPages: boolean;
}

export const VIDEO_ROUTES = { file: (id: string) => `/files/listing/videos/${id}/video.mp4` } as const;

/** Progress is written to the row (and sent) at most this often. */
const PROGRESS_EVERY_MS = 500;
/** A video "making" whose row has not moved for this long was left by a process that stopped. */
const STALE_MAKING_MS = 60_000;

const viewOf = (row: VideoRow): ListingVideoView => ({
  id: row.id,
  projectId: row.project_id,
  format: row.format,
  seconds: row.seconds,
  pictures: (JSON.parse(row.job_ids) as string[]).length,
  status: row.status,
  progress: row.progress,
  error: row.error,
  url: row.status === "succeeded" && row.file_key ? VIDEO_ROUTES.file(row.id) : null,
  width: row.width,
  height: row.height,
  bytes: row.bytes,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  onListingPages: row.on_listing_pages === 1,
});

export function createVideoMaker(deps: ListingContext, options: { make?: typeof makeListingVideo } = {}) {
  const make = options.make ?? makeListingVideo;
  const waiting: string[] = [];
  let running: { id: string; controller: AbortController; done: Promise<void> } | null = null;
  let stopped = false;
  const followers = new Map<string, Set<(view: ListingVideoView) => void>>();

  const rowOf = (id: string) => deps.db.selectFrom("listing_videos").selectAll().where("id", "=", id).executeTakeFirst();
  async function owned(userId: string, id: string): Promise<VideoRow> {
    const row = await rowOf(id);
    if (!row || row.user_id !== userId) throw notFound();
    return row;
  }
  async function update(id: string, changes: Partial<Omit<VideoRow, "id">>): Promise<void> {
    await deps.db
      .updateTable("listing_videos")
      .set({ ...changes, updated_at: deps.clock.now() })
      .where("id", "=", id)
      .execute();
    const row = await rowOf(id);
    if (row) for (const follower of followers.get(id) ?? []) follower(viewOf(row));
  }

  /** The file of the video its owner shows on the public pages of the export's project, if any. */
  async function listingPageVideoKey(exported: ListingPageOwner): Promise<string | null> {
    if (!exported.user_id || !exported.project_id) return null;
    const row = await deps.db
      .selectFrom("listing_videos")
      .select("file_key")
      .where("user_id", "=", exported.user_id)
      .where("project_id", "=", exported.project_id)
      .where("on_listing_pages", "=", 1)
      .where("status", "=", "succeeded")
      .executeTakeFirst();
    return row?.file_key ?? null;
  }

  /** The pictures of a video: each render over its photo, with its disclosure. */
  async function picturesOf(row: VideoRow): Promise<VideoPicture[]> {
    const pictures: VideoPicture[] = [];
    for (const jobId of JSON.parse(row.job_ids) as string[]) {
      const source = await deps.render.listingSource(userOwner(row.user_id), jobId);
      const [after, before] = await Promise.all([
        deps.storage.get(UPLOAD_BUCKET, source.resultKey),
        deps.storage.get(UPLOAD_BUCKET, source.originalKey),
      ]);
      if (!after || !before) throw new Error("a picture of the video is gone");
      const exported = await deps.db
        .selectFrom("listing_exports")
        .select("disclosure")
        .where("job_id", "=", jobId)
        .where("revoked_at", "is", null)
        .orderBy("created_at", "desc")
        .executeTakeFirst();
      pictures.push({
        before: before.data,
        after: after.data,
        caption: exported?.disclosure ?? defaultDisclosure(row.language as Language, source.renderMode),
      });
    }
    return pictures;
  }

  async function makeOne(id: string, controller: AbortController): Promise<void> {
    const row = await rowOf(id);
    if (!row) return;
    // Claimed by one process only (several may share the database).
    const claimed = await deps.db
      .updateTable("listing_videos")
      .set({ status: "making", progress: 0, updated_at: deps.clock.now() })
      .where("id", "=", id)
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    await update(id, {});
    let lastWrite = 0;
    try {
      const pictures = await picturesOf(row);
      const made = await make(
        { pictures, format: row.format, seconds: row.seconds, brand: deps.brandName() },
        {
          signal: controller.signal,
          onProgress: (fraction) => {
            const now = deps.clock.now();
            if (now - lastWrite < PROGRESS_EVERY_MS && fraction < 1) return;
            lastWrite = now;
            void update(id, { progress: Math.round(fraction * 1000) / 1000 }).catch(() => undefined);
          },
        },
      );
      const key = `listing/videos/${id}.mp4`;
      await deps.diskFloor.ensureRoom();
      await deps.storage.put(UPLOAD_BUCKET, key, made.data, "video/mp4");
      await update(id, {
        status: "succeeded",
        progress: 1,
        file_key: key,
        bytes: made.data.length,
        width: made.width,
        height: made.height,
        frames: made.frames,
        finished_at: deps.clock.now(),
      });
    } catch (error) {
      if (controller.signal.aborted) {
        // Canceled by its owner; a stop of the process leaves it queued for the next start.
        if (!stopped) await update(id, { status: "canceled", finished_at: deps.clock.now() });
        else await update(id, { status: "queued", progress: 0 });
        return;
      }
      deps.log.warn("a listing video could not be made", { videoId: id, error });
      await update(id, { status: "failed", error: MESSAGES.videoFailed, finished_at: deps.clock.now() });
    }
  }

  function next(): void {
    if (running || stopped) return;
    const id = waiting.shift();
    if (!id) return;
    const controller = new AbortController();
    const done = makeOne(id, controller)
      .catch((error: unknown) => deps.log.error("the listing video queue failed", { videoId: id, error }))
      .finally(() => {
        running = null;
        next();
      });
    running = { id, controller, done };
  }

  return {
    /** Checks every render (the user's, finished, of the project), then queues the video. */
    async create(userId: string, input: ListingVideoRequest & { language: Language }): Promise<ListingVideoView> {
      for (const jobId of input.jobIds) {
        const source = await deps.render.listingSource(userOwner(userId), jobId);
        if (source.projectId !== input.projectId) throw new DomainError("invalid", "videoPictureNotInProject");
      }
      const now = deps.clock.now();
      const row: Omit<VideoRow, "on_listing_pages"> = {
        id: generateSecureRandomString(),
        user_id: userId,
        project_id: input.projectId,
        job_ids: JSON.stringify(input.jobIds),
        format: input.format,
        seconds: input.seconds,
        language: input.language,
        status: "queued",
        progress: 0,
        error: null,
        file_key: null,
        bytes: null,
        width: null,
        height: null,
        frames: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      };
      await deps.db.insertInto("listing_videos").values(row).execute();
      waiting.push(row.id);
      next();
      return viewOf({ ...row, on_listing_pages: 0 });
    },
    view: async (userId: string, id: string) => viewOf(await owned(userId, id)),
    /** The user's videos of a project, newest first. */
    async list(userId: string, projectId: string): Promise<ListingVideoView[]> {
      const rows = await deps.db
        .selectFrom("listing_videos")
        .selectAll()
        .where("user_id", "=", userId)
        .where("project_id", "=", projectId)
        .orderBy("created_at", "desc")
        .limit(20)
        .execute();
      return rows.map(viewOf);
    },
    /** Stops a video queued or being made; one already ended is left as it is. */
    async cancel(userId: string, id: string): Promise<ListingVideoView> {
      const row = await owned(userId, id);
      if (running?.id === id) {
        running.controller.abort(new Error("canceled"));
        await running.done;
      } else if (row.status === "queued") {
        waiting.splice(waiting.indexOf(id), 1);
        await update(id, { status: "canceled", finished_at: deps.clock.now() });
      }
      return viewOf(await owned(userId, id));
    },
    /**
     * Shows a made video on the public pages of its project's listing exports, or stops showing it;
     * one video per project is shown (showing one hides the others).
     */
    async setOnListingPages(userId: string, id: string, on: boolean): Promise<ListingVideoView> {
      const row = await owned(userId, id);
      if (on && row.status !== "succeeded") throw new DomainError("conflict", "videoNotMade");
      await deps.db.transaction().execute(async (trx) => {
        if (on)
          await trx
            .updateTable("listing_videos")
            .set({ on_listing_pages: 0 })
            .where("user_id", "=", userId)
            .where("project_id", "=", row.project_id)
            .execute();
        await trx
          .updateTable("listing_videos")
          .set({ on_listing_pages: on ? 1 : 0, updated_at: deps.clock.now() })
          .where("id", "=", id)
          .execute();
      });
      return viewOf(await owned(userId, id));
    },
    /** The video a listing export's public page shows: its owner's chosen video of its project, if any. */
    async ofListingPage(exported: ListingPageOwner): Promise<Buffer | null> {
      const fileKey = await listingPageVideoKey(exported);
      return fileKey ? ((await deps.storage.get(UPLOAD_BUCKET, fileKey))?.data ?? null) : null;
    },
    /** Whether a listing export's public page has a video to show (without reading the file). */
    listingPageHasVideo: async (exported: ListingPageOwner): Promise<boolean> => (await listingPageVideoKey(exported)) !== null,
    /** The video's file, for its owner. */
    async file(userId: string, id: string): Promise<Buffer> {
      const row = await owned(userId, id);
      const stored = row.file_key ? await deps.storage.get(UPLOAD_BUCKET, row.file_key) : null;
      if (!stored) throw notFound();
      return stored.data;
    },
    /** Each change of the video (its progress, its end), for its owner, until `signal` ends. */
    async *follow(userId: string, id: string, signal?: AbortSignal): AsyncGenerator<ListingVideoView> {
      yield viewOf(await owned(userId, id));
      const queue: ListingVideoView[] = [];
      let wake: (() => void) | null = null;
      const follower = (view: ListingVideoView) => {
        queue.push(view);
        wake?.();
      };
      const set = followers.get(id) ?? new Set();
      set.add(follower);
      followers.set(id, set);
      const onAbort = () => wake?.();
      signal?.addEventListener("abort", onAbort);
      try {
        while (!signal?.aborted) {
          const view = queue.shift();
          if (!view) {
            await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
            continue;
          }
          yield view;
          if (view.status === "succeeded" || view.status === "failed" || view.status === "canceled") return;
        }
      } finally {
        signal?.removeEventListener("abort", onAbort);
        set.delete(follower);
        if (set.size === 0) followers.delete(id);
      }
    },
    /**
     * Queues again what a stopped process was making (its progress not written for a minute: a live
     * maker writes it every half second) and takes up what is queued.
     */
    async start(): Promise<void> {
      await deps.db
        .updateTable("listing_videos")
        .set({ status: "queued", progress: 0 })
        .where("status", "=", "making")
        .where("updated_at", "<", deps.clock.now() - STALE_MAKING_MS)
        .execute();
      const rows = await deps.db.selectFrom("listing_videos").select("id").where("status", "=", "queued").orderBy("created_at").execute();
      for (const row of rows) if (!waiting.includes(row.id) && running?.id !== row.id) waiting.push(row.id);
      next();
    },
    /** Stops the video being made (it is queued again at the next start). */
    async stop(): Promise<void> {
      stopped = true;
      waiting.length = 0;
      if (running) {
        running.controller.abort(new Error("stopping"));
        await running.done;
      }
    },
  };
}

export type VideoMaker = ReturnType<typeof createVideoMaker>;
