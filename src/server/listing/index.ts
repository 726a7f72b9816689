/**
 * The listing module: "Export for listing" (California B&P Code §10140.8). A succeeded render of a
 * signed-in user becomes a JPEG with a disclosure banner and a QR code of a public page showing the
 * unaltered original beside it; the owner can revoke it, and download a project's exports as a zip.
 * It owns the table listing_exports; it reads renders only through the render module's
 * listingSource(). Routers and routes call this surface only.
 */
import { PRODUCT_NAME, type Language } from "../../shared/constants";
import { createRunClaims, type ScheduledRun } from "../coordination";
import type { Infra } from "../infra";
import type { ListingContext } from "./context";
import { UPLOAD_BUCKET } from "../../shared/constants";
import { notFound } from "../errors";
import {
  createExport,
  ownedExport,
  createSetExports,
  exportsOfJob,
  projectExports,
  revokeExport,
  sweepListingExports,
  exportView,
  type ListingExportView,
} from "./exports";
import { listingRoutes, type UserOfRequest } from "./routes";
import { createVideoMaker, handOverTeamVideos, moveVideosToTeam, removeOrphanVideos } from "./videos";
import type { ListingVideoRequest } from "../../shared/listing-video";

export type { ListingVideoView } from "./videos";

export type { ListingExportView } from "./exports";
export type { UserOfRequest } from "./routes";

/** How often what deleted renders left behind is removed (their public pages already answer 404). */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/** The scheduled sweep, claimed by one instance of those sharing the database (decision 078). */
const SCHEDULED_SWEEP: ScheduledRun = { name: "listing-sweep", everyMs: SWEEP_INTERVAL_MS, leaseMs: 5 * 60_000 };

export function createListingModule(
  infra: Pick<Infra, "db" | "clock" | "storage" | "diskFloor" | "log"> & Partial<Pick<Infra, "crossInstance">>,
  ports: { render: ListingContext["render"]; brandName?: () => string; teams?: ListingContext["teams"] },
) {
  const deps: ListingContext = {
    db: infra.db,
    clock: infra.clock,
    storage: infra.storage,
    diskFloor: infra.diskFloor,
    log: infra.log,
    render: ports.render,
    teams: ports.teams,
    brandName: ports.brandName ?? (() => PRODUCT_NAME),
  };
  // A video's changes and cancels reach the other instances on one PostgreSQL database.
  const videos = createVideoMaker(deps, { crossInstance: infra.crossInstance });
  let timer: NodeJS.Timeout | undefined;
  // The exports' rows and files of deleted renders, and the files of videos whose row went with a project or account.
  const sweep = () =>
    sweepListingExports(deps)
      .then(async (rows) => {
        await removeOrphanVideos(deps);
        return rows;
      })
      .catch((error: unknown) => {
        deps.log.warn("listing sweep failed", { error });
        return 0;
      });
  const claims = createRunClaims(deps);
  /** The schedule's sweep: the rows removed, or null when another instance has this period's sweep. */
  const sweepScheduled = () =>
    claims.runOnce(SCHEDULED_SWEEP, sweep).then(
      (claimed) => (claimed.ran ? claimed.value : null),
      (error: unknown) => {
        deps.log.warn("scheduled listing sweep failed", { error });
        return null;
      },
    );

  return {
    /**
     * Makes the picture, the page's two pictures and the row; `baseUrl` is where the public link points
     * (PUBLIC_URL or a host the server knows, as for mailed links); null refuses (listingNoPublicAddress).
     */
    create: (
      userId: string,
      input: { jobId: string; disclosure?: string; language: Language },
      baseUrl: string | null,
    ): Promise<ListingExportView> => createExport(deps, userId, input, baseUrl),
    /** An export of every finished picture of a set, one language and disclosure for all. */
    createForSet: (userId: string, input: { setId: string; disclosure?: string; language: Language }, baseUrl: string | null) =>
      createSetExports(deps, userId, input, baseUrl),
    forJob: (userId: string, jobId: string) => exportsOfJob(deps, userId, jobId),
    /** One current export the user may manage (as picture and revoke); not-found otherwise. */
    view: async (userId: string, exportId: string) => exportView(await ownedExport(deps, userId, exportId)),
    revoke: (userId: string, exportId: string) => revokeExport(deps, userId, exportId),
    /** The exported picture (JPEG) of a current export the user may manage, with its file name; not-found otherwise. */
    async picture(userId: string, exportId: string): Promise<{ data: Buffer; fileName: string; jobId: string }> {
      const row = await ownedExport(deps, userId, exportId);
      const stored = row.picture_key ? await deps.storage.get(UPLOAD_BUCKET, row.picture_key) : null;
      if (!stored) throw notFound();
      return { data: stored.data, fileName: row.file_name, jobId: row.job_id ?? "" };
    },
    /** How many current exports the project's zip would hold. */
    async projectCount(userId: string, projectId: string): Promise<number> {
      return (await projectExports(deps, userId, projectId)).length;
    },
    routes: (userOfRequest: UserOfRequest) => listingRoutes(deps, userOfRequest, videos),

    /** Listing videos (issue 33): ordered, followed, canceled and listed (a team's by its members: decision 112). */
    createVideo: (userId: string, input: ListingVideoRequest & { language: Language }) => videos.create(userId, input),
    video: (userId: string, id: string) => videos.view(userId, id),
    videos: (userId: string, projectId: string) => videos.list(userId, projectId),
    cancelVideo: (userId: string, id: string) => videos.cancel(userId, id),
    /** Deletes a video and its file (its author, or a team's Owner or Admin). */
    deleteVideo: (userId: string, id: string) => videos.remove(userId, id),
    setVideoOnListingPages: (userId: string, id: string, on: boolean) => videos.setOnListingPages(userId, id, on),
    followVideo: (userId: string, id: string, signal?: AbortSignal) => videos.follow(userId, id, signal),
    /** A member left or was removed from a team: their streams of its videos end at once. */
    dismissFromTeam: (teamId: string, userId: string) => videos.dismiss(teamId, userId),
    /** A project moved into a team: its videos become the team's (decision 112). */
    moveVideosToTeam: (projectId: string, teamId: string) => moveVideosToTeam(deps, projectId, teamId),
    /** A deleted account's videos of a team's projects pass to the team's Owner. */
    handOverTeamVideos: (fromUserId: string, teamId: string, toUserId: string) => handOverTeamVideos(deps, fromUserId, teamId, toUserId),

    /** Removes rows and files of deleted renders, projects and accounts; returns the rows removed. */
    sweep,
    sweepScheduled,
    /** The sweep at start and every ten minutes, by whichever instance claims it first. */
    startHousekeeping(): void {
      if (timer) return;
      void videos.start().catch((error: unknown) => deps.log.error("could not take up the queued listing videos", { error }));
      void sweepScheduled();
      timer = setInterval(() => void sweepScheduled(), SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await videos.stop();
    },
  };
}

export type ListingModule = ReturnType<typeof createListingModule>;
