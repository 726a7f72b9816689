/**
 * Accounts: sign-up (profile with the free credits), sign-in with lockout and the second factor,
 * Google sign-in, e-mail confirmation and password reset, the profile, and deleting an account.
 * Owns the tables users, profiles, user_identities, email_tokens, two_factor_challenges and
 * two_factor_failures (decision 054): other modules read and change accounts through the functions
 * below, e.g. the admin's user list, the e-mail addresses of a list's owners, disabling an account.
 */
import { AUTH, CREDITS, DEFAULT_LANGUAGE, PRODUCT_NAME, type Language } from "../../shared/constants";
import { DomainError } from "../errors";
import type { Infra } from "../infra";
import type { AccountDirectory, RenderModule } from "../render";
import type { PeopleDirectory, SpacesModule } from "../spaces";
import { createSession, invalidateSession, validateSessionToken, type SessionInfo, type SessionRequestInfo } from "../auth/sessions";
import { clearAttempts, countFailedAttempt, type AttemptInfo, type LockoutStatus } from "../auth/lockout";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { createIdAndSecret, generateSecureRandomString, hashSecret, secretMatches, splitToken } from "../auth/tokens";
import { acceptBackupCode, acceptTotp, refusedCode, twoFactorEnabled } from "../auth/two-factor";
import { invalidateOtherSessions } from "../auth/sessions";
import { confirmSignUpMail, resetPasswordMail, twoFactorLockedMail } from "../mail/templates";
import type { Transaction } from "kysely";
import { isUniqueViolation } from "../db/errors";
import type { AppDatabase } from "../db/client";
import type { Database, EmailTokenPurpose } from "../db/schema";
import { googleConfigured } from "../auth/google";
import { containsIgnoringCase, dayString, utcDayNumber } from "../db/sql-helpers";
import { grantCredits } from "./credits";
import { preparedQuery } from "../db/prepared";

// Compiled once: /profile reads it on each visit (decision 044). Whether there is a password, not its hash.
// The profile's columns come from subqueries, not a join: SQLite 3.54 prepares a join again each time
// its parameter is bound (decision 061).
const profilePageRow = preparedQuery((db, userId: string) =>
  db
    .selectFrom("users")
    .select((eb) => [
      "users.email",
      "users.created_at",
      "users.email_confirmed_at",
      eb("users.password_hash", "is not", null).as("has_password"),
      eb.selectFrom("profiles").select("profiles.full_name").whereRef("profiles.user_id", "=", "users.id").as("full_name"),
      eb.selectFrom("profiles").select("profiles.credits_remaining").whereRef("profiles.user_id", "=", "users.id").as("credits_remaining"),
    ])
    .where("users.id", "=", userId),
);
import type { ProjectsService } from "./projects";

/** What the accounts need to know of the studio (/admin → Studio): its name for mails, the sign-up grant. */
export interface StudioFacts {
  brandName(): string;
  signUpCredits(): number;
}
const SHIPPED_STUDIO: StudioFacts = { brandName: () => PRODUCT_NAME, signUpCredits: () => CREDITS.signUpGrant };

type AccountDeps = Pick<Infra, "db" | "clock" | "log" | "env" | "mailer" | "secretBox"> & { studio?: StudioFacts };
const signUpCreditsOf = (deps: AccountDeps) => (deps.studio ?? SHIPPED_STUDIO).signUpCredits();

export type SignInResult =
  | { status: "signed-in"; userId: string }
  | { status: "two-factor-required"; challengeToken: string }
  | { status: "invalid-credentials"; lockout: LockoutStatus }
  | { status: "locked"; lockout: LockoutStatus }
  | { status: "email-not-confirmed" };

/** What the render module asks of accounts: is this user's address confirmed. */
export function createAccountDirectory(deps: Pick<Infra, "db">): AccountDirectory {
  return {
    async emailConfirmed(userId) {
      const user = await deps.db.selectFrom("users").select("email_confirmed_at").where("id", "=", userId).executeTakeFirst();
      return user?.email_confirmed_at != null;
    },
  };
}

/** Whether an admin disabled the account (an unknown account counts as disabled): API keys ask it on every call. */
export async function isAccountDisabled(deps: Pick<Infra, "db">, userId: string): Promise<boolean> {
  const user = await deps.db.selectFrom("users").select("disabled_at").where("id", "=", userId).executeTakeFirst();
  return !user || user.disabled_at !== null;
}

/** The accounts an admin has disabled (the community shows nothing of theirs while they are: decision 113). */
export async function disabledAccountIds(deps: Pick<Infra, "db">): Promise<string[]> {
  const rows = await deps.db.selectFrom("users").select("id").where("disabled_at", "is not", null).execute();
  return rows.map((row) => row.id);
}

