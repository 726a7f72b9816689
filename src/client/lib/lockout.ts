/** What the auth page shows about the lockout of an e-mail address (spec §8 and §9). */
import { AUTH } from "../../shared/constants";

/** "Try again in N minutes": the server's figure, or the spec's 15 when it is unknown. */
export function lockMinutes(minutesRemaining: number | null | undefined): number {
  return typeof minutesRemaining === "number" && Number.isFinite(minutesRemaining) && minutesRemaining > 0
    ? Math.ceil(minutesRemaining)
    : AUTH.lockoutMinutes;
}

/** The "N attempt(s) remaining" banner shows at 1 to 4 attempts left, never before a first failure. */
export function showsAttemptsBanner(attemptsRemaining: number | null | undefined): boolean {
  return typeof attemptsRemaining === "number" && attemptsRemaining >= 1 && attemptsRemaining < AUTH.maxFailedAttempts;
}

/** Lockout is per e-mail address; addresses are compared the way the server stores them. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
