/**
 * Who owns an upload or a render: a signed-in user, or a visitor known only by an anonymous
 * cookie id (the free demo render). Every query for files and jobs filters by the owner.
 */
import { parse, serialize } from "cookie";
import type { Request, Response } from "express";
import { generateSecureRandomString } from "../auth/tokens";
import { isSecureRequest } from "../auth/cookies";
import type { Env } from "../env";

export type Owner = { userId: string; visitorId: null } | { userId: null; visitorId: string };

export const userOwner = (userId: string): Owner => ({ userId, visitorId: null });
export const visitorOwner = (visitorId: string): Owner => ({ userId: null, visitorId });

/** The key of the owner's event stream ("u:<id>" / "v:<id>"). */
export function ownerKey(owner: Owner): string {
  return owner.userId !== null ? `u:${owner.userId}` : `v:${owner.visitorId}`;
}

/** The owner columns of a row, for inserts. */
export function ownerColumns(owner: Owner): { user_id: string | null; visitor_id: string | null } {
  return { user_id: owner.userId, visitor_id: owner.visitorId };
}

/** True when the row (uploads, render_jobs) belongs to the owner. */
export function ownsRow(owner: Owner, row: { user_id: string | null; visitor_id: string | null }): boolean {
  return owner.userId !== null ? row.user_id === owner.userId : row.visitor_id === owner.visitorId;
}

const VISITOR_COOKIE = "visitor";
const VISITOR_ID_PATTERN = /^[a-z2-7]{24}$/;
const VISITOR_COOKIE_DAYS = 365;

export function readVisitorId(req: Request): string | null {
  const header = req.headers.cookie;
  const value = header ? parse(header)[VISITOR_COOKIE] : undefined;
  return value && VISITOR_ID_PATTERN.test(value) ? value : null;
}

/** The visitor's id, issuing the anonymous cookie on the first upload. */
export function ensureVisitorId(req: Request, res: Response, env: Env): string {
  const existing = readVisitorId(req);
  if (existing) return existing;
  const id = generateSecureRandomString();
  res.append(
    "Set-Cookie",
    serialize(VISITOR_COOKIE, id, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: isSecureRequest(req, env),
      maxAge: VISITOR_COOKIE_DAYS * 86_400,
    }),
  );
  return id;
}