/** What the spaces module asks of accounts: members' names and addresses, and who has an address. */
export function createPeopleDirectory(deps: Pick<Infra, "db">): PeopleDirectory {
  return {
    async people(userIds) {
      const found = new Map<string, { name: string; email: string }>();
      if (userIds.length === 0) return found;
      const rows = await deps.db
        .selectFrom("users")
        .leftJoin("profiles", "profiles.user_id", "users.id")
        .select(["users.id", "users.email", "profiles.full_name"])
        .where("users.id", "in", [...new Set(userIds)])
        .execute();
      for (const row of rows) found.set(row.id, { name: row.full_name ?? "", email: row.email });
      return found;
    },
    async byEmail(email) {
      return deps.db.selectFrom("users").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
    },
    async idsByEmailContaining(text, max) {
      const rows = await deps.db.selectFrom("users").select("id").where(containsIgnoringCase("email", text)).limit(max).execute();
      return rows.map((row) => row.id);
    },
  };
}

export async function findUserByEmail(deps: AccountDeps, email: string) {
  return deps.db.selectFrom("users").selectAll().where("email", "=", email.trim()).executeTakeFirst();
}

/** An account's id and e-mail address, by id; undefined when there is no such account. */
export async function findAccount(db: AppDatabase, userId: string): Promise<{ id: string; email: string } | undefined> {
  return db.selectFrom("users").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
}

/** An account's id and e-mail address, by address (the admin CLI, ADMIN_EMAILS). */
export async function findAccountByEmail(db: AppDatabase, email: string): Promise<{ id: string; email: string } | undefined> {
  // users.email is COLLATE NOCASE: the comparison ignores case and uses the index.
  return db.selectFrom("users").select(["id", "email"]).where("email", "=", email.trim()).executeTakeFirst();
}

/** The e-mail addresses of these accounts, by id, in one statement; ids without an account are left out. */
export async function accountEmails(db: AppDatabase, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const users = await db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).execute();
  return new Map(users.map((user) => [user.id, user.email]));
}

/** These accounts' ids and addresses in address order (users.email's, COLLATE NOCASE): the admin CLI's role list. */
export async function accountsInEmailOrder(db: AppDatabase, userIds: readonly string[]): Promise<Array<{ id: string; email: string }>> {
  if (userIds.length === 0) return [];
  return db.selectFrom("users").select(["id", "email"]).where("id", "in", userIds).orderBy("email").execute();
}

/** How many accounts there are. */
export async function countAccounts(db: AppDatabase): Promise<number> {
  const users = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(users.n);
}

/** Accounts made per UTC day since `since`, oldest day first (the admin's analytics). */
export async function signUpsPerDay(db: AppDatabase, since: number): Promise<Array<{ day: string; count: number }>> {
  const rows = await db
    .selectFrom("users")
    .select((eb) => [utcDayNumber("created_at").as("day"), eb.fn.countAll<number>().as("count")])
    .where("created_at", ">=", since)
    .groupBy("day")
    .orderBy("day")
    .execute();
  return rows.map((row) => ({ day: dayString(row.day), count: Number(row.count) }));
}

/**
 * A page of accounts for /admin, newest first, with each one's name and credits; `search` matches the
 * address or the name. The total counts every match. Lockouts, roles and renders come from their owners.
 */
export async function accountPage(db: AppDatabase, filter: { search?: string; limit: number; offset: number }) {
  let query = db.selectFrom("users").leftJoin("profiles", "profiles.user_id", "users.id");
  if (filter.search) {
    const search = filter.search;
    query = query.where((eb) => eb.or([containsIgnoringCase("users.email", search), containsIgnoringCase("profiles.full_name", search)]));
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows = await query
    .select([
      "users.id",
      "users.email",
      "users.created_at",
      "users.email_confirmed_at",
      "users.disabled_at",
      "profiles.full_name",
      "profiles.credits_remaining",
    ])
    .orderBy("users.created_at", "desc")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return { rows, total: Number(total.n) };
}

/** Whether the user has a profile (the admin's credit adjustment needs one). Inside a transaction too. */
export async function hasProfile(db: AppDatabase | Transaction<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("profiles").select("user_id").where("user_id", "=", userId).executeTakeFirst();
  return row !== undefined;
}

/** An admin disables (or enables) an account: a disabled one cannot sign in, and its sessions end at once. */
export async function setAccountDisabled(db: AppDatabase, userId: string, disabled: boolean, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ disabled_at: disabled ? now : null, updated_at: now })
      .where("id", "=", userId)
      .execute();
    if (disabled) await invalidateOtherSessions(trx, userId, null);
  });
}

/**
 * Creates a user's profile (the full name falls back to the e-mail) with the sign-up credits,
 * granted through the ledger. Does nothing when the profile exists. Run inside a transaction.
 */
