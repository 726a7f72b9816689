/**
 * Render jobs followed live: each job's state from render.job, moved on by the live events of
 * render.events (server-sent events; the link reconnects with the last event id by itself).
 * If the live stream breaks for good, the jobs are polled instead, so a card never freezes.
 */
import { skipToken } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { isFinalStatus, type JobStatus, type RenderEvent, type RenderResultLinks } from "../../shared/render";
import { PERFORMANCE_ACTIONS } from "../../shared/analytics-constants";
import { track } from "../lib/analytics";
import type { JobView } from "../lib/renderTypes";
import { serverNow } from "../lib/serverClock";
import { trpc } from "../trpc";

/** What the live events add to a job's last known state. */
export interface LiveJob {
  status: JobStatus;
  position?: number | null;
  percent?: number | null;
  attempt?: number;
  startedAt?: number | null;
  finishedAt?: number | null;
  error?: string | null;
  refunded?: boolean;
  elapsedMs?: number;
  result?: RenderResultLinks | null;
}

export type FollowedJob = JobView & { attempt?: number; refunded?: boolean; elapsedMs?: number };

const STATUS_RANK: Record<JobStatus, number> = {
  queued: 0,
  preprocessing: 1,
  rendering: 2,
  saving: 3,
  succeeded: 4,
  failed: 4,
  canceled: 4,
};

/** Moves one job on (`jobId`: the job followed; a "positions" event places several at once). */
export function applyEvent(previous: LiveJob | undefined, event: RenderEvent, jobId = event.jobId): LiveJob {
  switch (event.type) {
    case "queued":
      return { ...previous, status: "queued", position: event.position };
    case "preprocessing":
      return { ...previous, status: "preprocessing", position: null, startedAt: event.startedAt };
    case "rendering":
      return {
        ...previous,
        status: "rendering",
        position: null,
        startedAt: event.startedAt,
        percent: event.percent,
        attempt: event.attempt,
      };
    case "saving":
      return { ...previous, status: "saving", startedAt: event.startedAt, percent: 100 };
    case "succeeded":
      return {
        ...previous,
        status: "succeeded",
        startedAt: event.startedAt,
        finishedAt: event.at,
        elapsedMs: event.elapsedMs,
        result: event.result,
        percent: 100,
      };
    case "failed":
      return { ...previous, status: "failed", finishedAt: event.at, error: event.message, refunded: event.refunded };
    case "canceled":
      return { ...previous, status: "canceled", finishedAt: event.at, refunded: event.refunded };
    case "scored":
      // The score comes with the job itself (refetched on this event); the state does not change.
      return previous ?? { status: "succeeded" };
    case "positions": {
      const place = event.positions.find((entry) => entry.jobId === jobId);
      return place ? { ...previous, status: "queued", position: place.position } : (previous ?? { status: "queued" });
    }
  }
}

/** The jobs an event moves on: its own, or each job a "positions" event places. */
export function jobsOfEvent(event: RenderEvent): string[] {
  return event.type === "positions" ? event.positions.map((place) => place.jobId) : [event.jobId];
}

/** The job as last fetched, moved on by the live events when they are ahead of it. */
export function mergeJob(view: JobView, live: LiveJob | undefined): FollowedJob {
  if (!live || STATUS_RANK[live.status] < STATUS_RANK[view.status]) return view;
  if (isFinalStatus(view.status) && !isFinalStatus(live.status)) return view;
  const merged: FollowedJob = { ...view, status: live.status };
  if (live.position !== undefined) merged.position = live.position;
  if (live.percent !== undefined) merged.percent = live.percent;
  if (live.startedAt !== undefined) merged.startedAt = live.startedAt;
  if (live.finishedAt !== undefined && merged.finishedAt === null) merged.finishedAt = live.finishedAt;
  if (live.error !== undefined && live.error !== null) merged.error = live.error;
  if (live.result && !merged.result) merged.result = live.result;
  if (live.attempt !== undefined) merged.attempt = live.attempt;
  if (live.refunded !== undefined) merged.refunded = live.refunded;
  if (live.elapsedMs !== undefined) merged.elapsedMs = live.elapsedMs;
  return merged;
}

