/**
 * Jobs: the life of a render after its photo is in. ai-render makes jobs and charges them in one
 * transaction (queue.ts); the worker claims them, runs the engine and stores the pictures
 * (worker.ts); edits of the modification studio and upscales are jobs too; cancel, retry, re-roll
 * and delete change them, each change with its event and at most one refund. library.ts is what
 * owners and admins read of them: views, lists, sharing, counts.
 *
 * The rest of the render module imports this file only (lint: render-jobs-behind-its-index).
 */
import { isFinalStatus, type RenderRequestInput, type RenderSetRequest, type StructureStrength } from "../../../shared/render";
import type { EditRequestInput, PaintRequestInput } from "../../../shared/edits";
import { DomainError, notFound } from "../../errors";
import type { RenderContext } from "../context";
import type { EngineSet, FallbackDeps } from "../engines";
import { recordUpscaleEngine, routedUpscaler, type UpscaleOutcome } from "./engine-choice";
import type { Owner } from "../owner";
import { findOwnedJob } from "../records";
import {
  createEditJob,
  createPaintJobs,
  paintColoursOf,
  paintsInMaking,
  relinkChildren,
  repeatEdit,
  unfinishedChildEdits,
  versionTree,
} from "./edits";
import {
  publicationPictures,
  publicationSource,
  jobFacts,
  jobOwnerOf,
  listAllJobs,
  listOwnedJobs,
  moveToProject,
  ownedJobView,
  projectRenderSummaries,
  queueCounts,
  setSharing,
  sharedRender,
  userRenderCount,
  teamRenderCount,
  teamWorkByMonth,
  userRenderCounts,
  userRenderStatistics,
} from "./library";
import { listingSource } from "./listing-source";
import { reviewPictures } from "./review-source";
import { cancelJob, createRenderJobs, deleteJob, recoverExpiredLeases, rerenderJob, retryJob } from "./queue";
import { deleteUserImages, handOverTeamPictures, movePicturesToTeam, type ImagesToDelete } from "./removal";
import { upscaleJob } from "./upscale";
import { createRenderSet, projectPhotos, projectRenderSets, setPictures } from "./sets";
import { RenderWorker, type RenderWorkerOptions } from "./worker";

export { demoRefusal, keepsFreeCredits, type DemoRefusal } from "./queue";
export type { AdminJobRow } from "./library";
export type { ListingSource } from "./listing-source";
export type { ReviewPicture } from "./review-source";
export type { LocalWorker, RenderWorkerOptions } from "./worker";

/**
 * The jobs part of the render module's surface, and its worker. `engines` are the engines in force
 * per task (the module may swap them while the server runs; jobs running keep theirs); `fallback`
 * holds their states and health checks (decision 088).
 */
