/**
 * The community module (issue 32, decision 102): renders their owners publish (a title, before and
 * after or after only, the name shown or not) as metadata-free copies; /gallery and /community read
 * them, with likes, saves, follows and reports; admins hide publications and stop accounts from
 * publishing. It owns publications, publication_likes, publication_saves, community_follows,
 * publication_reports, publishing_blocks and portfolios (the social hub's pages, decision 105), and the
 * stored copies under community/. It asks the
 * render module, the spaces module and the accounts through ports boot.ts hands in.
 */
import type { z } from "zod";
import type { feedInputSchema, PublishInput, reportInputSchema } from "../../shared/community";
import type { Clock } from "../clock";
import type { Infra } from "../infra";
import type { CommunityContext, CommunityPeople, CommunityRenders, CommunitySpaces } from "./context";
import type { PortfolioSettings } from "../../shared/portfolio";
import { feed, follow, following, galleryPublications, myPublications, publicationView, react } from "./feed";
import { dismissReport, moderationState, openReports, report, setBlocked, setHidden } from "./moderation";
import { handOverTeamPublications, isBlocked, publicationOfRender, publish, removeOrphanCopies, unpublish } from "./publications";
import { myPortfolio, portfolioView, removePortfolio, savePortfolio } from "./portfolio";
import { communityRoutes } from "./routes";

export type { CommunityRenders, CommunitySpaces, CommunityPeople, RenderToPublish } from "./context";
export type { OpenReport } from "./moderation";

export function createCommunityModule(
  infra: Pick<Infra, "db" | "clock" | "storage" | "log">,
  ports: { renders: CommunityRenders; spaces: CommunitySpaces; people: CommunityPeople },
) {
  const deps: CommunityContext = { db: infra.db, clock: infra.clock, storage: infra.storage, log: infra.log, ...ports };
  return {
    /** Publishes a finished render of the caller's space (a team's: right publishWork), as copies without metadata. */
    publish: (userId: string, input: PublishInput) => publish(deps, userId, input),
    /** Removes it from every public page at once, and its copies. */
    unpublish: (userId: string, id: string) => unpublish(deps, userId, id),
    /** A render's publication as its dialog shows it (404 for a render not of the caller's spaces). */
    ofRender: (userId: string, jobId: string) => publicationOfRender(deps, userId, jobId),
    /** A member leaving by deleting their account: what they published of the team's work stays published, as its Owner's (decision 070). */
    handOverTeamPublications: (fromUserId: string, teamId: string, toUserId: string) =>
      handOverTeamPublications(deps, fromUserId, teamId, toUserId),
    /** Whether an admin stopped the account from publishing. */
    isBlocked: (userId: string) => isBlocked(deps, userId),
    gallery: () => galleryPublications(deps),
    get: (id: string) => publicationView(deps, id),
    feed: (userId: string, input: z.output<typeof feedInputSchema>) => feed(deps, userId, input),
    like: (userId: string, id: string, on: boolean) => react(deps, userId, id, "like", on),
    save: (userId: string, id: string, on: boolean) => react(deps, userId, id, "save", on),
    follow: (userId: string, target: { kind: "user" | "team"; id: string }, on: boolean) => follow(deps, userId, target, on),
    following: (userId: string) => following(deps, userId),
    /** The social hub (decision 105): what the user published, and their portfolio page. */
    mine: (userId: string) => myPublications(deps, userId),
    myPortfolio: (userId: string) => myPortfolio(deps, userId),
    savePortfolio: (userId: string, input: PortfolioSettings) => savePortfolio(deps, userId, input),
    removePortfolio: (userId: string) => removePortfolio(deps, userId),
    /** A visible portfolio page, for anyone. */
    portfolio: (handle: string) => portfolioView(deps, handle),
    report: (userId: string, input: z.output<typeof reportInputSchema>) => report(deps, userId, input),
    // Admins (the router checks the role).
    openReports: () => openReports(deps),
    moderationState: () => moderationState(deps),
    setHidden: (adminId: string, id: string, hidden: boolean) => setHidden(deps, adminId, id, hidden),
    dismissReport: (adminId: string, reportId: string) => dismissReport(deps, adminId, reportId),
    setBlocked: (adminId: string, userId: string, blocked: boolean) => setBlocked(deps, adminId, userId, blocked),
    /** The published pictures' route. */
    routes: () => communityRoutes(deps),
    /** Housekeeping: copies whose publication is gone, a day old by `clock` (a test runs it as if days had passed). */
    removeOrphanCopies: async (clock: Clock = deps.clock) => ({ orphanPublishedCopies: await removeOrphanCopies({ ...deps, clock }) }),
  };
}

export type CommunityModule = ReturnType<typeof createCommunityModule>;
