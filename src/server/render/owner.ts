/**
 * Who owns an upload or a render: a signed-in user, or a visitor known only by an anonymous
 * cookie id (the free demo render). Every query for files and jobs filters by the owner.
 * (The visitor cookie itself is read and written at the edge, in http/cookies.ts.)
 */
import type { Request, Response } from "express";

export type Owner = { userId: string; visitorId: null } | { userId: null; visitorId: string };

/** Who is asking, resolved at the edge (session or visitor cookie) and handed to the render routes. */
export type OwnerOfRequest = (req: Request, res: Response) => Promise<Owner | null>;

export const userOwner = (userId: string): Owner => ({ userId, visitorId: null });
export const visitorOwner = (visitorId: string): Owner => ({ userId: null, visitorId });

/** The signed-in user, else the visitor's anonymous id, else nobody. */
export function ownerOf(userId: string | null, visitorId: string | null): Owner | null {
  if (userId !== null) return userOwner(userId);
  return visitorId !== null ? visitorOwner(visitorId) : null;
}

/** The key of the owner's event stream ("u:<id>" / "v:<id>"). */
export function ownerKey(owner: Owner): string {
  return owner.userId !== null ? `u:${owner.userId}` : `v:${owner.visitorId}`;
}

/** The owner columns of a row, for inserts. */
export function ownerColumns(owner: Owner): { user_id: string | null; visitor_id: string | null } {
  return { user_id: owner.userId, visitor_id: owner.visitorId };
}

/** The owner of a row (uploads, render_jobs). */
export const rowOwner = (row: { user_id: string | null; visitor_id: string | null }): Owner =>
  row.user_id !== null ? userOwner(row.user_id) : visitorOwner(row.visitor_id!);

/** True when the row (uploads, render_jobs) belongs to the owner: the one owner check. */
export function ownsRow(owner: Owner, row: { user_id: string | null; visitor_id: string | null }): boolean {
  return owner.userId !== null ? row.user_id === owner.userId : row.visitor_id === owner.visitorId;
}
