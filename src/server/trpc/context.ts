import type { Request, Response } from "express";
import { clearSessionCookie, readSessionToken } from "../auth/cookies";
import { validateSessionToken, type SessionInfo } from "../auth/sessions";
import type { AppDeps } from "../deps";
import { readVisitorId } from "../render/owner";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/constants";
import { requestLanguage } from "../http/request-language";

/** The signed-in user as procedures see it. */
export interface SessionUser {
  id: string;
  email: string;
}

export interface Context extends AppDeps {
  user: SessionUser | null;
  /** The interface language the request came from (for mails): the client's header, else Accept-Language, else en. */
  language: Language;
  session: SessionInfo | null;
  /** The anonymous id of a visitor's free demo render (cookie), when there is one. */
  visitorId: string | null;
  /** Present for HTTP calls; absent for createCaller in tests and scripts. */
  req?: Request;
  res?: Response;
}

/** The context without HTTP: used by tests (createCaller) and by the per-request factory. */
export function createContextInner(
  deps: AppDeps,
  user: SessionUser | null = null,
  session: SessionInfo | null = null,
  visitorId: string | null = null,
): Context {
  return { ...deps, user, session, visitorId, language: DEFAULT_LANGUAGE };
}

/** Reads the session cookie; an invalid or expired one is cleared. Disabled accounts have no session. */
export async function resolveSession(
  deps: AppDeps,
  req: Request,
  res: Response,
): Promise<{ user: SessionUser | null; session: SessionInfo | null }> {
  const token = readSessionToken(req, deps.env);
  if (!token) return { user: null, session: null };
  const session = await validateSessionToken(deps.db, deps.clock, token);
  const user = session
    ? await deps.db
        .selectFrom("users")
        .select(["id", "email"])
        .where("id", "=", session.userId)
        .where("disabled_at", "is", null)
        .executeTakeFirst()
    : undefined;
  if (!session || !user) {
    clearSessionCookie(req, res, deps.env);
    return { user: null, session: null };
  }
  return { user, session };
}

export async function createContext(deps: AppDeps, req: Request, res: Response): Promise<Context> {
  const { user, session } = await resolveSession(deps, req, res);
  return { ...createContextInner(deps, user, session, readVisitorId(req)), language: requestLanguage(req), req, res };
}
