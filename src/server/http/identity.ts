/**
 * Who is asking: the one place an Express request's session cookie and visitor cookie become a
 * user, a session and an owner. tRPC's context and every plain route use it.
 */
import type { Request, Response } from "express";
import type { SessionInfo, SessionsService } from "../auth/sessions";
import type { Env } from "../env";
import { ownerOf, type Owner } from "../render";
import { clearSessionCookie, readSessionToken, readVisitorId } from "./cookies";

/** The signed-in user as procedures and routes see it. */
export interface SessionUser {
  id: string;
  email: string;
}

export interface RequestIdentity {
  user: SessionUser | null;
  session: SessionInfo | null;
  /** The anonymous id of a visitor's free demo render (cookie), when there is one. */
  visitorId: string | null;
  /** The user, else the visitor, else nobody: whose uploads and renders this request may see. */
  owner: Owner | null;
}

export interface IdentityDeps {
  sessions: Pick<SessionsService, "validate">;
  env: Pick<Env, "PUBLIC_URL">;
}

/** Reads the cookies; an invalid or expired session cookie is cleared. Disabled accounts have no session. */
export async function identifyRequest(deps: IdentityDeps, req: Request, res: Response): Promise<RequestIdentity> {
  const token = readSessionToken(req, deps.env);
  const found = token ? await deps.sessions.validate(token) : null;
  if (token && !found) clearSessionCookie(req, res, deps.env);
  const visitorId = readVisitorId(req);
  const user = found?.user ?? null;
  return { user, session: found?.session ?? null, visitorId, owner: ownerOf(user?.id ?? null, visitorId) };
}

/** The request's address, for per-address limits ("local" when Express cannot tell). */
export function clientAddress(req: Request | undefined): string {
  return req?.ip ?? "local";
}

/** Where links for this request point: PUBLIC_URL, else the address the request came to. */
export function requestBaseUrl(req: Request | undefined, env: Pick<Env, "PUBLIC_URL" | "PORT">): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, "");
  if (req) return `${req.protocol}://${req.get("host")}`;
  return `http://localhost:${env.PORT}`;
}
