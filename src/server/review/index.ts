/**
 * The review module (issue 28, decision 073): client review links. A designer makes a link to a
 * project's pictures (all, or chosen ones), expiring after a chosen number of days, revocable, with
 * an optional "Draft" watermark until approved. The client opens it without an account, comments
 * on each picture and approves it or asks for changes; the studio sees it live (events), the
 * link's maker gets a mail for each decision, and a team project's log records it.
 * It owns the tables review_links, review_comments and review_decisions; it reads pictures only
 * through the render module's reviewPictures(), and asks the projects service who may see a project.
 * Routers and the app call this surface only.
 */
import { PRODUCT_NAME, type Language } from "../../shared/constants";
import type { ReviewDecisionState, ReviewEvent } from "../../shared/review";
import type { Infra } from "../infra";
import type { RenderModule } from "../render";
import type { ReviewActivity, ReviewMeasures, ReviewContext, ReviewPeople, ReviewProjects } from "./context";
import { ReviewEventBus, type ReviewCrossInstance } from "./events";
import { addComment, addDecision } from "./feedback";
import { createLink, projectLinks, reviewPage, revokeLink, type CreateLinkInput } from "./links";
import { reviewRoutes } from "./routes";

export type { ReviewActivity, ReviewMeasures, ReviewPeople, ReviewProjects } from "./context";

export function createReviewModule(
  infra: Pick<Infra, "db" | "clock" | "storage" | "log" | "mailer">,
  ports: {
    render: Pick<RenderModule, "reviewPictures">;
    projects: ReviewProjects;
    people: ReviewPeople;
    activity: ReviewActivity;
    /** The measures drawn on each photo and the project's AR measures (the measures module); none without it. */
    measures?: ReviewMeasures;
    brandName?: () => string;
    /** The channel to the other instances on one PostgreSQL database (decision 082); none on SQLite. */
    crossInstance?: ReviewCrossInstance | null;
  },
) {
  const deps: ReviewContext = {
    db: infra.db,
    clock: infra.clock,
    storage: infra.storage,
    log: infra.log,
    mailer: infra.mailer,
    render: ports.render,
    projects: ports.projects,
    people: ports.people,
    activity: ports.activity,
    measures: ports.measures ?? { ofPhotos: async () => [], arOf: async () => [] },
    brandName: ports.brandName ?? (() => PRODUCT_NAME),
    events: new ReviewEventBus(ports.crossInstance ?? undefined),
  };
  return {
    /** A new link; its address (with the token) is returned once, only here. */
    create: (userId: string, input: CreateLinkInput, language: Language) => createLink(deps, userId, input, language),
    list: (userId: string, projectId: string) => projectLinks(deps, userId, projectId),
    revoke: (userId: string, linkId: string) => revokeLink(deps, userId, linkId),
    /** The project's comments and decisions from now on; the caller must see the project (checked first). */
    async events(userId: string, projectId: string, signal?: AbortSignal): Promise<AsyncGenerator<ReviewEvent>> {
      const { project } = await deps.projects.get(userId, projectId);
      return deps.events.stream(projectId, signal, project.teamId ? { teamId: project.teamId, userId } : undefined);
    },
    /** Ends the streams a member removed from the team (or gone) holds on its projects (decision 070). */
    dismissFromTeam: (teamId: string, userId: string) => deps.events.dismiss(teamId, userId),
    /** Ends every open event stream (first step of a graceful shutdown, as render's). */
    closeEventStreams: () => deps.events.close(),
    /** Open event streams of a project (tests). */
    openStreams: (projectId: string) => deps.events.listeners(projectId),

    // The client's side (no account): each refuses a revoked or expired link as not found.
    page: (token: string) => reviewPage(deps, token),
    comment: (input: { token: string; jobId: string; author: string; text: string }, clientAddress: string) =>
      addComment(deps, input, clientAddress),
    decide: (input: { token: string; jobId: string; author: string; state: ReviewDecisionState }, mailBaseUrl: string | null) =>
      addDecision(deps, input, mailBaseUrl),

    routes: () => reviewRoutes(deps),
  };
}

export type ReviewModule = ReturnType<typeof createReviewModule>;
