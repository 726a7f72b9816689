/**
 * Invitations into a team by e-mail (issue 28): an Owner or Admin invites an address as Admin or
 * Member; a single-use link (a random token, only its SHA-256 kept) works for INVITATION_DAYS and
 * is shown as pending until accepted, revoked or expired. Re-sending makes a new link (the old one
 * stops working), at most once every INVITATION_RESEND_MINUTES and INVITATION_RESENDS_MAX times.
 * Accepting needs the account with that address (compared case-insensitively).
 */
import { INVITATION_DAYS, TEAM_MEMBERS_MAX, TEAMS_PER_USER_MAX } from "../../shared/teams";
import { INVITATION_RESEND_MINUTES, INVITATION_RESENDS_MAX, type InvitationState, type MemberRole } from "../../shared/team-members";
import type { Language } from "../../shared/constants";
import type { Transaction } from "kysely";
import { generateSecureRandomString, hashSecret } from "../auth/tokens";
import type { AppDatabase } from "../db/client";
import type { Database } from "../db/schema";
import { DomainError, notFound } from "../errors";
import { teamInvitationMail } from "../mail/templates";
import { requireRight, roleIn } from "./access";
import { recordActivity } from "./activity";
import type { SpacesContext } from "./context";
import { setSpaceRow } from "./teams";

type Db = AppDatabase | Transaction<Database>;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Where the link points and the language the inviter was using (the mail's default language). */
export interface InviteMail {
  baseUrl: string | null;
  language: Language;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  sentAt: number;
  sendCount: number;
  expiresAt: number;
  expired: boolean;
}

/** What the /invite page shows for a link (anyone holding it may read this). */
export interface InvitationView {
  teamName: string;
  inviterName: string;
  email: string;
  role: MemberRole;
  expiresAt: number;
  state: InvitationState;
}

const normalise = (email: string) => email.trim().toLowerCase();

function stateOf(row: { accepted_at: number | null; revoked_at: number | null; expires_at: number }, now: number): InvitationState {
  if (row.accepted_at !== null) return "used";
  if (row.revoked_at !== null) return "revoked";
  return row.expires_at <= now ? "expired" : "pending";
}

/** Members plus invitations still open: what TEAM_MEMBERS_MAX counts. */
async function seatsTaken(db: Db, teamId: string, now: number): Promise<number> {
  const members = await db
    .selectFrom("team_members")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("team_id", "=", teamId)
    .executeTakeFirstOrThrow();
  const pending = await db
    .selectFrom("team_invitations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("team_id", "=", teamId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirstOrThrow();
  return Number(members.n) + Number(pending.n);
}

/** An account's name, or its address when it has none (the mail must name who invites). */
async function nameOf(deps: SpacesContext, userId: string): Promise<string> {
  const person = (await deps.people.people([userId])).get(userId);
  return person?.name || person?.email || "";
}

async function teamName(db: Db, teamId: string): Promise<string> {
  const team = await db.selectFrom("teams").select("name").where("id", "=", teamId).executeTakeFirst();
  if (!team) throw notFound();
  return team.name;
}

function linkBase(deps: SpacesContext, mail: InviteMail): string {
  if (mail.baseUrl === null) {
    deps.log.warn("an invitation was refused: the request came for a host this server does not know; set PUBLIC_URL (or ALLOWED_HOSTS)");
    throw new DomainError("not-configured", "teamInviteNoPublicAddress");
  }
  return mail.baseUrl;
}

async function mailInvitation(
  deps: SpacesContext,
  invitation: { email: string; role: MemberRole; language: Language; token: string; team: string; inviter: string },
  base: string,
): Promise<void> {
  await deps.mailer.send(
    teamInvitationMail(
      invitation.language,
      invitation.email,
      {
        inviter: invitation.inviter,
        team: invitation.team,
        role: invitation.role,
        link: `${base}/invite?token=${encodeURIComponent(invitation.token)}`,
        days: INVITATION_DAYS,
      },
      deps.brandName(),
    ),
  );
}

/** A new token: 240 bits from the CSPRNG, like the mail links of accounts. */
const newToken = () => `${generateSecureRandomString()}${generateSecureRandomString()}`;

export async function invite(
  deps: SpacesContext,
  actorId: string,
  input: { teamId: string; email: string; role: MemberRole; language?: Language },
  mail: InviteMail,
): Promise<PendingInvitation> {
  await requireRight(deps.db, actorId, input.teamId, "manageMembers");
  const base = linkBase(deps, mail);
  const email = normalise(input.email);
  const language = input.language ?? mail.language;
  const inviter = await nameOf(deps, actorId);
  const existing = await deps.people.byEmail(email);
  const token = newToken();
  const id = generateSecureRandomString();
  const now = deps.clock.now();
  const expiresAt = now + INVITATION_DAYS * DAY_MS;
  const team = await deps.db.transaction().execute(async (trx) => {
    const name = await teamName(trx, input.teamId);
    if (existing && (await roleIn(trx, existing.id, input.teamId)) !== null) {
      throw new DomainError("conflict", "teamInviteAlreadyMember", { params: { email } });
    }
    const pending = await trx
      .selectFrom("team_invitations")
      .select("id")
      .where("team_id", "=", input.teamId)
      .where("email", "=", email)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    if (pending) throw new DomainError("conflict", "teamInviteAlreadyPending", { params: { email } });
    if ((await seatsTaken(trx, input.teamId, now)) >= TEAM_MEMBERS_MAX) {
      throw new DomainError("forbidden", "teamFull", { params: { max: TEAM_MEMBERS_MAX } });
    }
    // An expired or revoked invitation to the address gives way to the new one.
    await trx
      .updateTable("team_invitations")
      .set({ revoked_at: now })
      .where("team_id", "=", input.teamId)
      .where("email", "=", email)
      .where("accepted_at", "is", null)
      .where("revoked_at", "is", null)
      .execute();
    await trx
      .insertInto("team_invitations")
      .values({
        id,
        team_id: input.teamId,
        email,
        role: input.role,
        token_hash: hashSecret(token),
        language,
        invited_by: actorId,
        created_at: now,
        sent_at: now,
        send_count: 1,
        expires_at: expiresAt,
      })
      .execute();
    await recordActivity(trx, {
      teamId: input.teamId,
      actorId,
      actorName: inviter,
      action: "memberInvited",
      details: { email, role: input.role },
      at: now,
    });
    return name;
  });
  await mailInvitation(deps, { email, role: input.role, language, token, team, inviter }, base);
  return { id, email, role: input.role, invitedBy: inviter, sentAt: now, sendCount: 1, expiresAt, expired: false };
}

/** Invitations not accepted nor revoked (expired ones too, so they can be re-sent), newest first. */
export async function pendingInvitations(deps: SpacesContext, teamId: string): Promise<PendingInvitation[]> {
  const rows = await deps.db
    .selectFrom("team_invitations")
    .select(["id", "email", "role", "invited_by", "sent_at", "send_count", "expires_at"])
    .where("team_id", "=", teamId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .orderBy("created_at", "desc")
    .execute();
  const people = await deps.people.people(rows.flatMap((row) => (row.invited_by ? [row.invited_by] : [])));
  const now = deps.clock.now();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by ? (people.get(row.invited_by)?.name ?? "") : "",
    sentAt: row.sent_at,
    sendCount: row.send_count,
    expiresAt: row.expires_at,
    expired: row.expires_at <= now,
  }));
}

