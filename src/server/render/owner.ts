/**
 * Who owns an upload or a render: a signed-in user, or a visitor known only by an anonymous
 * cookie id (the free demo render). A signed-in user works in a space (decision 070): their
 * personal space, or a team (`teamId`), where new work is filed and lists are read. A row of a
 * team (team_id set) may be used by any current member of that team: that check needs the
 * database and lives in records.ts (mayUse); ownsRow here is the personal rule.
 * (The visitor cookie itself is read and written at the edge, in http/cookies.ts.)
 */
import type { Request, Response } from "express";

export type Owner = { userId: string; visitorId: null; teamId: string | null } | { userId: null; visitorId: string; teamId: null };

/** Who is asking, resolved at the edge (session or visitor cookie) and handed to the render routes. */
export type OwnerOfRequest = (req: Request, res: Response) => Promise<Owner | null>;

/** A signed-in user, working in their personal space or (teamId) a team's. */
export const userOwner = (userId: string, teamId: string | null = null): Owner => ({ userId, visitorId: null, teamId });
export const visitorOwner = (visitorId: string): Owner => ({ userId: null, visitorId, teamId: null });

/** The signed-in user (in the space they work in), else the visitor's anonymous id, else nobody. */
export function ownerOf(userId: string | null, visitorId: string | null, teamId: string | null = null): Owner | null {
  if (userId !== null) return userOwner(userId, teamId);
  return visitorId !== null ? visitorOwner(visitorId) : null;
}

/** The key of the event stream of the owner's space ("t:<team>", "u:<id>", "v:<id>"). */
export function ownerKey(owner: Owner): string {
  if (owner.teamId !== null) return `t:${owner.teamId}`;
  return owner.userId !== null ? `u:${owner.userId}` : `v:${owner.visitorId}`;
}

type OwnedRow = { user_id: string | null; visitor_id: string | null; team_id: string | null };

/** The key a row's events are published under: its team's, else its author's or visitor's. */
export function rowKey(row: OwnedRow): string {
  if (row.team_id) return `t:${row.team_id}`;
  return row.user_id !== null ? `u:${row.user_id}` : `v:${row.visitor_id}`;
}

/** The owner columns of a row, for inserts (its team_id comes from its project). */
export function ownerColumns(owner: Owner): { user_id: string | null; visitor_id: string | null } {
  return { user_id: owner.userId, visitor_id: owner.visitorId };
}

/** True when a personal row (no team) belongs to the owner; a team row is never decided here. */
export function ownsRow(owner: Owner, row: OwnedRow): boolean {
  if (row.team_id) return false;
  return owner.userId !== null ? row.user_id === owner.userId : row.visitor_id === owner.visitorId;
}

/**
 * May this owner use the row (upload or job)? A personal row: its author (or visitor). A team's row:
 * any current member of the team, asked of the spaces module on every call (decision 070), so a
 * removed member is refused at once.
 */
export async function mayUse(
  deps: { teams: { membership(userId: string, teamId: string): Promise<unknown> } },
  owner: Owner,
  row: OwnedRow,
): Promise<boolean> {
  if (row.team_id !== null) return owner.userId !== null && (await deps.teams.membership(owner.userId, row.team_id)) !== null;
  return ownsRow(owner, row);
}