export async function createProfile(
  db: AppDatabase | Transaction<Database>,
  user: { id: string; email: string },
  fullName: string | null | undefined,
  now: number,
  signUpCredits: number = CREDITS.signUpGrant,
): Promise<void> {
  const inserted = await db
    .insertInto("profiles")
    .values({
      user_id: user.id,
      email: user.email,
      full_name: fullName?.trim() || user.email,
      credits_remaining: 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column("user_id").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
    // The grant in force when the account is made (0: none; a ledger entry of 0 credits would say nothing).
    if (signUpCredits > 0) await grantCredits(db, user.id, signUpCredits, "grant", now, { reason: "sign-up" });
  }
}

/** Creates the profile a user must have when it is missing (at sign-in). */
export async function ensureProfile(deps: AccountDeps, user: { id: string; email: string }): Promise<void> {
  await deps.db.transaction().execute((trx) => createProfile(trx, user, null, deps.clock.now(), signUpCreditsOf(deps)));
}

/** A single-use token mailed to the user; only its hash is stored. */
export async function createEmailToken(deps: AccountDeps, userId: string, purpose: EmailTokenPurpose, validForMs: number): Promise<string> {
  const token = `${generateSecureRandomString()}${generateSecureRandomString()}`;
  const now = deps.clock.now();
  await deps.db
    .insertInto("email_tokens")
    .values({
      id: generateSecureRandomString(),
      user_id: userId,
      purpose,
      token_hash: hashSecret(token),
      created_at: now,
      expires_at: now + validForMs,
    })
    .execute();
  return token;
}

/** Marks a token used and returns its user, or null when it is unknown, used or expired. */
export async function consumeEmailToken(deps: AccountDeps, token: string, purpose: EmailTokenPurpose): Promise<string | null> {
  if (token.length === 0 || token.length > 200) return null;
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const row = await trx
      .selectFrom("email_tokens")
      .select(["id", "user_id", "expires_at", "used_at"])
      .where("token_hash", "=", hashSecret(token))
      .where("purpose", "=", purpose)
      .executeTakeFirst();
    if (!row || row.used_at !== null || row.expires_at <= now) return null;
    // Conditional: of two requests with one token, on PostgreSQL too, only one marks it used.
    const used = await trx
      .updateTable("email_tokens")
      .set({ used_at: now })
      .where("id", "=", row.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? row.user_id : null;
  });
}

/** Where links in mails point, and the language to write them in (the one the user was using). */
export interface MailContext {
  /** Null when the request came for a host the server does not know: then no mail with a link is sent. */
  baseUrl: string | null;
  language: Language;
}

/** The base of a mailed link, or null (and a warning telling the operator what to set) when there is none. */
function mailLinkBase(deps: AccountDeps, mail: MailContext): string | null {
  if (mail.baseUrl === null) {
    deps.log.warn(
      "a mail with a link was not sent: the request came for a host this server does not know; set PUBLIC_URL (or ALLOWED_HOSTS) to the address users reach it at",
    );
  }
  return mail.baseUrl;
}

export async function sendConfirmationMail(
  deps: AccountDeps,
  user: { id: string; email: string },
  fullName: string,
  mail: MailContext,
): Promise<void> {
  const base = mailLinkBase(deps, mail);
  if (base === null) return;
  const token = await createEmailToken(deps, user.id, "confirm_email", AUTH.emailConfirmationValidityMs);
  await deps.db.updateTable("users").set({ confirmation_sent_at: deps.clock.now() }).where("id", "=", user.id).execute();
  await deps.mailer.send(
    confirmSignUpMail(
      mail.language,
      user.email,
      fullName,
      `${base}/auth/confirm?token=${encodeURIComponent(token)}`,
      (deps.studio ?? SHIPPED_STUDIO).brandName(),
    ),
  );
}

export async function signUp(
  deps: AccountDeps,
  input: { email: string; password: string; fullName: string },
  mail: MailContext,
): Promise<{ userId: string; email: string }> {
  if (await findUserByEmail(deps, input.email)) {
    throw new DomainError("conflict", "userAlreadyRegistered");
  }
  const passwordHash = await hashPassword(input.password);
  const userId = generateSecureRandomString();
  const now = deps.clock.now();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("users")
        .values({ id: userId, email: input.email, password_hash: passwordHash, created_at: now, updated_at: now })
        .execute();
      await createProfile(trx, { id: userId, email: input.email }, input.fullName, now, signUpCreditsOf(deps));
    });
  } catch (error) {
    // Two sign-ups with the same address at once: the unique index decides.
    if (isUniqueViolation(error)) {
      throw new DomainError("conflict", "userAlreadyRegistered");
    }
    throw error;
  }
  try {
    await sendConfirmationMail(deps, { id: userId, email: input.email }, input.fullName, mail);
  } catch (error) {
    // The account exists; the user can ask for the mail again from the banner.
    deps.log.error("confirmation mail not sent", { email: input.email, error });
  }
  return { userId, email: input.email };
}