export function createJobs(deps: RenderContext, engines: () => EngineSet, fallback: FallbackDeps, workerOptions: RenderWorkerOptions) {
  const worker = new RenderWorker(deps, engines, fallback, workerOptions);
  /** How a job's engine is named: the engine built here with its model, else its plain name. */
  const labelOf = (providerId: string) => engines().engines.get(providerId)?.label ?? providerId;
  return {
    worker,
    surface: {
      /** Puts back what dead workers left (expired leases only), then starts taking jobs. */
      startWorker: () => worker.start(),
      /** What the worker does at start and on each idle look: jobs whose lease ran out are queued again once, or failed and refunded. */
      recoverExpiredLeases: () => recoverExpiredLeases(deps, deps.clock.now()),
      /** This process's instance id: what its worker records on the jobs it claims. */
      instanceId: worker.instanceId,
      /** Renders this process's worker is running now. */
      activeRenders: () => worker.activeJobs,
      /** Stops the worker; running jobs go back to the queue. */
      async stop(): Promise<void> {
        await worker.stop();
      },

      /** ai-render: one job per style, each charged (or the visitor's free demo), all in one transaction. */
      create: (owner: Owner, input: RenderRequestInput, ipAddress: string) => createRenderJobs(deps, owner, input, ipAddress),
      job: (owner: Owner, jobId: string) => ownedJobView(deps, owner, jobId, labelOf),
      list: (owner: Owner, filter: { projectId?: string; limit?: number; before?: { createdAt: number; id: string } }) =>
        listOwnedJobs(deps, owner, filter, labelOf),
      cancel: (owner: Owner, jobId: string) => cancelJob(deps, owner, jobId),
      /**
       * Deletes a render or an edit with its files. Edits made from it hang from its own parent
       * instead (they keep their pictures); unfinished ones cannot run without it and are canceled.
       */
      async delete(owner: Owner, jobId: string) {
        await findOwnedJob(deps, owner, jobId);
        for (const child of await unfinishedChildEdits(deps, jobId)) await cancelJob(deps, owner, child);
        await relinkChildren(deps, jobId);
        await deleteJob(deps, owner, jobId);
      },
      /** "Apply to the whole project": the chosen photos in one style with one seed, charged one credit each in one transaction. */
      createSet: (owner: Owner, input: RenderSetRequest, ipAddress: string) => createRenderSet(deps, owner, input, ipAddress),
      /** A project's sets, each photo's before and after. */
      projectSets: (owner: Owner, projectId: string) => projectRenderSets(deps, owner, projectId),
      /** A set's finished pictures, for its listing export. */
      setPictures: (owner: Owner, setId: string) => setPictures(deps, owner, setId),
      /** A project's photos, for the set dialog. */
      projectPhotos: (owner: Owner, projectId: string) => projectPhotos(deps, owner, projectId),
      /** The modification studio: repaint a painted region of a version, one credit, through the queue. */
      edit: (owner: Owner, input: EditRequestInput) => createEditJob(deps, owner, input),
      /** The Paint tool: the painted region in one to three exact colours, one version each (issue 33). */
      paint: (owner: Owner, input: PaintRequestInput) => createPaintJobs(deps, owner, input),
      /** What a paint costs now, and whether an AI engine or the Preview engine's recolour makes it. */
      paintOffer: () => ({ credits: deps.paintPrice(), engine: deps.capabilities.masks ? (engines().chain("edit")[0]?.id ?? null) : null }),
      /** The colours a project's paint edits used, for whoever may work in the project. */
      async paintColours(owner: Owner, projectId: string) {
        const access = owner.userId === null ? null : await deps.projects.projectAccess(owner.userId, projectId);
        if (!access) throw notFound();
        return paintColoursOf(deps, projectId);
      },
      /** The paint colours in each picture's making, for listing exports (access checked by the caller). */
      paintsInMaking: (jobIds: readonly string[]) => paintsInMaking(deps, jobIds),
      /** Every version of the photo a picture (upload or job) belongs to, as a tree. */
      versions: (owner: Owner, pictureId: string) => versionTree(deps, owner, pictureId),
      setSharing: (owner: Owner, jobId: string, choice: { link?: boolean }) => setSharing(deps, owner, jobId, choice),
      moveToProject: (userId: string, jobId: string, projectId: string) => moveToProject(deps, userId, jobId, projectId),
      /** A new render of a finished one: new seed (re-roll), same seed, or a stronger structure setting; charged like any render. */
      async rerender(owner: Owner, jobId: string, choice: { seed: "new" | "same"; structure?: StructureStrength }, ipAddress: string) {
        const job = await findOwnedJob(deps, owner, jobId);
        if (job.kind !== "edit") return rerenderJob(deps, owner, jobId, choice, ipAddress);
        // An edit again: the same version, mask and instruction.
        if (!isFinalStatus(job.status)) throw new DomainError("conflict", "renderNotFinished");
        if (choice.seed === "same" && job.seed === null) throw new DomainError("invalid", "engineCannot");
        return repeatEdit(deps, owner, job, choice.seed === "same" ? (job.seed ?? undefined) : undefined);
      },
      /** The optional AI upscale to the photo's size (engines with an upscaler), made once and kept. */
      async upscale(owner: Owner, jobId: string) {
        // The upscale task's engines, in order (decision 088); which one made it is recorded after.
        const outcome: UpscaleOutcome = {};
        const size = await upscaleJob(deps, routedUpscaler(engines(), fallback, outcome), owner, jobId);
        await recordUpscaleEngine(deps, jobId, outcome);
        return size;
      },
      shared: (token: string) => sharedRender(deps, token),
      /** A render of the user's spaces as the community module publishes it (decision 102). */
      publicationSource: (userId: string, jobId: string) => publicationSource(deps, userId, jobId),
      /** A finished render's photo and result, for the community module's copies. */
      publicationPictures: (jobId: string) => publicationPictures(deps, jobId),
      /** A finished render of the owner as the listing export needs it (files, engine, mode). */
      listingSource: (owner: Owner, jobId: string) => listingSource(deps, owner, jobId, engines().primary.label),
      /** A project's finished pictures as client review links show them (the review module checked the link). */
      reviewPictures: (projectId: string, jobIds?: readonly string[]) => reviewPictures(deps, projectId, jobIds),
      /** Deletes the user's uploads and renders (of one project, or all), with their files. */
      deleteUserImages: (filter: ImagesToDelete) => deleteUserImages(deps, filter),
      /** A personal project's pictures become its new team's (the project moved into a team). */
      movePicturesToTeam: (projectId: string, teamId: string) => movePicturesToTeam(deps, projectId, teamId),
      /** A deleted account's pictures in a team pass to another member (its Owner). */
      handOverTeamPictures: (fromUserId: string, teamId: string, toUserId: string) =>
        handOverTeamPictures(deps, fromUserId, teamId, toUserId),

      projectRenderSummaries: (projectIds: string[]) => projectRenderSummaries(deps, projectIds),
      userRenderStatistics: (userId: string) => userRenderStatistics(deps, userId),
      userRenderCount: (userId: string) => userRenderCount(deps, userId),
      teamRenderCount: (teamId: string) => teamRenderCount(deps, teamId),
      /** A team's renders and edits per member and month (UTC) since a moment. */
      teamWorkByMonth: (teamId: string, since: number) => teamWorkByMonth(deps, teamId, since),
      userRenderCounts: (userIds: readonly string[]) => userRenderCounts(deps, userIds),

      // Administration.
      queueCounts: () => queueCounts(deps),
      /** Finished renders' engine, kind, input mode and credits, for the metrics (by id). */
      jobFacts: (jobIds: readonly string[]) => jobFacts(deps, jobIds),
      listAllJobs: (filter: Parameters<typeof listAllJobs>[1]) => listAllJobs(deps, filter),
      /** Puts a failed or canceled render back in the queue, free of charge; false in any other state. */
      retry: (jobId: string) => retryJob(deps, jobId),
      /** Cancels anyone's render; returns its owner's user id (null for a visitor). */
      async cancelAny(jobId: string) {
        const job = await jobOwnerOf(deps, jobId);
        if (!job) throw notFound();
        return { status: await cancelJob(deps, "admin", jobId), userId: job.user_id };
      },
    },
  };
}
