/**
 * Calendar months (UTC) as whole numbers, year * 12 + month (0–11): how team_member_usage counts a
 * member's monthly cap, the team page groups its use, and the client names the month.
 */

/** The month (UTC) a moment falls in. */
export function monthIndexOf(at: number): number {
  const date = new Date(at);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The first moment (UTC) of a month index. */
export function monthIndexStart(month: number): number {
  return Date.UTC(Math.floor(month / 12), month % 12, 1);
}