export async function signIn(
  deps: AccountDeps,
  input: { email: string; password: string; rememberMe: boolean },
  info: AttemptInfo,
): Promise<SignInResult> {
  const attempt = await countFailedAttempt(deps.db, deps.clock, input.email, info);
  if (!attempt.allowed) return { status: "locked", lockout: attempt.status };

  const user = await findUserByEmail(deps, input.email);
  const passwordOk = await verifyPassword(user?.password_hash ?? null, input.password);
  if (!user || !passwordOk) {
    return attempt.status.isLocked
      ? { status: "locked", lockout: attempt.status }
      : { status: "invalid-credentials", lockout: attempt.status };
  }
  // Only someone who knows the password learns that an admin disabled the account.
  if (user.disabled_at !== null) throw new DomainError("forbidden", "accountDisabled");
  await clearAttempts(deps.db, input.email);

  if (deps.env.REQUIRE_EMAIL_VERIFICATION && user.email_confirmed_at === null) return { status: "email-not-confirmed" };

  try {
    await ensureProfile(deps, user);
  } catch (error) {
    deps.log.error("profile creation at sign-in failed", { userId: user.id, error });
  }
  // No session before the second factor passes.
  if (await twoFactorEnabled(deps, user.id)) {
    if (await twoFactorLocked(deps, user.id)) throw new DomainError("rate-limited", "twoFactorLocked");
    return { status: "two-factor-required", challengeToken: await createTwoFactorChallenge(deps, user.id, input.rememberMe) };
  }
  return { status: "signed-in", userId: user.id };
}

/** How opening a confirmation link went: "already-confirmed" when the link was used (or lapsed) on an address confirmed since. */
export type ConfirmEmailOutcome = "confirmed" | "already-confirmed" | "failed";

export async function confirmEmail(deps: AccountDeps, token: string): Promise<ConfirmEmailOutcome> {
  const userId = await consumeEmailToken(deps, token, "confirm_email");
  if (!userId) {
    // Used links are kept (marked) a week past their expiry: opening one again tells the truth.
    const state = await emailTokenState(deps, token, "confirm_email");
    if (state.status !== "used" && state.status !== "expired") return "failed";
    const user = await deps.db.selectFrom("users").select("email_confirmed_at").where("id", "=", state.userId).executeTakeFirst();
    return user?.email_confirmed_at != null ? "already-confirmed" : "failed";
  }
  const now = deps.clock.now();
  await deps.db
    .updateTable("users")
    .set({ email_confirmed_at: now, updated_at: now })
    .where("id", "=", userId)
    .where("email_confirmed_at", "is", null)
    .execute();
  return "confirmed";
}

/**
 * The operator confirms an address from the server's shell (`npm run admin -- confirm`): on an
 * install without SMTP the first operator has no admin yet to read the outbox for them.
 */
export async function confirmEmailByOperator(db: AppDatabase, userId: string, now: number): Promise<"confirmed" | "already-confirmed"> {
  const updated = await db
    .updateTable("users")
    .set({ email_confirmed_at: now, updated_at: now })
    .where("id", "=", userId)
    .where("email_confirmed_at", "is", null)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n ? "confirmed" : "already-confirmed";
}

export type EmailLinkState = "valid" | "used" | "expired" | "unknown";