/** Jobs whose end was already reported to analytics in this tab (several views may follow one job). */
const reportedJobs = new Set<string>();

/** Analytics (spec section 4): a render's outcome, and its time when it succeeded. */
export function reportRenderOutcome(event: RenderEvent): void {
  if ((event.type !== "succeeded" && event.type !== "failed" && event.type !== "canceled") || reportedJobs.has(event.jobId)) return;
  reportedJobs.add(event.jobId);
  track({ category: "ai_processing", action: `render_${event.type}` });
  if (event.type === "succeeded") track({ category: "performance", action: PERFORMANCE_ACTIONS.render, value: event.elapsedMs });
}

/** A succeeded job whose structure score has not arrived yet, within a minute of finishing (a render of a plan gets none). */
export function awaitingScore(
  job: Pick<JobView, "status" | "structureScore" | "finishedAt" | "mode" | "kind">,
  now = serverNow(),
): boolean {
  if (job.mode === "floor-plan" && job.kind !== "edit") return false;
  return job.status === "succeeded" && job.structureScore === null && job.finishedAt !== null && now - job.finishedAt < SCORE_WAIT_MS;
}

const SCORE_POLL_MS = 1_000;
const SCORE_WAIT_MS = 60_000;
const POLL_WITH_STREAM_MS = 15_000;
const POLL_WITHOUT_STREAM_MS = 2_000;

export function useRenderJobs(ids: readonly string[]) {
  const utils = trpc.useUtils();
  const [live, setLive] = useState<Record<string, LiveJob>>({});
  const [streamBroken, setStreamBroken] = useState(false);
  const idSet = useMemo(() => new Set(ids), [ids]);

  const queries = trpc.useQueries((t) =>
    ids.map((id) =>
      t.render.job(
        { id },
        {
          staleTime: 0,
          retry: false,
          // A safety net under the live events: a final job is never polled.
          refetchInterval: (query) => {
            const job = query.state.data;
            if (!job) return false;
            // The structure score follows a success by a moment: looked for a little while.
            if (job.status === "succeeded") return awaitingScore(job) ? SCORE_POLL_MS : false;
            if (isFinalStatus(job.status)) return false;
            return streamBroken ? POLL_WITHOUT_STREAM_MS : POLL_WITH_STREAM_MS;
          },
        },
      ),
    ),
  );

  // Listening from the first moment (while the jobs load too), so no step is missed.
  const listening = queries.some(
    (query) => query.isLoading || (query.data && !isFinalStatus(mergeJob(query.data, live[query.data.id]).status)),
  );

  const onEvent = useCallback(
    (event: RenderEvent) => {
      const moved = jobsOfEvent(event).filter((jobId) => idSet.has(jobId));
      if (moved.length === 0) return;
      setLive((previous) => {
        const next = { ...previous };
        for (const jobId of moved) next[jobId] = applyEvent(previous[jobId], event, jobId);
        return next;
      });
      reportRenderOutcome(event);
      // A finished job's share link, gallery flag, final times and structure score come from the job itself.
      if (isFinalStatus(event.type as JobStatus) || event.type === "scored") void utils.render.job.invalidate({ id: event.jobId });
    },
    [idSet, utils],
  );

  const single = ids.length === 1 ? ids[0] : undefined;
  trpc.render.events.useSubscription(listening ? { jobId: single, lastEventId: null } : skipToken, {
    onStarted: () => {
      setStreamBroken(false);
      // What happened before the stream opened comes from the jobs themselves.
      void utils.render.job.invalidate();
    },
    onData: (envelope) => onEvent(envelope.data),
    onError: () => setStreamBroken(true),
  });

  const jobs = ids.map((id, index) => {
    const query = queries[index]!;
    return {
      id,
      job: query.data ? mergeJob(query.data, live[id]) : undefined,
      isLoading: query.isLoading,
      error: query.error,
    };
  });
  return { jobs, streamBroken };
}
