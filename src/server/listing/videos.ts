/**
 * Listing videos (issue 33): a user orders a video of a project's renders; it waits in this
 * process's queue (one made at a time: ffmpeg uses both cores), is made by makeListingVideo with its
 * progress stored and sent to whoever follows it, can be canceled queued or while it is made, and is
 * stored for download. Each picture is the render over the photo it was made from, captioned with
 * its disclosure (the render's current listing export's, else the default for its mode).
 *
 * A video being made when the process stops is queued again at the next start (of any process on the
 * database; one claims it). A process makes the videos ordered through it and those it finds queued
 * when it starts. With several processes on one PostgreSQL database, each change of a video is
 * announced to the others (NOTIFY), whose followers then read the row; a cancel reaches the process
 * making the video the same way.
 *
 * A video of a team's project is the team's (decision 112): every current member sees it, follows
 * it and plays it; its author, the team's Owner and Admins cancel it and choose whether the listing
 * pages show it. Membership is asked on every call (decision 070).
 */
import { generateSecureRandomString } from "../auth/tokens";
import type { CrossInstanceChannel } from "../coordination";
import { roleMay } from "../../shared/teams";
import { UPLOAD_BUCKET, type Language } from "../../shared/constants";
import { defaultDisclosure } from "../../shared/listing";
import type { ListingVideoRequest } from "../../shared/listing-video";
import { MESSAGES } from "../../shared/messages";
import type { ListingVideosTable } from "../db/schema";
import type { Selectable } from "kysely";
import { DomainError, notFound } from "../errors";
import { userOwner } from "../render";
import type { ListingContext } from "./context";
import { makeListingVideo, VideoTooLargeError, type VideoPicture } from "./video";

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
  /** Whether the viewer may cancel it and choose the listing pages' video (its author; a team's Owner and Admins). */
  mayManage: boolean;
}

export const VIDEO_ROUTES = { file: (id: string) => `/files/listing/videos/${id}/video.mp4` } as const;

/** Progress is written to the row (and sent) at most this often. */
const PROGRESS_EVERY_MS = 500;
/** A video "making" whose row has not moved for this long was left by a process that stopped. */
const STALE_MAKING_MS = 60_000;
/** Between processes on one PostgreSQL database: "this video changed" and "cancel this video". */
export const VIDEO_CHANNEL = "listing_videos";
type VideoMessage = { i: string; id: string; cancel?: true };

const viewOf = (row: VideoRow, mayManage: boolean): ListingVideoView => ({
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
  mayManage,
});