/** A mail link's state without using it up (the link's holder learns only about the link). */
async function emailTokenState(
  deps: AccountDeps,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<{ status: "unknown" } | { status: Exclude<EmailLinkState, "unknown">; userId: string }> {
  if (token.length === 0 || token.length > 200) return { status: "unknown" };
  const row = await deps.db
    .selectFrom("email_tokens")
    .select(["user_id", "expires_at", "used_at"])
    .where("token_hash", "=", hashSecret(token))
    .where("purpose", "=", purpose)
    .executeTakeFirst();
  if (!row) return { status: "unknown" };
  const status = row.used_at !== null ? "used" : row.expires_at <= deps.clock.now() ? "expired" : "valid";
  return { status, userId: row.user_id };
}

/** The reset page asks first, so a used or lapsed link says so before the form is filled in. */
export async function resetLinkState(deps: AccountDeps, token: string): Promise<EmailLinkState> {
  return (await emailTokenState(deps, token, "reset_password")).status;
}

/** Mails a reset link (valid 1 hour, single use) when the address has an account; silent otherwise. */
export async function requestPasswordReset(deps: AccountDeps, email: string, mail: MailContext): Promise<void> {
  const user = await findUserByEmail(deps, email);
  if (!user || user.disabled_at !== null) return;
  const base = mailLinkBase(deps, mail);
  if (base === null) return;
  const token = await createEmailToken(deps, user.id, "reset_password", AUTH.passwordResetValidityMs);
  await deps.mailer.send(
    resetPasswordMail(
      mail.language,
      user.email,
      `${base}/auth?reset=true&token=${encodeURIComponent(token)}`,
      (deps.studio ?? SHIPPED_STUDIO).brandName(),
    ),
  );
}

/**
 * Sets a new password from a reset link. Every session of the user ends, the lockout is cleared,
 * and the address counts as confirmed (the link reached its inbox). An unknown, used or expired
 * link is refused (resetLinkInvalid).
 */
export async function resetPassword(deps: AccountDeps, token: string, newPassword: string): Promise<void> {
  const passwordHash = await hashPassword(newPassword);
  const userId = await consumeEmailToken(deps, token, "reset_password");
  if (!userId) throw new DomainError("invalid", "resetLinkInvalid");
  const now = deps.clock.now();
  const user = await deps.db
    .updateTable("users")
    .set((eb) => ({ password_hash: passwordHash, updated_at: now, email_confirmed_at: eb.fn.coalesce("email_confirmed_at", eb.val(now)) }))
    .where("id", "=", userId)
    .returning(["id", "email"])
    .executeTakeFirstOrThrow();
  await invalidateOtherSessions(deps.db, userId, null);
  await revokeResetLinks(deps, userId);
  await clearAttempts(deps.db, user.email);
}

/** Every reset link of the user not yet used stops working (after the password changed, by any way). */
async function revokeResetLinks(deps: AccountDeps, userId: string): Promise<void> {
  await deps.db
    .updateTable("email_tokens")
    .set({ used_at: deps.clock.now() })
    .where("user_id", "=", userId)
    .where("purpose", "=", "reset_password")
    .where("used_at", "is", null)
    .execute();
}

/**
 * Changes the password of a signed-in user after checking the current one (a wrong one is refused,
 * currentPasswordWrong, as deleting the account refuses it); other sessions end.
 */
export async function changePassword(
  deps: AccountDeps,
  userId: string,
  currentSessionId: string | null,
  currentPassword: string,
  newPassword: string,
): Promise<void> {
  const user = await deps.db.selectFrom("users").select(["password_hash"]).where("id", "=", userId).executeTakeFirstOrThrow();
  // Accounts created with Google have no password yet: they may set one without a current password.
  if (user.password_hash !== null && !(await verifyPassword(user.password_hash, currentPassword))) {
    throw new DomainError("invalid", "currentPasswordWrong");
  }
  await deps.db
    .updateTable("users")
    .set({ password_hash: await hashPassword(newPassword), updated_at: deps.clock.now() })
    .where("id", "=", userId)
    .execute();
  await invalidateOtherSessions(deps.db, userId, currentSessionId);
  await revokeResetLinks(deps, userId);
}

/**
 * The signed-in person proves again that they own the account before a change that guards it
 * (turning two-factor on): a wrong password is refused (currentPasswordWrong). An account made with
 * Google and no password has none to ask for; its Google sign-in stands.
 */
export async function confirmPassword(deps: AccountDeps, userId: string, password: string): Promise<void> {
  const user = await deps.db.selectFrom("users").select(["password_hash"]).where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.password_hash !== null && !(await verifyPassword(user.password_hash, password))) {
    throw new DomainError("invalid", "currentPasswordWrong");
  }
}

/** A sign-in waiting for its second factor; the token is "<id>.<secret>" like a session's. */
export async function createTwoFactorChallenge(deps: AccountDeps, userId: string, rememberMe: boolean): Promise<string> {
  const { id, token, secretHash } = createIdAndSecret();
  const now = deps.clock.now();
  await deps.db
    .insertInto("two_factor_challenges")
    .values({
      id,
      user_id: userId,
      secret_hash: secretHash,
      remember_me: rememberMe ? 1 : 0,
      created_at: now,
      expires_at: now + AUTH.twoFactorChallengeMs,
    })
    .execute();
  return token;
}

