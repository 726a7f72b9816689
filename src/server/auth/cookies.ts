/**
 * The session cookie: HttpOnly, SameSite=Lax, Path=/; Secure with the "__Host-" prefix when the
 * app is reached over HTTPS (the request itself, or PUBLIC_URL, says so).
 */
import { parse, serialize } from "cookie";
import type { Request, Response } from "express";
import type { Env } from "../env";

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
  res.append("Set-Cookie", serialize(secure ? SECURE_NAME : PLAIN_NAME, "", { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: 0 }));
}
