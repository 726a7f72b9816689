/**
 * The browser's cookies: the session cookie (HttpOnly, SameSite=Lax, Path=/; Secure with the
 * "__Host-" prefix when the app is reached over HTTPS: the request itself, or PUBLIC_URL, says so)
 * and the visitor cookie (the anonymous id of a visitor's free demo render).
 */
import { parse, serialize } from "cookie";
import type { Request, Response } from "express";
import { generateSecureRandomString } from "../auth/tokens";
import type { Env } from "../env";
import type { HttpExchange } from "./exchange";

const PLAIN_NAME = "session";
const SECURE_NAME = "__Host-session";
const VISITOR_COOKIE = "visitor";
const VISITOR_ID_PATTERN = /^[a-z2-7]{24}$/;
const VISITOR_COOKIE_DAYS = 365;

export function isSecureRequest(req: Request, env: Pick<Env, "PUBLIC_URL">): boolean {
  return req.secure || (env.PUBLIC_URL?.startsWith("https://") ?? false);
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parse(header)[name];
}

export function readSessionToken(req: Request, env: Pick<Env, "PUBLIC_URL">): string | undefined {
  return readCookie(req, isSecureRequest(req, env) ? SECURE_NAME : PLAIN_NAME);
}

/** The session token and the visitor's id of a request, from one reading of its Cookie header (what readSessionToken and readVisitorId answer). */
export function readIdentityCookies(
  http: HttpExchange,
  env: Pick<Env, "PUBLIC_URL">,
): { token: string | undefined; visitorId: string | null } {
  const header = http.headers.cookie;
  if (!header) return { token: undefined, visitorId: null };
  const cookies = parse(header);
  // isSecureRequest's answer; PUBLIC_URL first, which settles it without looking at the request.
  const secure = (env.PUBLIC_URL?.startsWith("https://") ?? false) || http.secure();
  const visitor = cookies[VISITOR_COOKIE];
  return { token: cookies[secure ? SECURE_NAME : PLAIN_NAME], visitorId: visitor && VISITOR_ID_PATTERN.test(visitor) ? visitor : null };
}

/** persistentUntil: a date for remember-me sessions; undefined makes a browser-session cookie. */
export function setSessionCookie(req: Request, res: Response, env: Pick<Env, "PUBLIC_URL">, token: string, persistentUntil?: number): void {
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

export function clearSessionCookie(req: Request, res: Response, env: Pick<Env, "PUBLIC_URL">): void {
  const secure = isSecureRequest(req, env);
  res.append(
    "Set-Cookie",
    serialize(secure ? SECURE_NAME : PLAIN_NAME, "", { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: 0 }),
  );
}

/** A short-lived HttpOnly cookie of a sign-in flow (Google's state and code verifier). */
export function setFlowCookie(
  req: Request,
  res: Response,
  env: Pick<Env, "PUBLIC_URL">,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  res.append(
    "Set-Cookie",
    serialize(name, value, { httpOnly: true, sameSite: "lax", path: "/", secure: isSecureRequest(req, env), maxAge: maxAgeSeconds }),
  );
}

export function readVisitorId(req: Request): string | null {
  const value = readCookie(req, VISITOR_COOKIE);
  return value && VISITOR_ID_PATTERN.test(value) ? value : null;
}

/** The visitor's id, issuing the anonymous cookie on the first upload. */
export function ensureVisitorId(req: Request, res: Response, env: Pick<Env, "PUBLIC_URL">): string {
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