/** Wrong second-factor codes of the account within the lock window. */
async function recentTwoFactorFailures(deps: AccountDeps, userId: string): Promise<number> {
  const row = await deps.db
    .selectFrom("two_factor_failures")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("created_at", ">", deps.clock.now() - AUTH.twoFactorLockWindowMs)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Locked while the account has had too many wrong codes in the window (the lock ends as they age out). */
async function twoFactorLocked(deps: AccountDeps, userId: string): Promise<boolean> {
  return (await recentTwoFactorFailures(deps, userId)) >= AUTH.twoFactorAccountMaxFailures;
}

/** Counts a wrong code against the account; the one that locks the factor also mails the owner. */
async function countTwoFactorFailure(deps: AccountDeps, userId: string, language: Language): Promise<void> {
  await deps.db.insertInto("two_factor_failures").values({ user_id: userId, created_at: deps.clock.now() }).execute();
  if ((await recentTwoFactorFailures(deps, userId)) !== AUTH.twoFactorAccountMaxFailures) return;
  const user = await deps.db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  if (user) await deps.mailer.send(twoFactorLockedMail(language, user.email, (deps.studio ?? SHIPPED_STUDIO).brandName()));
  deps.log.warn("second factor locked after too many wrong codes", { userId });
}

/** A second factor that passed: whose sign-in it completes. */
export interface TwoFactorVerified {
  userId: string;
  rememberMe: boolean;
  usedBackupCode: boolean;
}

/** The pending sign-in is gone (unknown, expired, or ended by wrong codes): the password must be given again. */
const challengeEnded = () => new DomainError("unauthenticated", "twoFactorChallengeExpired");

/**
 * Checks the second factor of a pending sign-in. Right: the challenge is consumed. Wrong: counted
 * and refused (invalidVerificationCode), and the 5th wrong code in a row ends the pending sign-in.
 * Every refusal is thrown: an ended challenge (twoFactorChallengeExpired), a locked factor (twoFactorLocked).
 */
export async function verifyTwoFactorChallenge(
  deps: AccountDeps,
  challengeToken: string,
  code: string,
  backup: boolean,
  language: Language = DEFAULT_LANGUAGE,
): Promise<TwoFactorVerified> {
  const parts = splitToken(challengeToken);
  if (!parts) throw challengeEnded();
  const challenge = await deps.db.selectFrom("two_factor_challenges").selectAll().where("id", "=", parts.id).executeTakeFirst();
  if (!challenge || !secretMatches(parts.secret, challenge.secret_hash)) throw challengeEnded();
  if (challenge.expires_at <= deps.clock.now()) {
    await deps.db.deleteFrom("two_factor_challenges").where("id", "=", challenge.id).execute();
    throw challengeEnded();
  }
  if (await twoFactorLocked(deps, challenge.user_id)) {
    await deps.db.deleteFrom("two_factor_challenges").where("id", "=", challenge.id).execute();
    throw new DomainError("rate-limited", "twoFactorLocked");
  }
  // Count first, so parallel guesses cannot exceed the limit.
  const counted = await deps.db
    .updateTable("two_factor_challenges")
    .set((eb) => ({ failed_count: eb("failed_count", "+", 1) }))
    .where("id", "=", challenge.id)
    .where("failed_count", "<", AUTH.twoFactorMaxFailures)
    .returning("failed_count")
    .executeTakeFirst();
  if (!counted) {
    await deps.db.deleteFrom("two_factor_challenges").where("id", "=", challenge.id).execute();
    throw challengeEnded();
  }
  const check = backup
    ? (await acceptBackupCode(deps, challenge.user_id, code))
      ? "accepted"
      : "wrong"
    : await acceptTotp(deps, challenge.user_id, code, true);
  if (check !== "accepted") {
    // A code used already counts as a failure too: it may be someone replaying a code they saw.
    await countTwoFactorFailure(deps, challenge.user_id, language);
    if (counted.failed_count >= AUTH.twoFactorMaxFailures) {
      await deps.db.deleteFrom("two_factor_challenges").where("id", "=", challenge.id).execute();
    }
    throw refusedCode(check);
  }
  await deps.db.deleteFrom("two_factor_challenges").where("id", "=", challenge.id).execute();
  return { userId: challenge.user_id, rememberMe: challenge.remember_me === 1, usedBackupCode: backup };
}

/** A new browser sign-in: where it came from, and what the browser held before. */
export interface BrowserSignIn {
  userId: string;
  rememberMe: boolean;
  /** The session token the browser held before (that session ends). */
  previousToken: string | null;
  /** The anonymous id of this browser's demo work, which becomes the user's. */
  visitorId: string | null;
  request: SessionRequestInfo;
  language: Language;
}

/**
 * Every sign-in (password, second factor, Google) gets a new session; the one the browser held
 * before ends, and the free demo render made in this browser before signing in becomes the user's.
 * Returns the new session's token for the cookie.
 */
export async function completeSignIn(
  deps: AccountDeps,
  render: Pick<RenderModule, "adoptVisitorWork">,
  signIn: BrowserSignIn,
): Promise<{ token: string; session: SessionInfo }> {
  const previous = signIn.previousToken ? await validateSessionToken(deps.db, deps.clock, signIn.previousToken) : null;
  if (previous) await invalidateSession(deps.db, previous.id);
  const created = await createSession(deps.db, deps.clock, signIn.userId, signIn.rememberMe, signIn.request);
  if (signIn.visitorId) await render.adoptVisitorWork(signIn.visitorId, signIn.userId, signIn.language);
  return created;
}

export interface GoogleIdentity {
  sub: string;
  email: string;
  name?: string;
}

/** The user for a verified Google identity: linked before, same e-mail, or new. */
async function userForGoogle(deps: AccountDeps, claims: GoogleIdentity): Promise<string> {
  const linked = await deps.db
    .selectFrom("user_identities")
    .select("user_id")
    .where("provider", "=", "google")
    .where("provider_user_id", "=", claims.sub)
    .executeTakeFirst();
  if (linked) return linked.user_id;

  const now = deps.clock.now();
  const existing = await findUserByEmail(deps, claims.email);
  const userId = existing?.id ?? generateSecureRandomString();
  await deps.db.transaction().execute(async (trx) => {
    if (!existing) {
      await trx
        .insertInto("users")
        .values({ id: userId, email: claims.email, email_confirmed_at: now, password_hash: null, created_at: now, updated_at: now })
        .execute();
      await createProfile(trx, { id: userId, email: claims.email }, claims.name, now, signUpCreditsOf(deps));
    } else if (existing.email_confirmed_at === null) {
      // Google vouches for the address.
      await trx.updateTable("users").set({ email_confirmed_at: now, updated_at: now }).where("id", "=", userId).execute();
    }
    await trx
      .insertInto("user_identities")
      .values({ provider: "google", provider_user_id: claims.sub, user_id: userId, email: claims.email, created_at: now })
      .execute();
  });
  return userId;
}

export type GoogleSignInResult = { status: "signed-in"; userId: string } | { status: "two-factor-required"; challengeToken: string };

/**
 * Google vouched for the identity: link or create the account, then sign in (or ask for the second
 * factor). A disabled account is refused (accountDisabled), as a password sign-in refuses it.
 */
export async function signInWithGoogle(deps: AccountDeps, identity: GoogleIdentity): Promise<GoogleSignInResult> {
  const userId = await userForGoogle(deps, identity);
  const user = await deps.db.selectFrom("users").select(["id", "email", "disabled_at"]).where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.disabled_at !== null) throw new DomainError("forbidden", "accountDisabled");
  await ensureProfile(deps, user).catch((error: unknown) => deps.log.error("profile creation at sign-in failed", { userId, error }));
  if (await twoFactorEnabled(deps, userId))
    return { status: "two-factor-required", challengeToken: await createTwoFactorChallenge(deps, userId, false) };
  return { status: "signed-in", userId };
}

