/**
 * Outgoing mail. With SMTP_URL set, mail goes out through nodemailer; without it, into the
 * built-in outbox (the mail_outbox table, readable by admins) and the log. Every message is
 * recorded in mail_outbox either way, with its delivery result. Bodies carry live links (reset,
 * confirmation), so they are kept only where the admin needs them, in the outbox without SMTP,
 * and only for OUTBOX_BODY_KEEP_MS (one instance of those sharing the database clears them each
 * hour: decision 078). Owns the mail_outbox table (decision 054).
 */
import type { Transporter } from "nodemailer";
import type { AppDatabase } from "../db/client";
import type { Clock } from "../clock";
import type { Env } from "../env";
import type { Logger } from "../logger";
import { generateSecureRandomString } from "../auth/tokens";
import { createRunClaims, type ScheduledRun } from "../coordination";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender's name (the studio's); MAIL_FROM set in the environment wins over it. */
  fromName?: string;
}

/** The From of a mail: MAIL_FROM as set, else its address under the studio's name. */
export function senderOf(env: Pick<Env, "MAIL_FROM" | "SET_IN_ENVIRONMENT">, fromName: string | undefined) {
  if (!fromName || env.SET_IN_ENVIRONMENT.has("MAIL_FROM")) return env.MAIL_FROM;
  const address = /<([^>]+)>\s*$/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM;
  return { name: fromName, address };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** "smtp" or "outbox", for status pages. */
  readonly transport: "smtp" | "outbox";
  /** The hourly clearing of old bodies (the timer's step): true when this instance did it, false when another had it. */
  forgetOldBodies(): Promise<boolean>;
  close(): void;
}

/** How long the outbox keeps a mail's body (its links expire within a day anyway). */
export const OUTBOX_BODY_KEEP_MS = 2 * 86_400_000;
const FORGET_EVERY_MS = 3_600_000;
const SCHEDULED_FORGET: ScheduledRun = { name: "mail-bodies", everyMs: FORGET_EVERY_MS, leaseMs: 5 * 60_000 };

/** Blanks the bodies of outbox mails older than OUTBOX_BODY_KEEP_MS (the row, who and what subject, stays). */
export async function forgetOldMailBodies(db: AppDatabase, now: number): Promise<void> {
  await db
    .updateTable("mail_outbox")
    .set({ text_body: "", html_body: null })
    .where("created_at", "<", now - OUTBOX_BODY_KEEP_MS)
    .where("text_body", "!=", "")
    .execute();
}

/** The latest mails, newest first, as /admin's mail outbox lists them (not their bodies). */
export async function latestOutboxMails(db: AppDatabase, limit: number) {
  const mails = await db
    .selectFrom("mail_outbox")
    .select(["id", "to_address", "subject", "transport", "created_at", "sent_at", "error"])
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
  return mails.map((mail) => ({
    id: mail.id,
    to: mail.to_address,
    subject: mail.subject,
    transport: mail.transport,
    createdAt: mail.created_at,
    sentAt: mail.sent_at,
    error: mail.error,
  }));
}

/**
 * The latest mails kept in the outbox, newest first, with their bodies (links and all): for the
 * operator's `npm run admin -- mail`, on an install with no SMTP and no admin yet. Bodies past
 * OUTBOX_BODY_KEEP_MS, and every body sent by SMTP, are blank.
 */
export async function outboxMailsWithBodies(db: AppDatabase, filter: { to?: string; limit: number }) {
  let query = db
    .selectFrom("mail_outbox")
    .select(["to_address", "subject", "text_body", "transport", "created_at"])
    .orderBy("created_at", "desc")
    .limit(filter.limit);
  if (filter.to) query = query.where("to_address", "=", filter.to);
  const mails = await query.execute();
  return mails.map((mail) => ({
    to: mail.to_address,
    subject: mail.subject,
    text: mail.text_body,
    transport: mail.transport,
    createdAt: mail.created_at,
  }));
}

export function createMailer(env: Env, db: AppDatabase, log: Logger, clock: Clock): Mailer {
  const smtpUrl = env.SMTP_URL;
  const smtp = Boolean(smtpUrl);
  // nodemailer is loaded with the first mail, not at every start (decision 045).
  let transporter: Promise<Transporter> | undefined;
  const connect = () => (transporter ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
  const claims = createRunClaims({ db, clock, log });
  const forgetOldBodies = () =>
    claims
      .runOnce(SCHEDULED_FORGET, () => forgetOldMailBodies(db, clock.now()))
      .then(
        (claimed) => claimed.ran,
        (error: unknown) => {
          log.warn("could not clear old mail bodies", { error });
          return false;
        },
      );
  const timer = setInterval(() => void forgetOldBodies(), FORGET_EVERY_MS);
  timer.unref();
  void forgetOldBodies();
  return {
    transport: smtp ? "smtp" : "outbox",
    forgetOldBodies,
    async send(message) {
      const id = generateSecureRandomString();
      await db
        .insertInto("mail_outbox")
        .values({
          id,
          to_address: message.to,
          subject: message.subject,
          // Sent by SMTP, the body leaves at once and is not kept.
          text_body: smtp ? "" : message.text,
          html_body: smtp ? null : (message.html ?? null),
          transport: smtp ? "smtp" : "outbox",
          created_at: clock.now(),
        })
        .execute();
      if (!smtp) {
        // Not the text: its links carry tokens. The operator reads it with the CLI, an admin in /admin.
        log.info(`mail kept in the outbox: read it with "npm run admin -- mail ${message.to}" or in /admin (set SMTP_URL to send)`, {
          to: message.to,
          subject: message.subject,
        });
        return;
      }
      try {
        await (
          await connect()
        ).sendMail({
          from: senderOf(env, message.fromName),
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
        await db.updateTable("mail_outbox").set({ sent_at: clock.now() }).where("id", "=", id).execute();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await db.updateTable("mail_outbox").set({ error: reason }).where("id", "=", id).execute();
        log.error("mail delivery failed", { to: message.to, subject: message.subject, error: reason });
        throw error;
      }
    },
    close() {
      clearInterval(timer);
      void transporter?.then(
        (transport) => transport.close(),
        () => undefined,
      );
    },
  };
}
