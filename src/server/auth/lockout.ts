/**
 * Per-email lockout (spec sections 7 and 9): 5 failed sign-ins lock the account for 15 minutes.
 * An attempt is counted *before* its password is checked, in one transaction, so parallel wrong
 * passwords cannot get more than 5 checks; a correct password then clears the count.
 * Owns the login_attempts table (decision 054).
 */
import { AUTH } from "../../shared/constants";
import type { AppDatabase } from "../db/client";
import { forUpdate } from "../db/locking";
import type { Clock } from "../clock";

export interface LockoutStatus {
  isLocked: boolean;
  attemptsRemaining: number;
  minutesRemaining: number;
  message: string;
}

const MINUTE_MS = 60_000;

function normalize(email: string): string {
  return email.trim().toLowerCase();
}

function describe(failedCount: number, lockedUntil: number | null, now: number): LockoutStatus {
  if (lockedUntil !== null && lockedUntil > now) {
    const minutesRemaining = Math.max(1, Math.ceil((lockedUntil - now) / MINUTE_MS));
    return {
      isLocked: true,
      attemptsRemaining: 0,
      minutesRemaining,
      message: `Account temporarily locked due to too many failed login attempts. Try again in ${minutesRemaining} minutes.`,
    };
  }
  const attemptsRemaining = Math.max(0, AUTH.maxFailedAttempts - failedCount);
  return {
    isLocked: false,
    attemptsRemaining,
    minutesRemaining: 0,
    message: failedCount === 0 ? "Account is not locked." : `${attemptsRemaining} attempt(s) remaining before the account is locked.`,
  };
}

/** A lock that has run out counts as a fresh start. */
function current(row: { failed_count: number; locked_until: number | null } | undefined, now: number) {
  if (!row) return { failed_count: 0, locked_until: null };
  if (row.locked_until !== null && row.locked_until <= now) return { failed_count: 0, locked_until: null };
  return row;
}

export async function lockoutStatus(db: AppDatabase, clock: Clock, email: string): Promise<LockoutStatus> {
  const now = clock.now();
  const row = await db
    .selectFrom("login_attempts")
    .select(["failed_count", "locked_until"])
    .where("email", "=", normalize(email))
    .executeTakeFirst();
  const state = current(row, now);
  return describe(state.failed_count, state.locked_until, now);
}

/**
 * The recorded lock end (null: none) of each of these addresses, in one statement: the admin's user
 * list. Keyed by the addresses as given; an address without attempts is left out.
 */
export async function lockedUntilOf(db: AppDatabase, emails: readonly string[]): Promise<Map<string, number | null>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .selectFrom("login_attempts")
    .select(["email", "locked_until"])
    .where("email", "in", [...new Set(emails.map(normalize))])
    .execute();
  const byKey = new Map(rows.map((row) => [row.email, row]));
  const found = new Map<string, number | null>();
  for (const email of emails) {
    const row = byKey.get(normalize(email));
    if (row) found.set(email, row.locked_until);
  }
  return found;
}

export interface AttemptInfo {
  ipAddress?: string | null;
  userAgent?: string | null;
}

/**
 * Counts one failed attempt now (a sign-in calls this before checking the password and
 * clearAttempts() when the password was right). Refused when the account is already locked.
 */
export async function countFailedAttempt(
  db: AppDatabase,
  clock: Clock,
  email: string,
  info: AttemptInfo = {},
): Promise<{ allowed: boolean; status: LockoutStatus }> {
  const key = normalize(email);
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    // The address's row exists and is locked before it is read: parallel attempts count one at a time.
    await trx
      .insertInto("login_attempts")
      .values({ email: key, failed_count: 0, updated_at: now })
      .onConflict((conflict) => conflict.column("email").doNothing())
      .execute();
    const row = await forUpdate(
      trx,
      trx.selectFrom("login_attempts").select(["failed_count", "locked_until"]).where("email", "=", key),
    ).executeTakeFirst();
    const state = current(row, now);
    if (state.locked_until !== null) return { allowed: false, status: describe(state.failed_count, state.locked_until, now) };

    const failedCount = state.failed_count + 1;
    const lockedUntil = failedCount >= AUTH.maxFailedAttempts ? now + AUTH.lockoutMinutes * MINUTE_MS : null;
    const values = {
      failed_count: failedCount,
      locked_until: lockedUntil,
      last_failed_at: now,
      last_ip_address: info.ipAddress ?? null,
      last_user_agent: info.userAgent?.slice(0, 300) ?? null,
      updated_at: now,
    };
    await trx
      .insertInto("login_attempts")
      .values({ email: key, ...values })
      .onConflict((conflict) => conflict.column("email").doUpdateSet(values))
      .execute();
    return { allowed: true, status: describe(failedCount, lockedUntil, now) };
  });
}

/** A successful sign-in (or an admin unlocking the account, or deleting it) clears the count and any lock. Inside a transaction too. */
export async function clearAttempts(db: AppDatabase, email: string): Promise<void> {
  await db.deleteFrom("login_attempts").where("email", "=", normalize(email)).execute();
}

export function createLockoutService(db: AppDatabase, clock: Clock) {
  return {
    status: (email: string) => lockoutStatus(db, clock, email),
    countFailedAttempt: (email: string, info: AttemptInfo = {}) => countFailedAttempt(db, clock, email, info),
    clear: (email: string) => clearAttempts(db, email),
  };
}

export type LockoutService = ReturnType<typeof createLockoutService>;