/** The signed-in user as the app shows them (auth.session). */
export async function accountSummary(deps: AccountDeps, userId: string) {
  const row = await deps.db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select([
      "users.id",
      "users.email",
      "users.email_confirmed_at",
      "users.onboarding_done_at",
      "profiles.full_name",
      "profiles.credits_remaining",
    ])
    .where("users.id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name ?? row.email,
    emailConfirmed: row.email_confirmed_at !== null,
    twoFactorEnabled: await twoFactorEnabled(deps, userId),
    creditsRemaining: row.credits_remaining ?? 0,
    /** The onboarding tour was completed or skipped, on any browser (decision 068). */
    onboardingDone: row.onboarding_done_at !== null,
  };
}

/**
 * The onboarding tour was completed or skipped (decision 068): kept on the account, so that it does
 * not open again on another browser. The first time counts; doing it again changes nothing.
 */
export async function finishOnboarding(deps: AccountDeps, userId: string): Promise<void> {
  await deps.db
    .updateTable("users")
    .set({ onboarding_done_at: deps.clock.now() })
    .where("id", "=", userId)
    .where("onboarding_done_at", "is", null)
    .execute();
}

/** Sends the confirmation mail again: at most once a minute per address; silent for unknown or confirmed addresses. */
export async function resendConfirmation(deps: AccountDeps, email: string, mail: MailContext, ownAccount = false): Promise<void> {
  const user = await findUserByEmail(deps, email);
  if (!user || user.email_confirmed_at !== null) return;
  if (user.confirmation_sent_at !== null && deps.clock.now() - user.confirmation_sent_at < AUTH.resendConfirmationIntervalMs) {
    // Within the interval nothing is sent. Asked by address, the answer is the same as for any
    // other address (a refusal would tell unconfirmed accounts apart); the signed-in owner is told.
    if (ownAccount) throw new DomainError("rate-limited", "tooManyRequests");
    return;
  }
  const profile = await deps.db.selectFrom("profiles").select("full_name").where("user_id", "=", user.id).executeTakeFirst();
  await sendConfirmationMail(deps, user, profile?.full_name ?? user.email, mail);
}

/** The profile row as the self-test reads it (spec section 7: all fields at most one row, or id only). */
export async function profileRow(deps: AccountDeps, userId: string, columns: "all" | "id") {
  if (columns === "id") {
    const row = await deps.db.selectFrom("profiles").select("user_id").where("user_id", "=", userId).limit(1).executeTakeFirst();
    return row ? { userId: row.user_id } : null;
  }
  const row = await deps.db.selectFrom("profiles").selectAll().where("user_id", "=", userId).limit(1).executeTakeFirst();
  return row
    ? {
        userId: row.user_id,
        email: row.email,
        fullName: row.full_name,
        creditsRemaining: row.credits_remaining,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      }
    : null;
}

