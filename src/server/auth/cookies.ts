/**
 * The session cookie: HttpOnly, SameSite=Lax, Path=/; Secure with the "__Host-" prefix when the
 * app is reached over HTTPS (the request itself, or PUBLIC_URL, says so).
 */
import { parse, serialize } from "cookie";
import type { Request, Response } from "express";
import type { AppDeps } from "../deps";
import type { Env } from "../env";
import { createSession, invalidateSession, validateSessionToken, type SessionRequestInfo } from "./sessions";
import { readVisitorId } from "../render/owner";
import { adoptVisitorWork } from "../services/visitor-work";
import { requestLanguage } from "../http/request-language";

const PLAIN_NAME = "session";
const SECURE_NAME = "__Host-session";

export function isSecureRequest(req: Request, env: Env): boolean {
  return req.secure || (env.PUBLIC_URL?.startsWith("https://") ?? false);
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parse(header)[name];
}

export function readSessionToken(req: Request, env: Env): string | undefined {
  return readCookie(req, isSecureRequest(req, env) ? SECURE_NAME : PLAIN_NAME);
}

/** persistentUntil: a date for remember-me sessions; undefined makes a browser-session cookie. */
export function setSessionCookie(req: Request, res: Response, env: Env, token: string, persistentUntil?: number): void {
  const secure = isSecureRequest(req, env);
  res.append(
    "Set-Cookie",
    serialize(secure ? SECURE_NAME : PLAIN_NAME, token, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      ...(persistentUntil ? { expires: new Date(persistentUntil) } : {}),
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response, env: Env): void {
  const secure = isSecureRequest(req, env);
  res.append(
    "Set-Cookie",
    serialize(secure ? SECURE_NAME : PLAIN_NAME, "", { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: 0 }),
  );
}

/** Who is asking: recorded with sessions and failed sign-ins. */
export function requestInfo(req: Request | undefined): SessionRequestInfo {
  return { userAgent: req?.get("user-agent") ?? null, ipAddress: req?.ip ?? null };
}

/**
 * Every sign-in (password, second factor, Google) gets a new session and token, set as this
 * browser's cookie; the session the browser held before ends.
 */
export async function startBrowserSession(deps: AppDeps, req: Request, res: Response, userId: string, rememberMe: boolean): Promise<void> {
  const previousToken = readSessionToken(req, deps.env);
  const previous = previousToken ? await validateSessionToken(deps.db, deps.clock, previousToken) : null;
  if (previous) await invalidateSession(deps.db, previous.id);
  const { token, session } = await createSession(deps.db, deps.clock, userId, rememberMe, requestInfo(req));
  setSessionCookie(req, res, deps.env, token, session.persistent ? session.expiresAt : undefined);
  // The free demo render made in this browser before signing in becomes the user's.
  const visitorId = readVisitorId(req);
  if (visitorId) await adoptVisitorWork(deps, visitorId, userId, requestLanguage(req));
}
