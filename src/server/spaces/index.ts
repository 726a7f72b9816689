/**
 * The spaces module (decision 070): a user's personal space and the teams they belong to, with
 * roles, membership and the activity log. It owns the tables teams, team_members,
 * team_invitations, current_spaces and team_activity, and is the one place that answers "may this
 * user see or change this team's data" (access.ts). Routers and other modules call this surface.
 */
import type { TeamRight } from "../../shared/teams";
import type { Infra } from "../infra";
import { membershipOf, requireRight, roleIn, teamIdsOf } from "./access";
import { listActivity, recordActivity, type ActivityDetails, type TeamAction } from "./activity";
import type { PeopleDirectory, SpacesContext } from "./context";
import { teamDirectory, teamExists } from "./directory";
import { createTeam, currentSpace, membersOf, setMonthlyCap, switchSpace, teamsOf } from "./teams";

export type { PeopleDirectory } from "./context";
export type { TeamSummary } from "./teams";
export type { ActivityEntry, TeamAction } from "./activity";
export type { DirectoryTeam, DirectoryMember } from "./directory";

/** Entries of the activity log per page. */
const ACTIVITY_PAGE = 50;

export function createSpacesModule(
  infra: Pick<Infra, "db" | "clock" | "env" | "log" | "mailer">,
  ports: { people: PeopleDirectory; onMemberGone?: (teamId: string, userId: string) => void },
) {
  const deps: SpacesContext = {
    db: infra.db,
    clock: infra.clock,
    env: infra.env,
    log: infra.log,
    mailer: infra.mailer,
    people: ports.people,
    onMemberGone: ports.onMemberGone ?? (() => {}),
  };
  return {
    /** Teams the user belongs to, with role, members and balance. */
    teamsOf: (userId: string) => teamsOf(deps, userId),
    create: (userId: string, name: string) => createTeam(deps, userId, name),
    /** The team the user works in, or null for the personal space. */
    currentSpace: (userId: string) => currentSpace(deps, userId),
    switchSpace: (userId: string, teamId: string | null) => switchSpace(deps, userId, teamId),

    /** The caller's role in the team, or null (not a member). */
    roleIn: (userId: string, teamId: string) => roleIn(deps.db, userId, teamId),
    /** The caller's role when it carries the right; else 404 (not a member) or 403 (role). */
    requireRight: (userId: string, teamId: string, right: TeamRight) => requireRight(deps.db, userId, teamId, right),
    teamIdsOf: (userId: string) => teamIdsOf(deps.db, userId),
    /** The user's role and monthly cap in the team, or null (not a member): the render module's TeamDirectory. */
    membership: (userId: string, teamId: string) => membershipOf(deps.db, userId, teamId),

    /** A member's monthly cap in credits (null: none); Owner or Admin. */
    setMonthlyCap: (actorId: string, teamId: string, memberId: string, cap: number | null) =>
      setMonthlyCap(deps, actorId, teamId, memberId, cap),
    /** The members with role, cap and when they joined (for a caller already checked to be a member). */
    membersOf: (teamId: string) => membersOf(deps, teamId),

    /** /admin → Teams: every team (by name or a member's address), a page at a time; for the server's admin only. */
    directory: (filter: { search?: string; limit: number; offset: number }) => teamDirectory(deps, filter),
    /** Whether the team exists (for callers that act on any team: /admin). */
    exists: (teamId: string) => teamExists(deps, teamId),

    /** Records an action in the team's log (other modules: clients, review decisions, credits). */
    async record(teamId: string, actorId: string | null, action: TeamAction, details: ActivityDetails = {}): Promise<void> {
      const actorName = actorId ? ((await deps.people.people([actorId])).get(actorId)?.name ?? "") : "";
      await recordActivity(deps.db, { teamId, actorId, actorName, action, details, at: deps.clock.now() });
    },
    /** The log, newest first (Owner and Admin). */
    async activity(userId: string, teamId: string, before?: number) {
      await requireRight(deps.db, userId, teamId, "readActivity");
      return listActivity(deps.db, teamId, { before, limit: ACTIVITY_PAGE });
    },
  };
}

export type SpacesModule = ReturnType<typeof createSpacesModule>;