export function createVideoMaker(
  deps: ListingContext,
  options: { make?: typeof makeListingVideo; crossInstance?: CrossInstanceChannel | null } = {},
) {
  const make = options.make ?? makeListingVideo;
  const others = options.crossInstance ?? null;
  const waiting: string[] = [];
  let running: { id: string; controller: AbortController; done: Promise<void> } | null = null;
  let stopped = false;
  /** This process's followers of each video: told that it changed, they read it again. */
  const followers = new Map<string, Set<() => void>>();
  /** The same followers of a team's videos, by "<team>|<user>": a member removed reads again at once (and is refused). */
  const teamViewers = new Map<string, Set<() => void>>();

  const rowOf = (id: string) => deps.db.selectFrom("listing_videos").selectAll().where("id", "=", id).executeTakeFirst();
  /** The user's role in the team, or null (no team module: no member). */
  const roleIn = async (userId: string, teamId: string) => (deps.teams ? deps.teams.roleIn(userId, teamId) : null);
  /**
   * The video when the user may see it, else "Not found": their own of a personal project, or any
   * of a team's project while they are its member. `mayManage`: its author, or the team's Owner or an Admin.
   */
  async function access(userId: string, id: string): Promise<{ row: VideoRow; mayManage: boolean }> {
    const row = await rowOf(id);
    if (!row) throw notFound();
    if (row.team_id === null) {
      if (row.user_id !== userId) throw notFound();
      return { row, mayManage: true };
    }
    const role = await roleIn(userId, row.team_id);
    if (role === null) throw notFound();
    return { row, mayManage: row.user_id === userId || roleMay(role, "manageMembers") };
  }
  /** The video when the user may manage it; a member who may only see it is told their role does not allow it. */
  async function managed(userId: string, id: string): Promise<VideoRow> {
    const { row, mayManage } = await access(userId, id);
    if (!mayManage) throw new DomainError("forbidden", "teamRightMissing");
    return row;
  }
  const viewFor = async (userId: string, id: string) => {
    const { row, mayManage } = await access(userId, id);
    return viewOf(row, mayManage);
  };
  /** Tells this process's followers of the video that it changed (or is gone). */
  function deliver(id: string): void {
    for (const follower of followers.get(id) ?? []) follower();
  }
  async function update(id: string, changes: Partial<Omit<VideoRow, "id">>): Promise<void> {
    await deps.db
      .updateTable("listing_videos")
      .set({ ...changes, updated_at: deps.clock.now() })
      .where("id", "=", id)
      .execute();
    deliver(id);
    // notify() logs a failure itself; the others' followers then see the change at its next update.
    if (others) await others.notify(VIDEO_CHANNEL, JSON.stringify({ i: others.instance, id } satisfies VideoMessage));
  }
  /** Stops the video if this process is making it; true when it was. */
  async function abortHere(id: string): Promise<boolean> {
    if (running?.id !== id) return false;
    running.controller.abort(new Error("canceled"));
    await running.done;
    return true;
  }
  others?.subscribe(VIDEO_CHANNEL, (payload) => {
    const message = JSON.parse(payload) as VideoMessage;
    if (message.i === others.instance) return;
    if (!message.cancel) return deliver(message.id);
    abortHere(message.id).catch((error: unknown) => deps.log.warn("could not stop a listing video another instance canceled", { error }));
  });
  // Changes sent while this process did not listen are read again from the rows.
  others?.onConnected((reconnected) => {
    if (reconnected) for (const id of followers.keys()) deliver(id);
  });

  /**
   * The file of the video shown on the public pages of the export's project, if any: its owner's
   * choice, or for a team's project the team's (any member's video, chosen by one who may manage it).
   */
  async function listingPageVideoKey(exported: ListingPageOwner): Promise<string | null> {
    if (!exported.user_id || !exported.project_id) return null;
    const author = exported.user_id;
    const row = await deps.db
      .selectFrom("listing_videos")
      .select("file_key")
      .where((eb) => eb.or([eb("team_id", "is not", null), eb("user_id", "=", author)]))
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
      if (error instanceof VideoTooLargeError) {
        await update(id, { status: "failed", error: MESSAGES.videoTooLarge, finished_at: deps.clock.now() });
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

  /** Stops a video queued or being made (here or by another process); one already ended is left as it is. */
  async function cancelVideo(row: VideoRow): Promise<void> {
    const id = row.id;
    if (await abortHere(id)) return; // made here: stopped, and marked canceled by makeOne
    if (row.status === "queued") {
      const index = waiting.indexOf(id);
      if (index >= 0) waiting.splice(index, 1);
      // Another process may hold it in its queue: it claims only a row still queued.
      await update(id, { status: "canceled", finished_at: deps.clock.now() });
    } else if (row.status === "making" && others) {
      // Made by another process: it stops and marks it canceled, which followers then see.
      await others.notify(VIDEO_CHANNEL, JSON.stringify({ i: others.instance, id, cancel: true } satisfies VideoMessage));
    }
  }

  return {
    /** Checks every render (one the user may use, finished, of the project), then queues the video. */
    async create(userId: string, input: ListingVideoRequest & { language: Language }): Promise<ListingVideoView> {
      let teamId: string | null = null;
      for (const jobId of input.jobIds) {
        const source = await deps.render.listingSource(userOwner(userId), jobId);
        if (source.projectId !== input.projectId) throw new DomainError("invalid", "videoPictureNotInProject");
        teamId = source.teamId;
      }
      const now = deps.clock.now();
      const row: Omit<VideoRow, "on_listing_pages"> = {
        id: generateSecureRandomString(),
        user_id: userId,
        team_id: teamId,
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
      return viewOf({ ...row, on_listing_pages: 0 }, true);
    },
    view: viewFor,
    /** The videos of a project the user may see (theirs; every member's of a team's project), newest first. */
    async list(userId: string, projectId: string): Promise<ListingVideoView[]> {
      const rows = await deps.db
        .selectFrom("listing_videos")
        .selectAll()
        .where("project_id", "=", projectId)
        .where((eb) => eb.or([eb("user_id", "=", userId), eb("team_id", "is not", null)]))
        .orderBy("created_at", "desc")
        .orderBy("id")
        .limit(20)
        .execute();
      const roles = new Map<string, Awaited<ReturnType<typeof roleIn>>>();
      for (const teamId of new Set(rows.flatMap((row) => (row.team_id ? [row.team_id] : []))))
        roles.set(teamId, await roleIn(userId, teamId));
      return rows.flatMap((row) => {
        if (row.team_id === null) return [viewOf(row, true)];
        const role = roles.get(row.team_id) ?? null;
        return role === null ? [] : [viewOf(row, row.user_id === userId || roleMay(role, "manageMembers"))];
      });
    },
    /** Stops a video queued or being made (here or by another process); one already ended is left as it is. */
    cancel: async (userId: string, id: string): Promise<ListingVideoView> => {
      await cancelVideo(await managed(userId, id));
      return viewFor(userId, id);
    },
    /**
     * Deletes a video for good: stopped first if it is queued or being made, then its file and its
     * row (a file another process writes after this is swept with the orphans: removeOrphanVideos).
     */
    async remove(userId: string, id: string): Promise<void> {
      const row = await managed(userId, id);
      if (row.status === "queued" || row.status === "making") await cancelVideo(row);
      const index = waiting.indexOf(id);
      if (index >= 0) waiting.splice(index, 1);
      if (row.file_key) await deps.storage.remove(UPLOAD_BUCKET, row.file_key);
      await deps.db.deleteFrom("listing_videos").where("id", "=", id).execute();
      // Its followers find it gone, and their streams end.
      deliver(id);
    },
    /**
     * Shows a made video on the public pages of its project's listing exports, or stops showing it;
     * one video per project is shown (showing one hides the others).
     */
    async setOnListingPages(userId: string, id: string, on: boolean): Promise<ListingVideoView> {
      const row = await managed(userId, id);
      if (on && row.status !== "succeeded") throw new DomainError("conflict", "videoNotMade");
      await deps.db.transaction().execute(async (trx) => {
        // A project's videos are one owner's, or one team's: one of them is shown.
        if (on) await trx.updateTable("listing_videos").set({ on_listing_pages: 0 }).where("project_id", "=", row.project_id).execute();
        await trx
          .updateTable("listing_videos")
          .set({ on_listing_pages: on ? 1 : 0, updated_at: deps.clock.now() })
          .where("id", "=", id)
          .execute();
      });
      return viewFor(userId, id);
    },
    /** The video a listing export's public page shows: its owner's chosen video of its project, if any. */
    async ofListingPage(exported: ListingPageOwner): Promise<Buffer | null> {
      const fileKey = await listingPageVideoKey(exported);
      return fileKey ? ((await deps.storage.get(UPLOAD_BUCKET, fileKey))?.data ?? null) : null;
    },
    /** Whether a listing export's public page has a video to show (without reading the file). */
    listingPageHasVideo: async (exported: ListingPageOwner): Promise<boolean> => (await listingPageVideoKey(exported)) !== null,
    /** The video's file, for whoever may see it. */
    async file(userId: string, id: string): Promise<Buffer> {
      const { row } = await access(userId, id);
      const stored = row.file_key ? await deps.storage.get(UPLOAD_BUCKET, row.file_key) : null;
      if (!stored) throw notFound();
      return stored.data;
    },
    /**
     * Each change of the video (its progress, its end), for whoever may see it, until `signal` ends;
     * a member removed from the video's team meanwhile gets nothing more.
     */
    async *follow(userId: string, id: string, signal?: AbortSignal): AsyncGenerator<ListingVideoView> {
      const first = await access(userId, id);
      yield viewOf(first.row, first.mayManage);
      let changed = false;
      let wake: (() => void) | null = null;
      const follower = () => {
        changed = true;
        wake?.();
      };
      const set = followers.get(id) ?? new Set();
      set.add(follower);
      followers.set(id, set);
      const viewer = first.row.team_id ? `${first.row.team_id}|${userId}` : null;
      if (viewer) teamViewers.set(viewer, (teamViewers.get(viewer) ?? new Set()).add(follower));
      const onAbort = () => wake?.();
      signal?.addEventListener("abort", onAbort);
      try {
        while (!signal?.aborted) {
          if (!changed) {
            await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
            continue;
          }
          // The row as it is now (the latest state is what matters), and only while the user may still see it.
          changed = false;
          const view = await viewFor(userId, id).catch(() => null);
          if (view === null) return;
          yield view;
          if (view.status === "succeeded" || view.status === "failed" || view.status === "canceled") return;
        }
      } finally {
        signal?.removeEventListener("abort", onAbort);
        set.delete(follower);
        if (set.size === 0) followers.delete(id);
        const viewing = viewer ? teamViewers.get(viewer) : undefined;
        viewing?.delete(follower);
        if (viewer && viewing?.size === 0) teamViewers.delete(viewer);
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
    /** A member left or was removed from the team: their open streams of its videos end now. */
    dismiss(teamId: string, userId: string): void {
      for (const follower of teamViewers.get(`${teamId}|${userId}`) ?? []) follower();
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

/** A personal project moved into a team (its pictures became the team's): its videos become the team's too. */
export async function moveVideosToTeam(deps: Pick<ListingContext, "db">, projectId: string, teamId: string): Promise<void> {
  await deps.db.updateTable("listing_videos").set({ team_id: teamId }).where("project_id", "=", projectId).execute();
}

/** A deleted account's videos of a team's projects stay the team's: they pass to `toUserId` (its Owner), as its pictures do. */
export async function handOverTeamVideos(
  deps: Pick<ListingContext, "db">,
  fromUserId: string,
  teamId: string,
  toUserId: string,
): Promise<void> {
  await deps.db
    .updateTable("listing_videos")
    .set({ user_id: toUserId })
    .where("user_id", "=", fromUserId)
    .where("team_id", "=", teamId)
    .execute();
}

/**
 * Video files whose row is gone: the row went with its project or account (ON DELETE CASCADE), or a
 * process wrote the file after the video was deleted. A row always exists before its file, so no
 * file is too young to judge. Returns how many files were removed.
 */
export async function removeOrphanVideos(deps: Pick<ListingContext, "db" | "storage" | "log">): Promise<number> {
  if (!deps.storage.list) return 0;
  const byId = new Map<string, string>();
  for await (const object of deps.storage.list(UPLOAD_BUCKET)) {
    const match = /^listing\/videos\/([^/]+)\.mp4$/.exec(object.key);
    if (match) byId.set(match[1]!, object.key);
  }
  const ids = [...byId.keys()];
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await deps.db
      .selectFrom("listing_videos")
      .select("id")
      .where("id", "in", ids.slice(start, start + 500))
      .execute();
    for (const row of rows) byId.delete(row.id);
  }
  for (const key of byId.values()) await deps.storage.remove(UPLOAD_BUCKET, key);
  if (byId.size > 0) deps.log.info("removed listing videos whose row is gone", { files: byId.size });
  return byId.size;
}
