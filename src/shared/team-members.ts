/**
 * Team members and invitations (issue 28): what the invite form sends, and the rules of re-sending
 * an invitation. Both sides read these; the server enforces them (src/server/spaces/invitations.ts).
 */
import { z } from "zod";
import { emailSchema } from "./auth-schemas";
import { SUPPORTED_LANGUAGES } from "./constants";

/** A pending invitation may be mailed again once this many minutes have passed since it was last sent… */
export const INVITATION_RESEND_MINUTES = 10;
/** …and re-sent at most this many times (then it is revoked and sent anew). */
export const INVITATION_RESENDS_MAX = 5;

/** The roles an invitation or a role change may give (the Owner is made only by a transfer). */
export const MEMBER_ROLES = ["admin", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const teamIdSchema = z.string().min(1).max(64);
export const memberRoleSchema = z.enum(MEMBER_ROLES);
export const languageSchema = z.enum(SUPPORTED_LANGUAGES);

export const inviteInputSchema = z.object({
  teamId: teamIdSchema,
  email: emailSchema,
  role: memberRoleSchema,
  /** The language of the mail (the invitee's, when the inviter knows it); else the inviter's own. */
  language: languageSchema.optional(),
});

/** An invitation link's token (48 characters of base32); anything else is simply unknown. */
export const invitationTokenSchema = z.string().min(1).max(200);

/** What the /invite page learns from a link. */
export type InvitationState = "pending" | "expired" | "used" | "revoked";