async function openInvitation(db: Db, teamId: string, invitationId: string) {
  const row = await db
    .selectFrom("team_invitations")
    .selectAll()
    .where("id", "=", invitationId)
    .where("team_id", "=", teamId)
    .where("accepted_at", "is", null)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function revokeInvitation(deps: SpacesContext, actorId: string, teamId: string, invitationId: string): Promise<void> {
  await requireRight(deps.db, actorId, teamId, "manageMembers");
  const actorName = await nameOf(deps, actorId);
  await deps.db.transaction().execute(async (trx) => {
    const row = await openInvitation(trx, teamId, invitationId);
    const now = deps.clock.now();
    await trx.updateTable("team_invitations").set({ revoked_at: now }).where("id", "=", row.id).execute();
    await recordActivity(trx, { teamId, actorId, actorName, action: "invitationRevoked", details: { email: row.email }, at: now });
  });
}

/** Mails a new link (the previous one stops working) and gives it INVITATION_DAYS again, within the re-send rule. */
export async function resendInvitation(
  deps: SpacesContext,
  actorId: string,
  teamId: string,
  invitationId: string,
  mail: InviteMail,
): Promise<PendingInvitation> {
  await requireRight(deps.db, actorId, teamId, "manageMembers");
  const base = linkBase(deps, mail);
  const actorName = await nameOf(deps, actorId);
  const token = newToken();
  const now = deps.clock.now();
  const expiresAt = now + INVITATION_DAYS * DAY_MS;
  const sent = await deps.db.transaction().execute(async (trx) => {
    const row = await openInvitation(trx, teamId, invitationId);
    if (row.send_count - 1 >= INVITATION_RESENDS_MAX) {
      throw new DomainError("rate-limited", "teamInviteResendLimit", { params: { max: INVITATION_RESENDS_MAX } });
    }
    const nextAt = row.sent_at + INVITATION_RESEND_MINUTES * MINUTE_MS;
    if (now < nextAt) {
      throw new DomainError("rate-limited", "teamInviteResendTooSoon", {
        params: { minutes: INVITATION_RESEND_MINUTES, wait: Math.max(1, Math.ceil((nextAt - now) / MINUTE_MS)) },
      });
    }
    // An expired invitation holds no seat: reviving it needs one, as a new invitation would.
    if (row.expires_at <= now && (await seatsTaken(trx, teamId, now)) >= TEAM_MEMBERS_MAX) {
      throw new DomainError("forbidden", "teamFull", { params: { max: TEAM_MEMBERS_MAX } });
    }
    await trx
      .updateTable("team_invitations")
      .set({ token_hash: hashSecret(token), sent_at: now, send_count: row.send_count + 1, expires_at: expiresAt })
      .where("id", "=", row.id)
      .execute();
    await recordActivity(trx, { teamId, actorId, actorName, action: "invitationResent", details: { email: row.email }, at: now });
    return { row, team: await teamName(trx, teamId) };
  });
  const inviter = sent.row.invited_by ? await nameOf(deps, sent.row.invited_by) : actorName;
  await mailInvitation(
    deps,
    { email: sent.row.email, role: sent.row.role, language: sent.row.language ?? mail.language, token, team: sent.team, inviter },
    base,
  );
  return {
    id: sent.row.id,
    email: sent.row.email,
    role: sent.row.role,
    invitedBy: inviter,
    sentAt: now,
    sendCount: sent.row.send_count + 1,
    expiresAt,
    expired: false,
  };
}

async function byToken(db: Db, token: string) {
  if (token.length === 0 || token.length > 200) return undefined;
  return db.selectFrom("team_invitations").selectAll().where("token_hash", "=", hashSecret(token)).executeTakeFirst();
}

/** What a link is (for the /invite page), or null when no invitation has this token. */
export async function readInvitation(deps: SpacesContext, token: string): Promise<InvitationView | null> {
  const row = await byToken(deps.db, token);
  if (!row) return null;
  const team = await deps.db.selectFrom("teams").select("name").where("id", "=", row.team_id).executeTakeFirst();
  if (!team) return null;
  return {
    teamName: team.name,
    inviterName: row.invited_by ? await nameOf(deps, row.invited_by) : "",
    email: row.email,
    role: row.role,
    expiresAt: row.expires_at,
    state: stateOf(row, deps.clock.now()),
  };
}

/** The signed-in account with the invited address joins the team (and works in it from now on). */
export async function acceptInvitation(deps: SpacesContext, userId: string, token: string): Promise<{ teamId: string; teamName: string }> {
  const me = (await deps.people.people([userId])).get(userId);
  if (!me) throw notFound();
  return deps.db.transaction().execute(async (trx) => {
    const row = await byToken(trx, token);
    if (!row) throw notFound();
    const now = deps.clock.now();
    const state = stateOf(row, now);
    if (state === "used") throw new DomainError("conflict", "teamInvitationUsed");
    if (state === "revoked") throw new DomainError("conflict", "teamInvitationRevoked");
    if (state === "expired") throw new DomainError("conflict", "teamInvitationExpired");
    if (normalise(me.email) !== normalise(row.email)) {
      throw new DomainError("forbidden", "teamInvitationOtherAccount", { params: { email: row.email } });
    }
    const name = await teamName(trx, row.team_id);
    if ((await roleIn(trx, userId, row.team_id)) !== null) {
      throw new DomainError("conflict", "teamInviteAlreadyMember", { params: { email: row.email } });
    }
    const held = await trx
      .selectFrom("team_members")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= TEAMS_PER_USER_MAX) throw new DomainError("forbidden", "tooManyTeams");
    // This invitation holds a seat already; the members alone must leave room for it.
    const members = await trx
      .selectFrom("team_members")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("team_id", "=", row.team_id)
      .executeTakeFirstOrThrow();
    if (Number(members.n) >= TEAM_MEMBERS_MAX) throw new DomainError("forbidden", "teamFull", { params: { max: TEAM_MEMBERS_MAX } });
    const used = await trx
      .updateTable("team_invitations")
      .set({ accepted_at: now, accepted_by: userId })
      .where("id", "=", row.id)
      .where("accepted_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new DomainError("conflict", "teamInvitationUsed");
    await trx.insertInto("team_members").values({ team_id: row.team_id, user_id: userId, role: row.role, joined_at: now }).execute();
    await recordActivity(trx, {
      teamId: row.team_id,
      actorId: userId,
      actorName: me.name,
      action: "memberJoined",
      details: { email: row.email, role: row.role },
      at: now,
    });
    await setSpaceRow(trx, userId, row.team_id, now);
    return { teamId: row.team_id, teamName: name };
  });
}
