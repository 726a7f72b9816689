/**
 * Teams (issue 28, decision 070): a studio's shared space, its roles and what each may do. The
 * rights below are the one table both sides read: the server refuses what a role may not do
 * (spaces/access.ts), and the client only hides what the server would refuse anyway.
 * Roles as the help text describes them (spec section 6): Owner (full control), Admin (manage
 * members and clients), Member (view and create projects; no team settings or sensitive client data).
 */
import { z } from "zod";
import { MESSAGES } from "./messages";

export const TEAM_ROLES = ["owner", "admin", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_NAME = { min: 2, max: 100 } as const;
/** An invitation link works this long after it is sent (and once). */
export const INVITATION_DAYS = 7;
/** Teams a user may create or belong to (a real studio stays far below it; scripts do not). */
export const TEAMS_PER_USER_MAX = 20;
/** Members and pending invitations a team may hold. */
export const TEAM_MEMBERS_MAX = 200;
/** The largest monthly cap per member, in credits. */
export const MONTHLY_CAP_MAX = 100_000;
/** The most credits one move from a personal balance into a team may carry. */
export const CREDIT_MOVE_MAX = 100_000;

export type TeamRight =
  /** See the team's projects, renders and balance; render, edit, export in them. */
  | "work"
  /** Invite, revoke and re-send invitations; remove members (not the Owner, not other Admins). */
  | "manageMembers"
  /** Keep the clients, and see their e-mail, phone, address and notes. */
  | "manageClients"
  /** Buy credits for the team, move personal credits in, set caps, read the ledger and usage. */
  | "manageCredits"
  /** Read the activity log. */
  | "readActivity"
  /** Create and revoke the team's API keys and webhooks (/developers). */
  | "manageDevelopers"
  /** Create, change and delete the team's own styles (every member renders with them). */
  | "manageStyles"
  /** Publish the team's renders in the community hub under the studio's name, and unpublish them (decision 102). */
  | "publishWork"
  /** Change roles, transfer ownership, rename and delete the team. */
  | "ownTeam";

export const TEAM_RIGHTS: Record<TeamRole, readonly TeamRight[]> = {
  owner: [
    "work",
    "manageMembers",
    "manageClients",
    "manageCredits",
    "readActivity",
    "manageDevelopers",
    "manageStyles",
    "publishWork",
    "ownTeam",
  ],
  admin: ["work", "manageMembers", "manageClients", "manageCredits", "readActivity", "manageDevelopers", "manageStyles", "publishWork"],
  member: ["work"],
};

export function roleMay(role: TeamRole | null | undefined, right: TeamRight): boolean {
  return role != null && TEAM_RIGHTS[role].includes(right);
}

/** The name of a team: trimmed, 2 to 100 characters (messages of the spec's name rules). */
export const teamNameSchema = z
  .string()
  .trim()
  .min(TEAM_NAME.min, { error: MESSAGES.teamNameTooShort })
  .max(TEAM_NAME.max, { error: MESSAGES.teamNameTooLong });

/** The space a user works in: their personal space (null) or a team's id. */
export const spaceIdSchema = z.string().min(1).max(64).nullable();
