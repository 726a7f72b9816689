/**
 * The idle-session timing of spec §4 and §9 as pure functions of "now", so that tests drive them
 * with any clock. The server owns the deadline (session.idleExpiresAt); the client only decides
 * when to warn, when to give up, and when activity is worth telling the server about.
 */
import { AUTH } from "../../shared/constants";
import { MINUTE_MS } from "./time";

/** The warning comes this long before expiry: 30 − 25 = 5 minutes. */
export const IDLE_WARNING_LEAD_MS = AUTH.idleTimeoutMs - AUTH.idleWarningMs;

/**
 * Activity reaches the server at most this often: the server records activity no more often
 * than that, so more calls would change nothing.
 */
export const EXTEND_INTERVAL_MS = AUTH.activityUpdateIntervalMs;

export type IdleState =
  /** No idle handling: a remember-me session (idleExpiresAt null). */
  { phase: "off" } | { phase: "active"; msUntilWarning: number } | { phase: "warning"; msUntilExpiry: number } | { phase: "expired" };

export function idleState(now: number, idleExpiresAt: number | null): IdleState {
  if (idleExpiresAt === null) return { phase: "off" };
  const msUntilExpiry = idleExpiresAt - now;
  if (msUntilExpiry <= 0) return { phase: "expired" };
  if (msUntilExpiry <= IDLE_WARNING_LEAD_MS) return { phase: "warning", msUntilExpiry };
  return { phase: "active", msUntilWarning: msUntilExpiry - IDLE_WARNING_LEAD_MS };
}

/** How long to wait before looking again: until the next phase begins; null when nothing is due. */
export function nextCheckInMs(state: IdleState): number | null {
  switch (state.phase) {
    case "active":
      return state.msUntilWarning;
    case "warning":
      return state.msUntilExpiry;
    default:
      return null;
  }
}

/** Whole minutes left, rounded up, for "expires in N minutes" (5 at the moment the warning is due). */
export function minutesLeft(msUntilExpiry: number): number {
  return Math.max(1, Math.ceil(msUntilExpiry / MINUTE_MS));
}

export interface ExtendInput {
  now: number;
  idleExpiresAt: number | null;
  /** When the last extension was requested, or null if never. */
  lastExtendAt: number | null;
  /** An extension is on its way. */
  pending: boolean;
}

/**
 * Whether activity now should extend the session: only a live idle session, not while a call is
 * pending, and at most once per EXTEND_INTERVAL_MS. An expired session is not revived by a mouse move.
 */
export function shouldExtend({ now, idleExpiresAt, lastExtendAt, pending }: ExtendInput): boolean {
  const phase = idleState(now, idleExpiresAt).phase;
  if (phase === "off" || phase === "expired" || pending) return false;
  return lastExtendAt === null || now - lastExtendAt >= EXTEND_INTERVAL_MS;
}