export function createAccountsService(
  infra: AccountDeps,
  render: RenderModule,
  projects: ProjectsService,
  studio?: StudioFacts,
  teams?: Pick<SpacesModule, "teamsOf" | "ownersOf">,
  /** The community module: a member's publications of a team's work pass to its Owner with the work. */
  community?: { handOverTeamPublications(fromUserId: string, teamId: string, toUserId: string): Promise<void> },
) {
  const deps: AccountDeps = studio ? { ...infra, studio } : infra;
  return {
    signUp: (input: { email: string; password: string; fullName: string }, mail: MailContext) => signUp(deps, input, mail),
    signIn: (input: { email: string; password: string; rememberMe: boolean }, info: AttemptInfo) => signIn(deps, input, info),
    verifyTwoFactorChallenge: (challengeToken: string, code: string, backup: boolean, language?: Language) =>
      verifyTwoFactorChallenge(deps, challengeToken, code, backup, language),
    signInWithGoogle: (identity: GoogleIdentity) => signInWithGoogle(deps, identity),
    completeSignIn: (signIn: BrowserSignIn) => completeSignIn(deps, render, signIn),
    confirmEmail: (token: string) => confirmEmail(deps, token),
    resendConfirmation: (email: string, mail: MailContext, ownAccount?: boolean) => resendConfirmation(deps, email, mail, ownAccount),
    requestPasswordReset: (email: string, mail: MailContext) => requestPasswordReset(deps, email, mail),
    resetPassword: (token: string, newPassword: string) => resetPassword(deps, token, newPassword),
    resetLinkState: (token: string) => resetLinkState(deps, token),
    changePassword: (userId: string, currentSessionId: string | null, currentPassword: string, newPassword: string) =>
      changePassword(deps, userId, currentSessionId, currentPassword, newPassword),
    confirmPassword: (userId: string, password: string) => confirmPassword(deps, userId, password),
    summary: (userId: string) => accountSummary(deps, userId),
    finishOnboarding: (userId: string) => finishOnboarding(deps, userId),
    /**
     * Housekeeping: mail links (confirmation, reset) a week past their expiry, so that a link opened
     * again soon after can still be told apart from one that never existed; two-factor challenges
     * past theirs. Returns how many of each went.
     */
    async purgeExpiredTokens(): Promise<{ mailLinks: number; twoFactorChallenges: number }> {
      const now = deps.clock.now();
      const links = await deps.db
        .deleteFrom("email_tokens")
        .where("expires_at", "<", now - 7 * 86_400_000)
        .executeTakeFirst();
      const challenges = await deps.db.deleteFrom("two_factor_challenges").where("expires_at", "<", now).executeTakeFirst();
      return { mailLinks: Number(links.numDeletedRows), twoFactorChallenges: Number(challenges.numDeletedRows) };
    },
    /** True when Google sign-in is set up on this installation. */
    googleConfigured: () => googleConfigured(deps.env),
    profileRow: (userId: string, columns: "all" | "id") => profileRow(deps, userId, columns),

    /** /profile: who the user is, their credits, since when, and what they rendered. */
    async profile(userId: string) {
      const [user] = await profilePageRow(deps.db, userId);
      if (!user) throw new Error(`no user ${userId}`);
      const statistics = await render.userRenderStatistics(userId);
      return {
        email: user.email,
        fullName: user.full_name ?? user.email,
        credits: user.credits_remaining ?? 0,
        memberSince: user.created_at,
        emailConfirmed: user.email_confirmed_at !== null,
        hasPassword: Boolean(user.has_password),
        renders: statistics.renders,
        favouriteStyles: statistics.favouriteStyles,
        projects: await projects.count(userId),
      };
    },

    async updateFullName(userId: string, fullName: string): Promise<void> {
      await deps.db
        .updateTable("profiles")
        .set({ full_name: fullName, updated_at: deps.clock.now() })
        .where("user_id", "=", userId)
        .execute();
    },

    /**
     * Deletes the account and everything in it: pictures with their files, projects, sessions,
     * roles, the ledger. The user types their e-mail address, and their password when they have one.
     */
    async deleteAccount(userId: string, confirmEmail: string, password: string | undefined): Promise<void> {
      const user = await deps.db.selectFrom("users").select(["email", "password_hash"]).where("id", "=", userId).executeTakeFirstOrThrow();
      if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) throw new DomainError("invalid", "deleteConfirmationMismatch");
      if (user.password_hash !== null && !(await verifyPassword(user.password_hash, password ?? ""))) {
        throw new DomainError("invalid", "currentPasswordWrong");
      }
      // A team keeps one Owner: an Owner transfers the team or deletes it first. A member's work in a
      // team stays the team's, passed to its Owner (decision 070); their personal pictures go.
      const memberships = teams ? await teams.teamsOf(userId) : [];
      if (memberships.some((team) => team.role === "owner")) throw new DomainError("conflict", "accountOwnsTeam");
      const owners = memberships.length > 0 ? await teams!.ownersOf(memberships.map((team) => team.id)) : new Map<string, string>();
      for (const team of memberships) {
        const owner = owners.get(team.id);
        if (owner) {
          await projects.handOverTeamWork(userId, team.id, owner);
          await community?.handOverTeamPublications(userId, team.id, owner);
        }
      }
      await render.deleteUserImages({ userId });
      // Everything else hangs off the user row (ON DELETE CASCADE); analytics keep no user id.
      await deps.db.transaction().execute(async (trx) => {
        await clearAttempts(trx, user.email);
        await trx.deleteFrom("users").where("id", "=", userId).execute();
      });
      deps.log.info("account deleted at its owner's request", { userId });
    },

    /** Privacy: every picture the user uploaded or rendered, with its files (projects stay). */
    deleteAllImages: (userId: string) => render.deleteUserImages({ userId }),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
