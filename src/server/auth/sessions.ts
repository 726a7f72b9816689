/**
 * Sessions, following Lucia's current guide (lucia-auth.com/sessions): the cookie holds
 * "<id>.<secret>"; the table holds the id and a SHA-256 hash of the secret only, compared in
 * constant time. A normal session ends after 30 minutes without activity (activity is recorded
 * at most once a minute); a remember-me session lasts 30 days. Rows can be listed and revoked.
 * Owns the sessions table (decision 054): ending another module's sessions goes through here.
 */
import { AUTH } from "../../shared/constants";
import type { AppDatabase } from "../db/client";
import { preparedQuery } from "../db/prepared";
import type { Clock } from "../clock";
import { DomainError } from "../errors";
import { createIdAndSecret, secretMatches, splitToken } from "./tokens";

const DAY_MS = 86_400_000;

export interface SessionInfo {
  id: string;
  userId: string;
  persistent: boolean;
  createdAt: number;
  lastActiveAt: number;
  expiresAt: number;
  /** When the session ends if nothing happens; null for remember-me sessions. */
  idleExpiresAt: number | null;
}

export interface SessionRequestInfo {
  userAgent?: string | null;
  ipAddress?: string | null;
}

function toInfo(row: {
  id: string;
  user_id: string;
  persistent: number;
  created_at: number;
  last_active_at: number;
  expires_at: number;
}): SessionInfo {
  const persistent = row.persistent === 1;
  return {
    id: row.id,
    userId: row.user_id,
    persistent,
    createdAt: row.created_at,
    lastActiveAt: row.last_active_at,
    expiresAt: row.expires_at,
    idleExpiresAt: persistent ? null : row.expires_at,
  };
}

export async function createSession(
  db: AppDatabase,
  clock: Clock,
  userId: string,
  persistent: boolean,
  request: SessionRequestInfo = {},
): Promise<{ token: string; session: SessionInfo }> {
  const now = clock.now();
  const { id, token, secretHash } = createIdAndSecret();
  const row = {
    id,
    user_id: userId,
    secret_hash: secretHash,
    persistent: persistent ? 1 : 0,
    created_at: now,
    last_active_at: now,
    expires_at: persistent ? now + AUTH.rememberMeDays * DAY_MS : now + AUTH.idleTimeoutMs,
    user_agent: request.userAgent?.slice(0, 300) ?? null,
    ip_address: request.ipAddress ?? null,
  };
  await db.insertInto("sessions").values(row).execute();
  return { token, session: toInfo(row) };
}

/**
 * Returns the session for a cookie token, or null (unknown, wrong secret, expired: expired rows
 * are deleted). Records activity when the last record is older than the update interval.
 */
export async function validateSessionToken(db: AppDatabase, clock: Clock, token: string): Promise<SessionInfo | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const row = await db.selectFrom("sessions").selectAll().where("id", "=", parts.id).executeTakeFirst();
  if (!row || !secretMatches(parts.secret, row.secret_hash)) return null;
  const now = clock.now();
  if (now >= row.expires_at) {
    await db.deleteFrom("sessions").where("id", "=", row.id).execute();
    return null;
  }
  if (now - row.last_active_at >= AUTH.activityUpdateIntervalMs) {
    return recordActivity(db, row, now);
  }
  return toInfo(row);
}

async function recordActivity(
  db: AppDatabase,
  row: { id: string; user_id: string; persistent: number; created_at: number; expires_at: number },
  now: number,
): Promise<SessionInfo> {
  const expiresAt = row.persistent === 1 ? row.expires_at : now + AUTH.idleTimeoutMs;
  await db.updateTable("sessions").set({ last_active_at: now, expires_at: expiresAt }).where("id", "=", row.id).execute();
  return toInfo({ ...row, last_active_at: now, expires_at: expiresAt });
}

/**
 * Explicit "keep me signed in" from the idle warning: records activity now. No session (or one that
 * has ended) is refused: sessionExpired.
 */
export async function extendSession(db: AppDatabase, clock: Clock, sessionId: string | null): Promise<SessionInfo> {
  const row = sessionId ? await db.selectFrom("sessions").selectAll().where("id", "=", sessionId).executeTakeFirst() : undefined;
  if (!row || clock.now() >= row.expires_at) throw new DomainError("unauthenticated", "sessionExpired");
  return recordActivity(db, row, clock.now());
}

export async function invalidateSession(db: AppDatabase, sessionId: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
}

