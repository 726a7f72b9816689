/**
 * Who is asking: the one place an Express request's session cookie and visitor cookie become a
 * user, a session and an owner. tRPC's context and every plain route use it.
 */
import type { Request, Response } from "express";
import type { SessionInfo, SessionsService } from "../auth/sessions";
import type { Env } from "../env";
import { ownerOf, type Owner } from "../render";
import { clearSessionCookie, readIdentityCookies } from "./cookies";
import { expressExchange, type HttpExchange } from "./exchange";

/** The signed-in user as procedures and routes see it. */
export interface SessionUser {
  id: string;
  email: string;
  /** The team whose space the user works in (null: personal), read with the session (decision 070). */
  spaceTeamId?: string | null;
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
  return identify(deps, expressExchange(req, res));
}

/** identifyRequest for any exchange (the edge's short road hands Node's own request and response: decision 055). */
export async function identify(deps: IdentityDeps, http: HttpExchange): Promise<RequestIdentity> {
  const { token, visitorId } = readIdentityCookies(http, deps.env);
  const found = token ? await deps.sessions.validate(token) : null;
  if (token && !found) {
    const { req, res } = http.express();
    clearSessionCookie(req, res, deps.env);
  }
  const user = found?.user ?? null;
  return { user, session: found?.session ?? null, visitorId, owner: ownerOf(user?.id ?? null, visitorId, user?.spaceTeamId ?? null) };
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

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where links in mails may point for this request, or null. A mailed link goes to someone's inbox,
 * so it never follows a Host header the server does not know (Host: evil.example once put a real
 * reset link to evil.example in the outbox): PUBLIC_URL; else the request's host when ALLOWED_HOSTS
 * lists it; without ALLOWED_HOSTS, only the address the server was started for (a loopback name,
 * or HOST, at the port the request arrived on).
 */
export function mailBaseUrl(req: Request | undefined, env: Pick<Env, "PUBLIC_URL" | "PORT" | "HOST" | "ALLOWED_HOSTS">): string | null {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, "");
  if (!req) return `http://localhost:${env.PORT}`;
  const host = (req.get("host") ?? "").toLowerCase();
  if (env.ALLOWED_HOSTS.length > 0) return env.ALLOWED_HOSTS.includes(host) ? `${req.protocol}://${host}` : null;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  if (!match) return null;
  const [, name = "", port] = match;
  const started = LOOPBACK_NAMES.has(name) || (env.HOST !== "0.0.0.0" && name === env.HOST.toLowerCase());
  const samePort = Number(port ?? (req.protocol === "https" ? 443 : 80)) === req.socket.localPort;
  return started && samePort ? `${req.protocol}://${host}` : null;
}
