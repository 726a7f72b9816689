import type { AppDatabase } from "../../src/server/db/client";

/**
 * The newest invitation mail to the address, from the outbox (the test servers have no SMTP server).
 * Only invitations are read: a sign-up's confirmation may share its millisecond on the injected clock.
 */
export async function invitationMail(db: AppDatabase, to: string) {
  return db
    .selectFrom("mail_outbox")
    .select(["subject", "text_body"])
    .where("to_address", "=", to)
    .where("text_body", "like", "%/invite?token=%")
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
}

/** The token of the newest invitation to the address. */
export async function inviteToken(db: AppDatabase, to: string): Promise<string> {
  const token = /\/invite\?token=([\w-]+)/.exec((await invitationMail(db, to)).text_body)?.[1];
  if (!token) throw new Error(`no invitation link in the mail to ${to}`);
  return decodeURIComponent(token);
}

/** Adds a member the way an accepted invitation does (the invitation flow has its own tests). */
export async function addMember(
  server: { deps: { db: AppDatabase; clock: { now(): number } } },
  teamId: string,
  member: { userId: string },
  role: "admin" | "member" = "member",
): Promise<void> {
  await server.deps.db
    .insertInto("team_members")
    .values({ team_id: teamId, user_id: member.userId, role, joined_at: server.deps.clock.now() })
    .execute();
}