/**
 * Ends every session of a user except `keepSessionId` (after a password change or reset); null ends
 * them all (an admin disabling the account). Runs inside the caller's transaction when given one.
 */
export async function invalidateOtherSessions(db: AppDatabase, userId: string, keepSessionId: string | null): Promise<number> {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepSessionId) query = query.where("id", "!=", keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listSessions(db: AppDatabase, clock: Clock, userId: string) {
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "user_id", "persistent", "created_at", "last_active_at", "expires_at", "user_agent", "ip_address"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", clock.now())
    .orderBy("last_active_at", "desc")
    .execute();
  return rows.map((row) => ({ ...toInfo(row), userAgent: row.user_agent, ipAddress: row.ip_address }));
}

// The columns validation needs (not the stored user agent and address, which every request would copy).
// It reads users, a table of the accounts service: the one read of it outside accounts, kept because
// every request runs it (decisions 044 and 054; tests/unit/table-owners.test.ts lists the exception).
// The user's address comes from a subquery, not a join: SQLite 3.54 (better-sqlite3 13) prepares a
// join again each time its parameter is bound, 20 µs instead of 2 (decision 061).
const sessionWithUser = preparedQuery((db, sessionId: string) =>
  db
    .selectFrom("sessions")
    .select((eb) => [
      "sessions.id",
      "sessions.user_id",
      "sessions.secret_hash",
      "sessions.persistent",
      "sessions.created_at",
      "sessions.last_active_at",
      "sessions.expires_at",
      eb
        .selectFrom("users")
        .select("users.email")
        .whereRef("users.id", "=", "sessions.user_id")
        .where("users.disabled_at", "is", null)
        .as("email"),
      // The team the user works in (decision 070), only while they are its member: a removed member is back in their own space.
      eb
        .selectFrom("current_spaces")
        .innerJoin("team_members", (join) =>
          join.onRef("team_members.team_id", "=", "current_spaces.team_id").onRef("team_members.user_id", "=", "current_spaces.user_id"),
        )
        .select("current_spaces.team_id")
        .whereRef("current_spaces.user_id", "=", "sessions.user_id")
        .as("space_team_id"),
    ])
    .where("sessions.id", "=", sessionId),
);

/**
 * The session of a cookie token with its user, or null (also when an admin disabled the account).
 * Every request asks, so session and user come in one statement (decision 044).
 */
export async function validateSessionWithUser(
  db: AppDatabase,
  clock: Clock,
  token: string,
): Promise<{ session: SessionInfo; user: { id: string; email: string; spaceTeamId: string | null } } | null> {
  const parts = splitToken(token);
  if (!parts) return null;
  const [row] = await sessionWithUser(db, parts.id);
  // No address: the account is disabled (or gone).
  if (!row || row.email === null || !secretMatches(parts.secret, row.secret_hash)) return null;
  const now = clock.now();
  if (now >= row.expires_at) {
    await db.deleteFrom("sessions").where("id", "=", row.id).execute();
    return null;
  }
  const session = now - row.last_active_at >= AUTH.activityUpdateIntervalMs ? await recordActivity(db, row, now) : toInfo(row);
  return { session, user: { id: row.user_id, email: row.email, spaceTeamId: row.space_team_id ?? null } };
}

/** Ends one of the user's own sessions (another user's id simply matches nothing). */
export async function revokeUserSession(db: AppDatabase, userId: string, sessionId: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sessionId).where("user_id", "=", userId).execute();
}

export function createSessionsService(db: AppDatabase, clock: Clock) {
  return {
    /** The session of a cookie token with its (enabled) user, or null. */
    validate: (token: string) => validateSessionWithUser(db, clock, token),
    /** The request's session (null: it has none), extended; refused when it has ended. */
    extend: (sessionId: string | null) => extendSession(db, clock, sessionId),
    invalidate: (sessionId: string) => invalidateSession(db, sessionId),
    invalidateOthers: (userId: string, keepSessionId: string | null) => invalidateOtherSessions(db, userId, keepSessionId),
    list: (userId: string) => listSessions(db, clock, userId),
    revoke: (userId: string, sessionId: string) => revokeUserSession(db, userId, sessionId),
    /** Housekeeping: removes sessions past their expiry (idle or absolute); returns how many. */
    async purgeExpired(): Promise<number> {
      const result = await db.deleteFrom("sessions").where("expires_at", "<", clock.now()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
