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
import { teamDirectory, teamExists, teamNames } from "./directory";
import { createTeam, currentSpace, membersOf, ownersOfTeams, setMonthlyCap, switchSpace, teamsOf } from "./teams";
import { PRODUCT_NAME, type Language } from "../../shared/constants";
import type { MemberRole } from "../../shared/team-members";
import { acceptInvitation, invite, readInvitation, resendInvitation, revokeInvitation, type InviteMail } from "./invitations";
import { changeRole, deleteTeam, leaveTeam, removeMember, renameTeam, teamDetails, transferOwnership } from "./members";

export type { PeopleDirectory } from "./context";
export type { TeamSummary } from "./teams";
export type { ActivityEntry, TeamAction } from "./activity";
export type { InvitationView, InviteMail, PendingInvitation } from "./invitations";
export type { TeamDetails, TeamMember } from "./members";
export type { DirectoryTeam, DirectoryMember } from "./directory";

/** Entries of the activity log per page. */
const ACTIVITY_PAGE = 50;

export function createSpacesModule(
  infra: Pick<Infra, "db" | "clock" | "env" | "log" | "mailer">,
  ports: {
    people: PeopleDirectory;
    onMemberGone?: (teamId: string, userId: string) => void;
    /** Removes the team's work and files (projects, renders, uploads) before the team's row is deleted. */
    beforeTeamDeleted?: (teamId: string) => Promise<void>;
    /** The studio's name for mails (/admin → Studio); the product's name when not given. */
    brandName?: () => string;
  },
) {
  const deps: SpacesContext = {
    db: infra.db,
    clock: infra.clock,
    env: infra.env,
    log: infra.log,
    mailer: infra.mailer,
    people: ports.people,
    onMemberGone: ports.onMemberGone ?? (() => {}),
    beforeTeamDeleted: ports.beforeTeamDeleted ?? (async () => {}),
    brandName: ports.brandName ?? (() => PRODUCT_NAME),
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
    /** The Owners' ids of the teams, by team. */
    ownersOf: (teamIds: readonly string[]) => ownersOfTeams(deps, teamIds),
    /** The members with role, cap and when they joined (for a caller already checked to be a member). */
    membersOf: (teamId: string) => membersOf(deps, teamId),

    /** The team as a member sees it: name, my role, members, balance; pending invitations for Owner and Admin. */
    details: (userId: string, teamId: string) => teamDetails(deps, userId, teamId),
    /** Mails a single-use link (Owner and Admin); the mail is in `input.language`, else the inviter's. */
    invite: (userId: string, input: { teamId: string; email: string; role: MemberRole; language?: Language }, mail: InviteMail) =>
      invite(deps, userId, input, mail),
    revokeInvitation: (userId: string, teamId: string, invitationId: string) => revokeInvitation(deps, userId, teamId, invitationId),
    resendInvitation: (userId: string, teamId: string, invitationId: string, mail: InviteMail) =>
      resendInvitation(deps, userId, teamId, invitationId, mail),
    /** What an invitation link is, for anyone holding it (null: no such link). */
    invitation: (token: string) => readInvitation(deps, token),
    acceptInvitation: (userId: string, token: string) => acceptInvitation(deps, userId, token),
    changeRole: (userId: string, teamId: string, memberId: string, role: MemberRole) => changeRole(deps, userId, teamId, memberId, role),
    transferOwnership: (userId: string, teamId: string, toUserId: string) => transferOwnership(deps, userId, teamId, toUserId),
    rename: (userId: string, teamId: string, name: string) => renameTeam(deps, userId, teamId, name),
    deleteTeam: (userId: string, teamId: string) => deleteTeam(deps, userId, teamId),
    removeMember: (userId: string, teamId: string, memberId: string) => removeMember(deps, userId, teamId, memberId),
    leave: (userId: string, teamId: string) => leaveTeam(deps, userId, teamId),
    /** /admin → Teams: every team (by name or a member's address), a page at a time; for the server's admin only. */
    directory: (filter: { search?: string; limit: number; offset: number }) => teamDirectory(deps, filter),
    /** Whether the team exists (for callers that act on any team: /admin). */
    exists: (teamId: string) => teamExists(deps, teamId),
    /** Teams' names by id (unknown ids left out). */
    names: (teamIds: readonly string[]) => teamNames(deps, teamIds),

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
